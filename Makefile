# memvault — two commands for a newcomer: `make run` and `make test`. Everything installs from the npm registry.
SHELL := /bin/bash
STAMP := node_modules/.memvault-installed
# `make run` serves a copy of the bundled example vault, so agents' writes and git history stay out of this repo
VAULT ?= .run/vault
TESTS ?= $(shell find test -name '*.test.ts' | sort | sed -e 's|^|dist/|' -e 's|\.ts$$|.js|')
# tap runs one file at a time on 2 cores by default; most files wait on git, timers and the model, so two at once
# halve the wall time. The chaos files (timing bounds, whole daemons under load) keep the machine to themselves.
# Files start in path order: longest-first, simulated on a CI run's per-file times, finished 2 s sooner (the tail is
# short files). Every test process preloads test/helpers/threads-skip-tap-loader.ts (package.json, tap.node-arg):
# without it each daemon thread re-ran tap's module loader and a daemon started twice as slowly (README, Working on
# memvault, for the times).
CHAOS_TESTS := $(filter dist/test/chaos/%,$(TESTS))
OTHER_TESTS := $(filter-out dist/test/chaos/%,$(TESTS))

.PHONY: install build run test test-deps lint format diagram bench chaos clean

install: $(STAMP)

# onnxruntime-node's install script reads its skip flag from .npmrc (for a bare `npm ci`) or from the environment: npm
# warns that it will stop passing unknown .npmrc keys in its next major version, so make passes both
$(STAMP): package.json package-lock.json .npmrc
	ONNXRUNTIME_NODE_INSTALL=skip npm ci
	@touch $@

# tsc, then each thread's entry bundled into dist/bundle/ (bin/bundle.ts): a new thread loads one file, not hundreds
build: install
	npx tsc -p tsconfig.json
	node dist/bin/bundle.js

run: build
	@# its own git repository: a vault inside this checkout's work tree would have writes refused (`inside_repo`)
	@if [ "$(VAULT)" = ".run/vault" ] && [ ! -d .run/vault ]; then mkdir -p .run && cp -r examples/vault .run/vault && echo "copied examples/vault to .run/vault"; fi
	@if [ "$(VAULT)" = ".run/vault" ] && [ ! -e .run/vault/.git ]; then git init -q .run/vault; fi
	@# glibc's allocator keeps what the model threads free unless told to return it (README, Memory)
	MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072 MALLOC_TRIM_THRESHOLD_=131072 node bin/memvault start --vault $(VAULT)

# Debian packages the tests drive: faketime (the clock-jump chaos test runs the daemon under libfaketime) and
# qemu-user (the int8 accuracy test runs on an emulated AVX2-only CPU, whatever CPU the machine has); prometheus
# (promtool checks the live /metrics, the alert rules and their unit tests), chromium (the status page's browser
# test), litmus and rclone (the WebDAV tests)
TEST_DEBS := faketime qemu-user prometheus chromium litmus rclone
test-deps:
	@missing=$$(for p in $(TEST_DEBS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$sudo apt-get update -qq && $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Biome: formatting, lint rules, and no import circles anywhere (suspicious/noImportCycles, type imports included)
lint: install
	npx biome ci .

format: install
	npx biome format --write .

# the README's picture of the actors, generated from supervisors/actors.ts (a test checks the README holds it)
diagram: build
	@node -e "import('./dist/supervisors/actors.js').then((m) => console.log(m.pipelineDiagram()))"

# package.json turns tap's TypeScript and mock plugins off (the tests run compiled JS from dist/ and mock nothing), but
# tap takes a changed plugin list only after `tap build`: the run that rebuilds it still starts every file with the
# old loaders, and each daemon thread inherits their hooks (a daemon test file ran 125-132 s instead of 23-24 s).
# `npm ci` puts the default build back, so tap is rebuilt after each install (test/harness checks the loaders are off).
TAP_BUILT := node_modules/.memvault-tap-built
$(TAP_BUILT): $(STAMP)
	npx tap build
	@touch $@

# A failure ends the run with the files that failed and their failing points (read from the TAP tap saves for each
# file): the chaos run's summary would otherwise be the end of the log, far below a failure among the other files.
test: build test-deps lint $(TAP_BUILT)
	@status=0; rm -rf .tap/test-results; \
	npx tap --jobs=2 $(OTHER_TESTS) || status=1; \
	$(if $(CHAOS_TESTS),npx tap --jobs=1 $(CHAOS_TESTS) || status=1;) \
	if [ $$status -ne 0 ]; then node dist/test/helpers/failed-files.js .tap/test-results; fi; \
	exit $$status

bench: build
	node dist/bench/run-all.js

# the long reliability campaign (100 kill -9 cycles, actor faults, 10k-note overload, 20k hostile inputs, disk and
# clock faults); `make test` runs the short version. Prints a table, saves bench/results/chaos.json.
chaos: build test-deps
	node dist/test/chaos/run.js $(CHAOS_ARGS)

clean:
	rm -rf dist
