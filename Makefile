# Riffle — build, run, test and benchmark.
#
#   make run      build (release) and open the pictures folder (else the bundled photos); ARGS="DIR" for others
#   make test     build and run every test, the end-to-end ones under Xvfb included
#   make test-sanitize  the tests under ASan + UBSan, and the decode pool under TSan
#   make bench    print the benchmarks (release build); BENCH="tiles paging" for some of them
#   make soak     10,000 page turns: the RSS drift (release build) and LeakSanitizer's report (ASan build)
#   make fuzz     fuzz the parsers Riffle owns or drives, FUZZ_SECONDS (60) each; FUZZERS="jpeg" for
#                 some; `make fuzz-report` sums the CPU hours of the committed ledger, `make
#                 fuzz-check` runs every kept input again under the 1 s limit, `make fuzz-merge`
#                 minimizes the kept inputs into the committed corpus
#   make install  install the release build, its desktop entry, icons, manual page and AppStream
#                 metadata under $(DESTDIR)$(PREFIX) (default /usr/local); `make uninstall` removes them
#
# `run` and `test` first install the Debian packages they need (apt-get, with sudo when not
# root) if any is missing.

SWIFT ?= swift
# bash: the fuzz target's recipes use bash's $(…) and ||.
SHELL := /bin/bash
ARGS ?=
BENCH ?=

# Every Debian package a command below needs is listed here, and only here: `.ci/run` installs
# nothing of its own, so CI takes exactly the path a newcomer's `make test` takes.
#
# Headers and libraries the build links (lcms2 for colour management, libde265 for the HEIC files
# libheif refuses), the font the text uses, pkg-config for pixman's flags.
BUILD_PACKAGES := make pkg-config libx11-dev libxext-dev libxi-dev libxcursor-dev libxfixes-dev libxpresent-dev libxrandr-dev \
	libjpeg62-turbo-dev libpng-dev zlib1g-dev libexif-dev libfreetype-dev libfontconfig-dev fonts-dejavu-core libpixman-1-dev \
	liblcms2-dev libtiff-dev libheif-dev libjxl-dev libraw-dev libwebp-dev libgif-dev libde265-dev libsqlite3-dev
# `install` renders the icon's PNG sizes from its SVG.
INSTALL_PACKAGES := $(BUILD_PACKAGES) librsvg2-bin
# The end-to-end tests run the real window on a virtual X server and send it real input through
# XTest (xdotool); the install test validates what `install` writes as a distribution would
# (desktop-file-validate, appstreamcli, man, update-desktop-database, xdg-mime, xdg-open) and
# reads the window's properties back (xprop); the clipboard tests paste what Riffle copies (xclip).
# The still formats' tests make their fixtures with each format's own encoder and compare with its
# own decoder: heif-enc/heif-convert (libheif-examples; libheif1 brings the x265 and aom encoders),
# cjxl/djxl (libjxl-tools), tiffcp/tiffset (libtiff-tools) and ImageMagick's convert; the WebP and
# GIF tests likewise: cwebp, img2webp, webpmux, dwebp (webp) and convert. avifenc (libavif-bin)
# makes the AVIFs libheif's heif-enc cannot: rotated (irot), cropped (clap), monochrome and
# limited-range ones. The colour tests compare with lcms2's own transicc (liblcms2-utils) and
# convert CMYK through Ghostscript's profiles (libgs-common); a CMYK JPEG XL, which cjxl cannot
# make, is written through libjxl's encoder from Python (python3). The cursor tests read the
# theme's cursors back from the server: Adwaita's (adwaita-icon-theme), and none at all. A window
# opens under a window manager that changes its size (openbox). A test
# browses a folder under strace, to see that nothing but thumbnails is written anywhere. The install
# test has xdg-open find the photo's type in the shared MIME database (shared-mime-info). The EXIF
# tests compare what Riffle reads (GPS positions in each camera's encoding, dates taken) with
# ExifTool's reading (libimage-exiftool-perl), which also writes the dates; the library index's
# tests look into its database and hold its lock from the sqlite3 shell. The camera RAW test
# compares a development with LibRaw's own dcraw_emu (libraw-bin).
TEST_PACKAGES := $(INSTALL_PACKAGES) xvfb xauth xdotool desktop-file-utils appstream man-db xdg-utils file x11-utils xclip \
	libheif-examples libjxl-tools libtiff-tools imagemagick webp libavif-bin liblcms2-utils libgs-common python3 \
	shared-mime-info adwaita-icon-theme strace libimage-exiftool-perl sqlite3 libraw-bin openbox
