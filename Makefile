# Two commands for a fresh clone: `make run` (server on the embedded defaults) and `make test`.
# Each installs what it needs first; the install is skipped when nothing changed.
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
PEERS := .venv-peers
HOST ?= 127.0.0.1
PORT ?= 8080

.PHONY: run test install peers sdk system-deps bench figures

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

# torch first, pinned to the CPU build that lies on these machines; a bare `torch` pulls CUDA.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[test]'
	touch $@

install: $(VENV)/.installed

# Pipecat and LiveKit Agents, the peer clients tests/test_peer_clients.py runs against a live server, live in
# their own environment so their pins never touch the main install.
$(PEERS)/.installed: tests/peers/requirements.txt
	$(PY) -m venv $(PEERS)
	$(PEERS)/bin/pip install -q --upgrade pip
	$(PEERS)/bin/pip install -q -r tests/peers/requirements.txt
	touch $@

peers: $(PEERS)/.installed

# OpenAI's browser SDK (@openai/agents-realtime, pinned in tests/sdk/package-lock.json), bundled with esbuild
# for the page tests/test_browser_sdk.py opens in Chromium.
SDK := tests/sdk
$(SDK)/dist/agent.js: $(SDK)/package.json $(SDK)/package-lock.json $(SDK)/agent.js
	npm ci --prefix $(SDK) --no-audit --no-fund
	$(SDK)/node_modules/.bin/esbuild $(SDK)/agent.js --bundle --format=esm --outfile=$@

sdk: $(SDK)/dist/agent.js

# Debian packages the tests need: a Mosquitto broker (and openssl for its TLS test), the other voices the spoken
# benches and tests speak with (espeak-ng, flite, Festival's slt HTS and kal voices), headless Chromium, Redis (the
# shared state store), HAProxy (the load balancer in front of several gateways) and Node.js with npm (to bundle
# OpenAI's browser SDK).
system-deps:
	@missing=""; \
	for pair in mosquitto:mosquitto openssl:openssl espeak-ng:espeak-ng flite:flite chromium:chromium chromedriver:chromium-driver redis-server:redis-server haproxy:haproxy node:nodejs npm:npm; do \
	  cmd=$${pair%%:*}; pkg=$${pair##*:}; \
	  command -v $$cmd >/dev/null 2>&1 || [ -x /usr/sbin/$$cmd ] || missing="$$missing $$pkg"; \
	done; \
	[ -d /usr/share/festival/voices/us/cmu_us_slt_arctic_hts ] || missing="$$missing festival festvox-us-slt-hts"; \
	[ -d /usr/share/festival/voices/english/kal_diphone ] || missing="$$missing festival festvox-kallpc16k"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

run: install
	$(BIN)/parley serve --host $(HOST) --port $(PORT)

# A failed test runs again up to twice: on a shared 2-core machine the phone call tests and one Whisper test
# have failed now and then in full runs and passed alone (see docs/development.md); -raR lists them by name.
test: install system-deps peers sdk
	$(BIN)/python -m pytest -q -raR --reruns 2 --reruns-delay 2

bench: install
	$(BIN)/python bench/dllm_speed.py

# Re-measures every figure the README relies on into docs/figures.md, with the commit and the load beside them.
figures: install
	$(BIN)/python bench/figures.py
