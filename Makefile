# memvault — two commands for a newcomer: `make run` and `make test`. Everything installs from the npm registry.
SHELL := /bin/bash
STAMP := node_modules/.memvault-installed
# `make run` serves a copy of the bundled example vault, so agents' writes and git history stay out of this repo
VAULT ?= .run/vault
TESTS ?= $(shell find test -name '*.test.ts' | sort | sed -e 's|^|dist/|' -e 's|\.ts$$|.js|')

.PHONY: install build run test bench chaos clean

install: $(STAMP)

$(STAMP): package.json package-lock.json .npmrc
	npm ci
	@touch $@

build: install
	npx tsc -p tsconfig.json

run: build
	@if [ "$(VAULT)" = ".run/vault" ] && [ ! -d .run/vault ]; then mkdir -p .run && cp -r examples/vault .run/vault && echo "copied examples/vault to .run/vault"; fi
	node bin/memvault start --vault $(VAULT)

test: build
	npx tap $(TESTS)

bench: build
	node dist/bench/run-all.js

clean:
	rm -rf dist