# The benchmarks run the viewers they are measured against on the same virtual X server: feh (the
# launch), nsxiv and gthumb (a folder's first screen of thumbnails); ExifTool anchors the library's
# cold indexing.
BENCH_PACKAGES := $(BUILD_PACKAGES) xvfb xauth xdotool xdg-utils feh nsxiv gthumb libimage-exiftool-perl
# The fuzzers count their CPU seconds with GNU time (the toolchain brings clang, libFuzzer and lld).
FUZZ_PACKAGES := $(BUILD_PACKAGES) time

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# $(call ensure-packages,LIST): apt-get install whichever of LIST is not installed yet.
define ensure-packages
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endef

# Where `install` puts things: $(DESTDIR)$(PREFIX)/bin, .../share. DESTDIR stages a package.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
DATADIR := $(DESTDIR)$(PREFIX)/share
# The reverse-DNS id AppStream asks for: it names the desktop entry, the icon and the metadata.
APP_ID := io.github.riffle.Riffle
# The usual hicolor sizes; the scalable SVG serves every other.
ICON_SIZES := 16 24 32 48 64 128 256 512
# What `install` copies: by default the release build and the manual page the argument parser's
# `generate-manual` tool makes from it (both made here); the install test passes the ones it has.
RIFFLE_BINARY ?= .build/release/riffle
RIFFLE_MANUAL ?= .build/release/riffle.1
# A release build carries the Swift runtime and Foundation inside the binary: 12 ms less from
# exec to main than loading and relocating their shared libraries, and 5.5 MiB less resident
# (docs/startup.md). Every release build here takes the flag, so none undoes another's objects.
RELEASE := -c release --static-swift-stdlib

.PHONY: run test test-sanitize soak bench fuzz fuzz-build fuzz-run fuzz-check fuzz-report fuzz-merge build deps-build deps-test deps-fuzz deps-bench clean deps-install install uninstall release-build

run: deps-build
	$(SWIFT) build $(RELEASE) --product riffle
	.build/release/riffle $(ARGS)

build: deps-build
	$(SWIFT) build

# The manual page is generated between the build and the tests, which install it (a test cannot run
# the plugin: `swift test` holds the build folder's lock).
test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) package generate-manual --configuration debug
	$(SWIFT) test --skip-build

# The suite under AddressSanitizer (Swift and C, the end-to-end tests running the sanitized
# binary) with UndefinedBehaviorSanitizer on the C shims (swiftc has no -sanitize=undefined: Swift
# traps its own overflows and out-of-bounds accesses), then the decode pool, the tile sources,
# the stores, the tree's listing on every core and the index read beside it under
# ThreadSanitizer, each in a build folder of its own. InstallTests is left
# out: it installs the release-style binary and manual page that `make test` makes.
SANITIZE_C_UB := -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
# Left out under ASan: the install test (above), the out-of-memory tests, whose children run
# under a capped address space that ASan's shadow memory cannot fit in, and the peak-RSS bounds
# of the huge PNG and the decompression bombs, which ASan's shadow and quarantine inflate (the
# huge PNG's 210 MiB against 64); the fuzzers run those decoders under ASan.
SANITIZE_SKIP := InstallTests|OutOfMemoryTests|HugePNGTests|DecompressionBombTests
SANITIZE_THREADS := DecodeService|DecodeCancellation|WorkerThread|TileDecoder|TiledZoom|TilePyramid|ThumbnailStore|PhotoLibrary|PhotoProbe|LiveFolder|Placeholder|MemoryBounds|ArrivingFile|RewrittenThumbnail|PhotoTree|LibraryIndex|LibraryDating|DateOrdering
test-sanitize: deps-test
	$(SWIFT) build --build-tests --scratch-path .build-asan --sanitize address $(SANITIZE_C_UB)
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt \
		$(SWIFT) test --skip-build --scratch-path .build-asan --sanitize address $(SANITIZE_C_UB) --skip '$(SANITIZE_SKIP)'
	$(SWIFT) build --build-tests --scratch-path .build-tsan --sanitize thread
	$(SWIFT) test --skip-build --scratch-path .build-tsan --sanitize thread --filter '$(SANITIZE_THREADS)'

