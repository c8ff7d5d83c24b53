#!/usr/bin/env bash
# `make firmware-sources`: downloads the MicroPython v1.28.0 release source from the MicroPython
# project's own download into build/vendor/ and checks it (docs/firmware.md, "Sources").
#
# What it gives is the whole release tree, not the pruned tree with its submodules filled in that
# ../shared/vendor holds (that one's sha256 is pinned in scripts/build-firmware.sh). The release's
# own sha256 is not pinned here: the script prints it, to compare with the release page. It checks
# that the file is a whole xz archive, that the tree is v1.28.0, and that the git submodules the
# rp2 port needs (lib/pico-sdk, lib/tinyusb, lib/mbedtls, lib/micropython-lib) are in it: `make
# firmware` cannot build without them, and the script says so in one line when they are absent.
# The RP2040 boot ROM (for the virtual Pico) has no download; see docs/firmware.md.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VERSION=1.28.0
URL="https://micropython.org/resources/source/micropython-$VERSION.tar.xz"
DEST="$ROOT/build/vendor"
FILE="$DEST/micropython-$VERSION.tar.xz"
TOP="micropython-$VERSION"

mkdir -p "$DEST"
if [ ! -f "$FILE" ]; then
  echo "[firmware-sources] baixando $URL"
  if ! curl -fsSL --retry 2 -o "$FILE.part" "$URL"; then
    rm -f "$FILE.part"
    echo "error: não consegui baixar $URL (sem rede?): copie micropython-1.28.0-rp2-src.tar.xz (sha256 061e37bd9d2a7ebdcf7fa4662a4cc42b80f93b636c63b77ac035445e7391df44) para ../shared/vendor ou aponte FUTMESA_VENDOR=PASTA" >&2
    exit 1
  fi
  mv "$FILE.part" "$FILE"
fi
if ! xz -t "$FILE" 2>/dev/null; then
  rm -f "$FILE"
  echo "error: $FILE veio incompleto ou corrompido (apagado): rode \`make firmware-sources\` de novo" >&2
  exit 1
fi
if ! tar -xJOf "$FILE" "$TOP/py/mpconfig.h" 2>/dev/null | grep -q "MICROPY_VERSION_MINOR 28"; then
  echo "error: $FILE não é o MicroPython v$VERSION" >&2
  exit 1
fi
listing="$(tar -tJf "$FILE")"
missing=()
for sub in lib/pico-sdk/src lib/tinyusb/src lib/mbedtls/library lib/micropython-lib/python-stdlib; do
  grep -q "^$TOP/$sub/." <<<"$listing" || missing+=("$sub")
done
echo "[firmware-sources] $FILE: sha256 $(sha256sum "$FILE" | cut -d' ' -f1) (compare com o da página do release v$VERSION)"
if [ ${#missing[@]} -gt 0 ]; then
  echo "error: o release baixado não traz os submódulos git que o port rp2 usa (${missing[*]}): \`make firmware\` precisa deles; obtenha-os com git (clone da tag v$VERSION e \`make -C ports/rp2 submodules\`) ou use o micropython-1.28.0-rp2-src.tar.xz de ../shared/vendor" >&2
  exit 1
fi
echo "[firmware-sources] pronto: \`make firmware\` usa $FILE"
