#!/usr/bin/env bash
# Builds the futmesa Pico image: MicroPython v1.28.0 (RPI_PICO) with the whole firmware frozen.
#
#   scripts/build-firmware.sh          (or `make firmware`, which runs it only when a source changed)
#
# Outputs (docs/firmware.md, "Pico image"):
#   build/firmware/futmesa-pico.uf2    copy it onto the BOOTSEL drive (`futmesa flash --uf2`)
#   build/firmware/futmesa-pico.bin    the flash image from offset 0 (what rp2040js loads)
#   build/firmware/futmesa-pico.elf    with symbols, for size reports and debugging
#
# Inputs: the MicroPython source tarball in ../shared/vendor (relative to the repository root;
# FUTMESA_VENDOR=DIR overrides; else the release `make firmware-sources` downloads), Debian's gcc-arm-none-eabi + cmake, and the virtualenv's
# Adafruit VL53L0X driver (VENV=DIR overrides .venv). Extracting the tarball and building
# mpy-cross happen once per clone (stamp files under build/); cmake's own make rebuilds only
# what changed. Nothing from the tarball is ever committed: build/ is ignored.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENDOR="${FUTMESA_VENDOR:-$ROOT/../shared/vendor}"
VENV="${VENV:-.venv}"
JOBS="${JOBS:-2}"
# the vendored tree (pruned, submodules filled in; its sha256 is pinned), else the MicroPython
# release tarball `make firmware-sources` downloads into build/vendor (docs/firmware.md, "Sources")
TARBALL="$VENDOR/micropython-1.28.0-rp2-src.tar.xz"
TARBALL_SHA256=061e37bd9d2a7ebdcf7fa4662a4cc42b80f93b636c63b77ac035445e7391df44
TOP=micropython
if [ ! -f "$TARBALL" ] && [ -f "$ROOT/build/vendor/micropython-1.28.0.tar.xz" ]; then
  TARBALL="$ROOT/build/vendor/micropython-1.28.0.tar.xz"; TARBALL_SHA256=""; TOP=micropython-1.28.0
fi
MPY="$ROOT/build/micropython"
RP2="$ROOT/build/rp2"
OUT="$ROOT/build/firmware"
STAGE="$OUT/frozen"   # files the manifest freezes that do not live in firmware/ (see firmware/manifest.py)

# say PORTUGUESE ENGLISH: the line in the language futmesa speaks (scripts/lang.sh)
source "$(dirname "${BASH_SOURCE[0]}")/lang.sh"
step() { echo "[firmware] $(say "$1" "$2")"; }

if [ ! -f "$TARBALL" ]; then
  say "erro: faltam as fontes do MicroPython: $TARBALL (MicroPython v1.28.0, árvore rp2 com os submódulos, sha256 $TARBALL_SHA256): \`make firmware-sources\` baixa o release do MicroPython (precisa de rede), ou aponte FUTMESA_VENDOR=PASTA para onde o arquivo está (docs/firmware.md, \"Sources\")" \
      "error: the MicroPython sources are missing: $TARBALL (MicroPython v1.28.0, the rp2 tree with its submodules, sha256 $TARBALL_SHA256): \`make firmware-sources\` downloads the MicroPython release (needs the network), or point FUTMESA_VENDOR=FOLDER at where the file is (docs/firmware.md, \"Sources\")" >&2
  exit 1
fi
command -v arm-none-eabi-gcc >/dev/null || { say "erro: falta o arm-none-eabi-gcc: rode \`make system-deps\`" "error: arm-none-eabi-gcc missing: run \`make system-deps\`" >&2; exit 1; }
command -v cmake >/dev/null || { say "erro: falta o cmake: rode \`make system-deps\`" "error: cmake missing: run \`make system-deps\`" >&2; exit 1; }
[ -x "$VENV/bin/python" ] || { say "erro: não há ambiente virtual em $VENV: rode \`make setup\`" "error: no virtualenv at $VENV: run \`make setup\`" >&2; exit 1; }
mkdir -p build "$OUT" "$STAGE/adafruit_bus_device"

# 1. the MicroPython tree (once per clone, or when the tarball changes)
if [ ! -f build/.mpy-extracted ] || [ "$TARBALL" -nt build/.mpy-extracted ]; then
  step "extraindo $(basename "$TARBALL") em build/micropython" "extracting $(basename "$TARBALL") into build/micropython"
  if [ -n "$TARBALL_SHA256" ] && ! echo "$TARBALL_SHA256  $TARBALL" | sha256sum --check --status; then
    say "erro: $TARBALL não é o arquivo esperado (sha256 diferente de $TARBALL_SHA256): copie-o de novo" \
        "error: $TARBALL is not the expected file (its sha256 is not $TARBALL_SHA256): copy it again" >&2
    exit 1
  fi
  rm -rf "$MPY" "$RP2" build/.mpy-cross-built
  tar -xJf "$TARBALL" -C build/ --transform "s,^$TOP,micropython,"
  touch build/.mpy-extracted
