# Riffle — build, run, test and benchmark.
#
#   make run      build (release) and open the bundled photos; ARGS="~/Pictures" to browse others
#   make test     build and run every test, the end-to-end ones under Xvfb included
#   make bench    print the benchmarks (release build); BENCH="tiles paging" for some of them
#
# `run` and `test` first install the Debian packages they need (apt-get, with sudo when not
# root) if any is missing.

SWIFT ?= swift
ARGS ?=
BENCH ?=

# Headers and libraries the build links, the font the text uses, pkg-config for pixman's flags.
BUILD_PACKAGES := pkg-config libx11-dev libxext-dev libxi-dev libjpeg62-turbo-dev libpng-dev zlib1g-dev \
	libexif-dev libfreetype-dev libfontconfig-dev fonts-dejavu-core libpixman-1-dev
# The end-to-end tests run the real window on a virtual X server and send it real input through
# XTest (xdotool).
TEST_PACKAGES := $(BUILD_PACKAGES) xvfb xauth xdotool

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# $(call ensure-packages,LIST): apt-get install whichever of LIST is not installed yet.
define ensure-packages
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

.PHONY: run test bench build deps-build deps-test clean

run: deps-build
	$(SWIFT) build -c release --product riffle
	.build/release/riffle $(ARGS)

build: deps-build
	$(SWIFT) build

test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: deps-build
	$(SWIFT) build -c release --product riffle
	$(SWIFT) build -c release --product riffle-bench
	.build/release/riffle-bench $(BENCH)

deps-build:
	$(call ensure-packages,$(BUILD_PACKAGES))

deps-test:
	$(call ensure-packages,$(TEST_PACKAGES))

clean:
	rm -rf .build
