#!/usr/bin/env bash
# Installs the Debian packages the project needs, only if they are missing:
#   chromium, poppler-utils   scoreboard and súmula tests (headless browser, PDF to PNG)
#   socat                     simulated tables on pseudo-terminals
#   gcc-arm-none-eabi, newlib, cmake   building the Pico firmware image (make firmware)
#   nodejs, npm               the virtual Pico (rp2040js) that runs that image in the tests
#   mosquitto, mosquitto-clients       the MQTT broker of the venue (tournament day)
#   openssl                   self-signed certificates for the HTTPS test (serve --tls-cert)
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
command -v socat >/dev/null 2>&1 || need+=(socat)
command -v arm-none-eabi-gcc >/dev/null 2>&1 || need+=(gcc-arm-none-eabi)
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
have_pkg libnewlib-arm-none-eabi || need+=(libnewlib-arm-none-eabi)
have_pkg libstdc++-arm-none-eabi-newlib || need+=(libstdc++-arm-none-eabi-newlib)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
[ -x /usr/sbin/mosquitto ] || command -v mosquitto >/dev/null 2>&1 || need+=(mosquitto)
command -v mosquitto_pub >/dev/null 2>&1 || need+=(mosquitto-clients)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
if [ ${#need[@]} -eq 0 ]; then exit 0; fi
echo "installing Debian packages: ${need[*]}"
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "error: need root (or sudo) to install: ${need[*]}. Run: apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