fi

# 2. mpy-cross (once per clone)
if [ ! -f build/.mpy-cross-built ]; then
  step "compilando o mpy-cross (cerca de 1 minuto)" "building mpy-cross (about 1 minute)"
  make -C "$MPY/mpy-cross" -j"$JOBS" >build/mpy-cross.log 2>&1 || { tail -20 build/mpy-cross.log; exit 1; }
  touch build/.mpy-cross-built
fi

# 3. stage what the manifest freezes from outside firmware/: Adafruit's driver (the very files
#    `futmesa flash` copies to a stock MicroPython) and the image's default board file.
#    cp -p keeps timestamps, so an unchanged driver does not make the freeze step run again.
"$VENV/bin/python" - "$STAGE" <<'EOF'
import shutil, sys
from pathlib import Path
from futmesa.deploy.flash import tof_driver_sources
stage = Path(sys.argv[1])
for local, remote in tof_driver_sources():
    if remote == "futmesa_tof.py":
        continue  # frozen straight from hardware/micropython/ by the manifest
    dest = stage / remote
    if not dest.exists() or dest.read_bytes() != local.read_bytes():
        shutil.copy2(local, dest)
EOF
default_board="$STAGE/futmesa_default_board.py"
new_default="$(mktemp)"; chmod 644 "$new_default"
{
  echo '"""The board file this image writes as board.json at first boot (hardware/boards/pico.json)."""'
  echo "BOARD = \"pico\""
  printf 'BOARD_JSON = %s\n' "$("$VENV/bin/python" -c 'import json,sys; print(repr(json.dumps(json.load(open(sys.argv[1])), separators=(",", ":"))))' hardware/boards/pico.json)"
} >"$new_default"
if cmp -s "$new_default" "$default_board"; then rm -f "$new_default"; else mv "$new_default" "$default_board"; fi

# 4. configure (once) and build; cmake's make rebuilds the frozen modules when a file changes
if [ ! -f "$RP2/Makefile" ]; then
  step "configurando a compilação RPI_PICO em build/rp2" "configuring the RPI_PICO build in build/rp2"
  cmake -S "$MPY/ports/rp2" -B "$RP2" -DPICO_BUILD_DOCS=0 \
    -DMICROPY_BOARD=RPI_PICO -DMICROPY_BOARD_DIR="$MPY/ports/rp2/boards/RPI_PICO" \
    -DMICROPY_FROZEN_MANIFEST="$ROOT/firmware/manifest.py" -DPICO_NO_PICOTOOL=1 \
    >build/rp2-cmake.log 2>&1 || { tail -30 build/rp2-cmake.log; exit 1; }
fi
step "compilando a imagem (cerca de 4 minutos na primeira vez; registro: build/rp2-make.log)" \
     "building the image (about 4 minutes the first time; log: build/rp2-make.log)"
if ! make -C "$RP2" -j"$JOBS" >build/rp2-make.log 2>&1; then
  grep -iE "error|Error" build/rp2-make.log | head -20
  say "erro: a imagem não compilou; veja build/rp2-make.log" "error: the image did not build; see build/rp2-make.log" >&2
  exit 1
fi

# 5. the outputs
cp -p "$RP2/firmware.bin" "$OUT/futmesa-pico.bin"
cp -p "$RP2/firmware.elf" "$OUT/futmesa-pico.elf"
python3 "$MPY/tools/uf2conv.py" -c -b 0x10000000 -f 0xe48bff56 -o "$OUT/futmesa-pico.uf2" \
  "$OUT/futmesa-pico.bin" >/dev/null
step "pronta: $(du -h "$OUT/futmesa-pico.uf2" | cut -f1) build/firmware/futmesa-pico.uf2 e build/firmware/futmesa-pico.bin ($(stat -c %s "$OUT/futmesa-pico.bin") bytes)" \
     "built $(du -h "$OUT/futmesa-pico.uf2" | cut -f1) build/firmware/futmesa-pico.uf2 and build/firmware/futmesa-pico.bin ($(stat -c %s "$OUT/futmesa-pico.bin") bytes)"
