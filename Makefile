# futmesa — every set-up step lives here, so a fresh machine needs only `make demo` / `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
VPICO_STAMP := tools/vpico/node_modules/.installed

.PHONY: setup setup-demo catalogs system-deps system-deps-demo demo tournament test test-fast \
	test-stress lint bench clean drawings firmware firmware-sources

setup: $(STAMP) system-deps $(VPICO_STAMP) catalogs

# what `make demo` needs: the Python packages and socat (no Chromium, no poppler)
setup-demo: $(STAMP) system-deps-demo catalogs

# the translations (host/futmesa/locale): compile the .po files into .mo (gitignored; without
# them futmesa reads the .po directly, a little slower to start)
catalogs: $(STAMP)
	$(BIN)/pybabel -q compile -d host/futmesa/locale -D futmesa

$(STAMP): pyproject.toml
	@echo "==> creating $(VENV) (Python virtual environment)"
	$(PYTHON) -m venv $(VENV)
	@echo "==> installing the Python packages (a few minutes the first time) …"
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@echo "==> installing the MicroPython stubs (for the firmware type-check) …"
	# MicroPython stubs, one folder per port (they define the same modules, so
	# they cannot share one site-packages); the firmware type-check uses them.
	$(BIN)/pip install --quiet --target $(VENV)/stubs/rp2 micropython-rp2-stubs
	$(BIN)/pip install --quiet --target $(VENV)/stubs/esp32 micropython-esp32-stubs
	touch $(STAMP)
	@echo "==> Python packages ready"

# the virtual Pico (tools/vpico): the rp2040js emulator, pinned in package-lock.json
$(VPICO_STAMP): tools/vpico/package.json tools/vpico/package-lock.json | system-deps
	cd tools/vpico && npm ci --no-audit --no-fund --silent
	touch $(VPICO_STAMP)

# Debian packages, installed only when missing: the whole test set (Chromium for the
# scoreboard tests, poppler for the súmula PDF, the Pico toolchain …), or only what the
# demo needs (socat). See scripts/install-system-deps.sh.
system-deps:
	@bash scripts/install-system-deps.sh test

system-deps-demo:
	@bash scripts/install-system-deps.sh demo

demo: setup-demo
	@echo "==> starting the demo: a simulated table plays a match into the scoreboard"
	$(BIN)/futmesa demo --speed 60

# a whole competition (8 teams, 4 simulated tables, groups and a final) through a real
# mosquitto, into the venue board and standings (docs/operating.md §12)
tournament: setup
	$(BIN)/futmesa demo --tournament 8


# The Pico image (docs/firmware.md, "Pico image"): MicroPython v1.28.0 from ../shared/vendor
# (FUTMESA_VENDOR=DIR overrides) with the whole firmware frozen. Rebuilt only when a frozen
# file changes; the first build takes about 5 minutes on 2 cores.
FIRMWARE_UF2 := build/firmware/futmesa-pico.uf2
FIRMWARE_SRC := $(wildcard firmware/*.py firmware/boards/*.py hardware/micropython/*.py) \
                hardware/boards/pico.json scripts/build-firmware.sh scripts/lang.sh

firmware: $(FIRMWARE_UF2)

# the MicroPython v1.28.0 release source, downloaded and checked (needs the network; the
# vendored tree in ../shared/vendor needs no download). docs/firmware.md, "Sources".
firmware-sources:
	@bash scripts/fetch-firmware-sources.sh

$(FIRMWARE_UF2): $(FIRMWARE_SRC) $(STAMP) | system-deps
	bash scripts/build-firmware.sh

test: setup firmware
	$(BIN)/ruff check host testkit tests bench
	$(BIN)/pytest -q

# the suite three times in a row with stress-ng keeping every core busy
test-stress: setup firmware
	bash scripts/stress-suite.sh -n 3

test-fast: $(STAMP)
	$(BIN)/pytest -q -m "not slow and not browser and not pico"

lint: $(STAMP)
	$(BIN)/ruff check host testkit tests bench

bench: setup
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
