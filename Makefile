# The two commands README.md opens with. Each installs the Debian packages it needs when missing.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PACKAGES := librdkafka-dev libyaml-dev libmicrohttpd-dev kcat pkg-config

.PHONY: demo test build deps

demo: deps
	$(SWIFT) build --product shipquote
	$$($(SWIFT) build --show-bin-path)/shipquote demo

test: deps
	$(SWIFT) test

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
