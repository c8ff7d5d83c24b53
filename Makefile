# futmesa — every set-up step lives here, so a fresh machine needs only `make demo` / `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
VPICO_STAMP := tools/vpico/node_modules/.installed

.PHONY: setup system-deps demo test test-fast lint bench clean drawings firmware

setup: $(STAMP) system-deps $(VPICO_STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	# MicroPython stubs, one folder per port (they define the same modules, so
	# they cannot share one site-packages); the firmware type-check uses them.
	$(BIN)/pip install --quiet --target $(VENV)/stubs/rp2 micropython-rp2-stubs
	$(BIN)/pip install --quiet --target $(VENV)/stubs/esp32 micropython-esp32-stubs
	touch $(STAMP)

# the virtual Pico (tools/vpico): the rp2040js emulator, pinned in package-lock.json
$(VPICO_STAMP): tools/vpico/package.json tools/vpico/package-lock.json
	cd tools/vpico && npm ci --no-audit --no-fund --silent
	touch $(VPICO_STAMP)

# Debian packages the tests need (headless Chromium for the scoreboard tests,
# poppler for rendering the súmula PDF). Installed only when missing.
system-deps:
	@bash scripts/install-system-deps.sh

demo: setup
	$(BIN)/futmesa demo --speed 60

# The Pico image (docs/firmware.md, "Pico image"): MicroPython v1.28.0 from ../shared/vendor
# (FUTMESA_VENDOR=DIR overrides) with the whole firmware frozen. Rebuilt only when a frozen
# file changes; the first build takes about 5 minutes on 2 cores.
FIRMWARE_UF2 := build/firmware/futmesa-pico.uf2
FIRMWARE_SRC := $(wildcard firmware/*.py firmware/boards/*.py hardware/micropython/*.py) \
                hardware/boards/pico.json scripts/build-firmware.sh

firmware: $(FIRMWARE_UF2)

$(FIRMWARE_UF2): $(FIRMWARE_SRC) $(STAMP) | system-deps
	bash scripts/build-firmware.sh

test: setup firmware
	$(BIN)/ruff check host tests bench
	$(BIN)/pytest -q

test-fast: $(STAMP)
	$(BIN)/pytest -q -m "not slow and not browser and not pico"

lint: $(STAMP)
	$(BIN)/ruff check host tests bench

bench: setup
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
