# memvault — two commands for a newcomer: `make run` and `make test`. Everything installs from the npm registry.
SHELL := /bin/bash
STAMP := node_modules/.memvault-installed
VAULT ?= examples/vault
TESTS ?= $(shell find test -name '*.test.ts' | sort | sed -e 's|^|dist/|' -e 's|\.ts$$|.js|')

.PHONY: install build run test bench chaos clean

install: $(STAMP)

$(STAMP): package.json package-lock.json .npmrc
	npm ci
	@touch $@

build: install
	npx tsc -p tsconfig.json

run: build
	node bin/memvault start --vault $(VAULT)

test: build
	npx tap $(TESTS)

bench: build
	node dist/bench/run-all.js

clean:
	rm -rf dist