# The soak (`riffle-bench soak`, about 20 minutes a run): 10,000 page turns with zooms and pans,
# headless in real time; first with the release build, printing the RSS drift between the first
# and last thousand turns (settled: read while riffle is idle in the rest the script takes once
# a thousand turns; and the medians as skimmed), then with riffle built under AddressSanitizer,
# whose LeakSanitizer reports at exit anything the run leaked (suppressions as for the tests).
# The 30 generated photos are kept in .build-soak for the next run.
soak: deps-bench
	$(SWIFT) build $(RELEASE) --product riffle
	$(SWIFT) build $(RELEASE) --product riffle-bench
	$(SWIFT) build -c release --product riffle --scratch-path .build-asan-release --sanitize address $(SANITIZE_C_UB)
	@mkdir -p .build-soak
	RIFFLE_BENCH_WORKSPACE=$(CURDIR)/.build-soak .build/release/riffle-bench soak
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/lsan-suppressions.txt RIFFLE_BENCH_WORKSPACE=$(CURDIR)/.build-soak \
		RIFFLE_BENCH_RIFFLE=$(CURDIR)/.build-asan-release/release/riffle .build/release/riffle-bench soak

bench: deps-bench
	$(SWIFT) build $(RELEASE) --product riffle
	$(SWIFT) build $(RELEASE) --product riffle-bench
	.build/release/riffle-bench $(BENCH)

# libFuzzer harnesses under AddressSanitizer (the Swift toolchain's clang and libFuzzer): C ones
# (Fuzz/*_fuzzer.c) over the imaging shim and the libraries it drives, UndefinedBehaviorSanitizer
# too, and Swift ones (Sources/riffle-fuzz, `swift-…`) over the parsers Riffle writes in Swift,
# built with coverage into .build-fuzz/swift. Each runs FUZZ_SECONDS from its seeds (the test
# fixtures, Fuzz/seeds; `swift-decode` also Fuzz/seeds/stills: tiny TIFF, HEIC, AVIF and JPEG XL
# files made by the tools the tests use, and the tests' hand-built DNG; `swift-replay` the test
# scripts) and its corpus so far in .build-fuzz/corpus; an input that crashes, leaks or runs over
# FUZZ_TIMEOUT seconds (1) is kept in .build-fuzz/crashes and fails the target (leaks that belong
# to a library Riffle drives are suppressed in Fuzz/lsan-suppressions.txt, each with its reason).
# Each run's CPU time (GNU time), executions and outcome are added to Fuzz/ledger.tsv, which is
# committed, so the figure survives the machine: `make fuzz-report` sums it per harness. The
# inputs a campaign kept are minimized into Fuzz/corpus/HARNESS by `make fuzz-merge` and committed
# too; every later run starts from them. `make fuzz-run` runs what `make fuzz-build` last built.
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 1
FUZZERS ?= jpeg png exif inflate icc animation heif swift-decode swift-scan-index swift-exif swift-thumbnail-cache swift-replay
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fuse-ld=lld
# LibRaw's pkg-config adds -fopenmp, which would make its header include omp.h (the toolchain's
# clang has none); libraw_r.so brings its own dependencies.
FUZZ_PKGS := libjpeg libpng libexif zlib freetype2 fontconfig lcms2 libtiff-4 libheif libjxl libjxl_threads libwebp libwebpdemux libde265
FUZZ_CFLAGS = $$(pkg-config --cflags $(FUZZ_PKGS))
FUZZ_LIBS = $$(pkg-config --cflags --libs $(FUZZ_PKGS)) -lraw_r -lgif
FUZZ_RUNTIME_DIR = $$($(FUZZ_CC) -print-resource-dir)/lib/linux
FUZZ_SWIFT_FLAGS = -c release --product riffle-fuzz --build-path .build-fuzz/swift -Xswiftc -DRIFFLE_FUZZ \
	-Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
	-Xcc -fsanitize=fuzzer-no-link,address \
	-Xlinker $(FUZZ_RUNTIME_DIR)/libclang_rt.fuzzer_no_main-x86_64.a -Xlinker -lstdc++
