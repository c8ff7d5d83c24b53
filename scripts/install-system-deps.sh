#!/usr/bin/env bash
# Installs the Debian packages the project needs, only if they are missing.
#   scripts/install-system-deps.sh demo   what `make demo` needs:
#     socat                     simulated tables on pseudo-terminals
#   scripts/install-system-deps.sh test   (the default) everything `make test` needs, i.e.
#   the demo set and:
#     chromium, poppler-utils   scoreboard and súmula tests (headless browser, PDF to PNG)
#     gcc-arm-none-eabi, newlib, cmake   building the Pico firmware image (make firmware)
#     nodejs, npm               the virtual Pico (rp2040js) that runs that image in the tests
#     mosquitto, mosquitto-clients       the MQTT broker of the venue (tournament day)
#     openssl                   self-signed certificates for the HTTPS test (serve --tls-cert)
#     stress-ng                 keeps the cores busy for scripts/stress-suite.sh (make test-stress)
set -euo pipefail
set_name="${1:-test}"
case "$set_name" in demo|test) ;; *) echo "usage: $0 [demo|test]" >&2; exit 2 ;; esac
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
need=()
command -v socat >/dev/null 2>&1 || need+=(socat)
if [ "$set_name" = test ]; then
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
  command -v arm-none-eabi-gcc >/dev/null 2>&1 || need+=(gcc-arm-none-eabi)
  have_pkg libnewlib-arm-none-eabi || need+=(libnewlib-arm-none-eabi)
  have_pkg libstdc++-arm-none-eabi-newlib || need+=(libstdc++-arm-none-eabi-newlib)
  command -v cmake >/dev/null 2>&1 || need+=(cmake)
  command -v node >/dev/null 2>&1 || need+=(nodejs)
  command -v npm >/dev/null 2>&1 || need+=(npm)
  { command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ]; } || need+=(mosquitto)
  command -v mosquitto_pub >/dev/null 2>&1 || need+=(mosquitto-clients)
  command -v stress-ng >/dev/null 2>&1 || need+=(stress-ng)
  command -v openssl >/dev/null 2>&1 || need+=(openssl)
fi
if [ ${#need[@]} -eq 0 ]; then echo "==> Debian packages for $set_name: all present"; exit 0; fi
echo "==> installing Debian packages for $set_name: ${need[*]} (a few minutes)"
SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "error: need root (or sudo) to install: ${need[*]}. Run: apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
echo "==> Debian packages installed"
