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

# say PORTUGUESE ENGLISH: the line in the language futmesa speaks (scripts/lang.sh)
source "$(dirname "${BASH_SOURCE[0]}")/lang.sh"
mkdir -p "$DEST"
if [ ! -f "$FILE" ]; then
  echo "[firmware-sources] $(say "baixando $URL" "downloading $URL")"
  if ! curl -fsSL --retry 2 -o "$FILE.part" "$URL"; then
    rm -f "$FILE.part"
    say "erro: não consegui baixar $URL (sem rede?): copie micropython-1.28.0-rp2-src.tar.xz (sha256 061e37bd9d2a7ebdcf7fa4662a4cc42b80f93b636c63b77ac035445e7391df44) para ../shared/vendor ou aponte FUTMESA_VENDOR=PASTA" \
        "error: could not download $URL (no network?): copy micropython-1.28.0-rp2-src.tar.xz (sha256 061e37bd9d2a7ebdcf7fa4662a4cc42b80f93b636c63b77ac035445e7391df44) into ../shared/vendor or point FUTMESA_VENDOR=FOLDER at it" >&2
    exit 1
  fi
  mv "$FILE.part" "$FILE"
fi
if ! xz -t "$FILE" 2>/dev/null; then
  rm -f "$FILE"
  say "erro: $FILE veio incompleto ou corrompido (apagado): rode \`make firmware-sources\` de novo" \
      "error: $FILE came incomplete or corrupt (deleted): run \`make firmware-sources\` again" >&2
  exit 1
fi
if ! tar -xJOf "$FILE" "$TOP/py/mpconfig.h" 2>/dev/null | grep -q "MICROPY_VERSION_MINOR 28"; then
  say "erro: $FILE não é o MicroPython v$VERSION" "error: $FILE is not MicroPython v$VERSION" >&2
  exit 1
fi
listing="$(tar -tJf "$FILE")"
missing=()
for sub in lib/pico-sdk/src lib/tinyusb/src lib/mbedtls/library lib/micropython-lib/python-stdlib; do
  grep -q "^$TOP/$sub/." <<<"$listing" || missing+=("$sub")
done
sum="$(sha256sum "$FILE" | cut -d' ' -f1)"
echo "[firmware-sources] $FILE: sha256 $sum $(say "(compare com o da página do release v$VERSION)" "(compare it with the v$VERSION release page's)")"
if [ ${#missing[@]} -gt 0 ]; then
  say "erro: o release baixado não traz os submódulos git que o port rp2 usa (${missing[*]}): \`make firmware\` precisa deles; obtenha-os com git (clone da tag v$VERSION e \`make -C ports/rp2 submodules\`) ou use o micropython-1.28.0-rp2-src.tar.xz de ../shared/vendor" \
      "error: the downloaded release lacks the git submodules the rp2 port uses (${missing[*]}): \`make firmware\` needs them; get them with git (a clone of tag v$VERSION and \`make -C ports/rp2 submodules\`) or use micropython-1.28.0-rp2-src.tar.xz from ../shared/vendor" >&2
  exit 1
fi
echo "[firmware-sources] $(say "pronto: \`make firmware\` usa $FILE" "ready: \`make firmware\` uses $FILE")"