FUZZ_FIXTURES := Tests/RiffleImageIOTests/Fixtures Tests/Photos Tests/Animations Fuzz/seeds/animation
FUZZ_LEDGER := Fuzz/ledger.tsv

# Sets, for the harness named $$f, $$run to its command and $$dict to its dictionary option.
fuzz-harness = run=.build-fuzz/$$f; dict=; \
	case $$f in \
		swift-exif) run=".build-fuzz/swift/release/riffle-fuzz exif"; dict=-dict=Fuzz/exif.dict;; \
		swift-thumbnail-cache|swift-replay) run=".build-fuzz/swift/release/riffle-fuzz $${f\#swift-}"; dict=-dict=Fuzz/$${f\#swift-}.dict;; \
		swift-*) run=".build-fuzz/swift/release/riffle-fuzz $${f\#swift-}"; dict=-dict=Fuzz/jpeg.dict;; \
		jpeg|png|exif|animation) dict=-dict=Fuzz/$$f.dict;; \
	esac

fuzz: fuzz-build
	@$(MAKE) --no-print-directory fuzz-run

# The imaging shim is compiled once into .build-fuzz/shim, and each C harness links those objects
# (it was compiled again for every harness).
FUZZ_SHIM_SOURCES := $(wildcard Sources/CRiffleImaging/*.c)
FUZZ_INCLUDES := -ISources/CRiffleImaging/include -ISources/CRiffleImaging

fuzz-build: deps-fuzz
	@mkdir -p .build-fuzz/crashes .build-fuzz/shim
	@set -e; if [ -n "$(filter-out swift-%,$(FUZZERS))" ]; then \
		rm -f .build-fuzz/shim/*.o; \
		for c in $(FUZZ_SHIM_SOURCES); do \
			$(FUZZ_CC) $(FUZZ_FLAGS) -Wno-unused-command-line-argument $(FUZZ_INCLUDES) $(FUZZ_CFLAGS) -c $$c \
				-o .build-fuzz/shim/$$(basename $$c .c).o; \
		done; \
	fi
	@set -e; for f in $(filter-out swift-%,$(FUZZERS)); do \
		$(FUZZ_CC) $(FUZZ_FLAGS) $(FUZZ_INCLUDES) .build-fuzz/shim/*.o Fuzz/$${f}_fuzzer.c $(FUZZ_LIBS) -o .build-fuzz/$$f; \
	done
	@if [ -n "$(filter swift-%,$(FUZZERS))" ]; then set -o pipefail; $(SWIFT) build $(FUZZ_SWIFT_FLAGS) 2>&1 | grep -E 'error|Build' ; fi

fuzz-run: deps-fuzz
	@mkdir -p .build-fuzz/crashes
	@set -e; for f in $(FUZZERS); do \
		$(fuzz-harness); seeds="$(FUZZ_FIXTURES)"; \
		case $$f in exif|inflate|icc) seeds=Fuzz/seeds/$$f;; heif) seeds=Fuzz/seeds/stills;; swift-decode) seeds="$(FUZZ_FIXTURES) Fuzz/seeds/stills";; \
			swift-thumbnail-cache) seeds=Fuzz/seeds/thumbnail-cache;; swift-replay) seeds=Tests/Scripts;; esac; \
		mkdir -p .build-fuzz/corpus/$$f; [ -d Fuzz/corpus/$$f ] && seeds="$$seeds Fuzz/corpus/$$f"; \
		echo "fuzz: $$f for $(FUZZ_SECONDS) s"; \
		status=0; LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan-suppressions.txt /usr/bin/time -f '%U %S' -o .build-fuzz/cpu-$$f \
			$$run -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -print_final_stats=1 \
			$$dict -artifact_prefix=.build-fuzz/crashes/$$f- .build-fuzz/corpus/$$f $$seeds > .build-fuzz/log-$$f 2>&1 || status=$$?; \
		grep -E '^(Done|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|INFO: seed corpus)' .build-fuzz/log-$$f || true; \
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$$(date -u +%FT%TZ)" $$f \
			"$$(awk '/^[0-9.]+ [0-9.]+$$/ { print $$1 + $$2 }' .build-fuzz/cpu-$$f)" \
			"$$(awk '/^stat::number_of_executed_units/ { print $$2 }' .build-fuzz/log-$$f)" \
			"$$( [ $$status -eq 0 ] && echo clean || echo "failed $$status")" $(FUZZ_TIMEOUT) >> $(FUZZ_LEDGER); \
		[ $$status -eq 0 ] || { tail -40 .build-fuzz/log-$$f; exit 1; }; \
	done

# Every input the fuzzers have kept (.build-fuzz/corpus and Fuzz/corpus), run once more under
# FUZZ_TIMEOUT (1 s):
# the check that no input runs over it, for a run on a machine the fuzzers do not share (the
# campaign's own runs may allow more, so that a starved process is not taken for a slow input).
fuzz-check: fuzz-build
	@set -e; for f in $(FUZZERS); do \
		$(fuzz-harness); kept=$$(ls -d .build-fuzz/corpus/$$f Fuzz/corpus/$$f 2>/dev/null || true); [ -n "$$kept" ] || continue; \
		status=0; LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan-suppressions.txt $$run -runs=0 -timeout=$(FUZZ_TIMEOUT) \
			-rss_limit_mb=2048 -print_final_stats=1 $$kept > .build-fuzz/check-$$f 2>&1 || status=$$?; \
		printf '%-24s %6s inputs, slowest %s s: %s\n' $$f \
			"$$(sed -n 's/^#\([0-9]*\)[[:space:]]*INITED.*/\1/p' .build-fuzz/check-$$f)" \
			"$$(awk '/^stat::slowest_unit_time_sec/ { print $$2 }' .build-fuzz/check-$$f)" \
			"$$( [ $$status -eq 0 ] && echo clean || echo "failed $$status")"; \
		[ $$status -eq 0 ] || { tail -40 .build-fuzz/check-$$f; exit 1; }; \
	done

# Per harness, from Fuzz/ledger.tsv (time, harness, CPU seconds, inputs run, outcome, timeout in
# seconds; lines starting with # are comments): the CPU hours fuzzed, the inputs run, the runs
# that failed (a crash, leak or timeout) and the longest timeout any run allowed.
fuzz-report:
	@printf "%-24s %10s %14s %7s %8s\n" harness "CPU hours" "inputs run" failed timeout
	@awk -F'\t' '/^#/ { next } { cpu[$$2] += $$3; runs[$$2] += $$4; bad[$$2] += ($$5 != "clean"); \
			if ($$6 + 0 > limit[$$2]) limit[$$2] = $$6 + 0 } \
		END { for (h in cpu) printf "%-24s %10.2f %14d %7d %7ds\n", h, cpu[h] / 3600, runs[h], bad[h], limit[h] }' \
		$(FUZZ_LEDGER) | sort

# Each harness's kept inputs (this machine's .build-fuzz/corpus and the committed Fuzz/corpus)
# minimized by libFuzzer's merge into a new Fuzz/corpus/HARNESS: the fewest inputs that reach
# every feature (edge and comparison) any of them reached, for the next campaign to start from.
# Inputs over FUZZ_CORPUS_KIB are not kept: they are mostly the seed photos mutated (the seeds
# come into every run anyway), and a few dozen of them would make the committed corpus tens of MiB.
FUZZ_CORPUS_KIB := 64
fuzz-merge:
	@set -e; for f in $(FUZZERS); do \
		$(fuzz-harness); kept=$$(ls -d .build-fuzz/corpus/$$f Fuzz/corpus/$$f 2>/dev/null || true); [ -n "$$kept" ] || continue; \
		rm -rf .build-fuzz/merged-$$f; mkdir -p .build-fuzz/merged-$$f; \
		LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan-suppressions.txt $$run -merge=1 -timeout=$(FUZZ_TIMEOUT) \
			-rss_limit_mb=2048 .build-fuzz/merged-$$f $$kept > .build-fuzz/merge-$$f 2>&1 || { tail -20 .build-fuzz/merge-$$f; exit 1; }; \
		find .build-fuzz/merged-$$f -type f -size +$(FUZZ_CORPUS_KIB)k -delete; \
		rm -rf Fuzz/corpus/$$f; mkdir -p Fuzz/corpus; mv .build-fuzz/merged-$$f Fuzz/corpus/$$f; \
		printf '%-24s %6s inputs, %s\n' $$f "$$(ls Fuzz/corpus/$$f | wc -l)" "$$(du -sh Fuzz/corpus/$$f | cut -f1)"; \
	done

# Installed in place (no DESTDIR), the desktop's caches learn of the change at once: the MIME
# handlers xdg-mime reads and the icon theme's cache. A staged install leaves that to the package's
# own hooks.
define refresh-desktop-caches
	@if [ -z "$(DESTDIR)" ]; then \
		command -v update-desktop-database >/dev/null && update-desktop-database -q $(DATADIR)/applications; \
		command -v gtk-update-icon-cache >/dev/null && gtk-update-icon-cache -q -t $(DATADIR)/icons/hicolor; \
	fi; true
endef

# The release binary and its manual page, rebuilt when their sources changed (SwiftPM decides).
release-build: deps-build
	$(SWIFT) build $(RELEASE) --product riffle

.build/release/riffle: release-build

# The argument parser's manual generator, run on the release binary itself (its plugin would
# build the binary again without the static runtime).
.build/release/riffle.1: release-build
	$(SWIFT) build --product generate-manual
	.build/debug/generate-manual .build/release/riffle --output-directory .build/release

# The bundled photos go to share/riffle/assets, where the installed binary looks for them (beside
# its bin/); fonts come from fontconfig. The icon's PNG sizes are rendered from the SVG here.
install: deps-install $(RIFFLE_BINARY) $(RIFFLE_MANUAL)
	install -d $(BINDIR) $(DATADIR)/riffle/assets $(DATADIR)/applications $(DATADIR)/metainfo \
		$(DATADIR)/man/man1 $(DATADIR)/icons/hicolor/scalable/apps
	install -m 755 $(RIFFLE_BINARY) $(BINDIR)/riffle
	install -m 644 assets/* $(DATADIR)/riffle/assets/
	install -m 644 data/$(APP_ID).desktop $(DATADIR)/applications/
	install -m 644 data/$(APP_ID).metainfo.xml $(DATADIR)/metainfo/
	install -m 644 $(RIFFLE_MANUAL) $(DATADIR)/man/man1/riffle.1
	install -m 644 data/$(APP_ID).svg $(DATADIR)/icons/hicolor/scalable/apps/
	for size in $(ICON_SIZES); do \
		install -d $(DATADIR)/icons/hicolor/$${size}x$${size}/apps && \
		rsvg-convert -w $$size -h $$size -o $(DATADIR)/icons/hicolor/$${size}x$${size}/apps/$(APP_ID).png \
			data/$(APP_ID).svg || exit 1; \
	done
	$(refresh-desktop-caches)

uninstall:
	rm -f $(BINDIR)/riffle $(DATADIR)/applications/$(APP_ID).desktop \
		$(DATADIR)/metainfo/$(APP_ID).metainfo.xml $(DATADIR)/man/man1/riffle.1 \
		$(DATADIR)/icons/hicolor/scalable/apps/$(APP_ID).svg \
		$(foreach size,$(ICON_SIZES),$(DATADIR)/icons/hicolor/$(size)x$(size)/apps/$(APP_ID).png)
	rm -rf $(DATADIR)/riffle
	$(refresh-desktop-caches)

deps-build:
	$(call ensure-packages,$(BUILD_PACKAGES))

deps-install:
	$(call ensure-packages,$(INSTALL_PACKAGES))

deps-test:
	$(call ensure-packages,$(TEST_PACKAGES))

deps-fuzz:
	$(call ensure-packages,$(FUZZ_PACKAGES))

deps-bench:
	$(call ensure-packages,$(BENCH_PACKAGES))

clean:
	rm -rf .build
