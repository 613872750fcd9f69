# Build, test and benchmark catalogist. `make check` is what CI runs.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

GO       ?= go
FUZZTIME ?= 3000x
FUZZMINIMIZE ?= 200x

# Helm 4 CLI used by tests and benchmarks, installed by `make tools`. Override
# with HELM4=/path/to/helm (or CATALOGIST_HELM4) to use another binary.
HELM4 ?= $(or $(CATALOGIST_HELM4),$(shell bash scripts/install-tools.sh --print helm4))
HELM4 := $(HELM4)
export HELM4
export CATALOGIST_HELM4 := $(HELM4)

# The oldest supported Helm 3 client and Debian's Chromium, for build and
# page tests; installed by `make tools`.
HELM3 ?= $(or $(CATALOGIST_HELM3),$(shell bash scripts/install-tools.sh --print helm3))
export CATALOGIST_HELM3 := $(HELM3)
CHROMIUM ?= $(or $(CATALOGIST_CHROMIUM),$(shell bash scripts/install-tools.sh --print chromium))
export CATALOGIST_CHROMIUM := $(CHROMIUM)

# etcd (Debian's) and a kube-apiserver built from k8s.io/kubernetes, which
# scripts/kube-up.sh runs for the launcher tests; installed by `make tools`.
ETCD ?= $(or $(CATALOGIST_ETCD),$(shell bash scripts/install-tools.sh --print etcd))
export CATALOGIST_ETCD := $(ETCD)
KUBE_APISERVER ?= $(or $(CATALOGIST_KUBE_APISERVER),$(shell bash scripts/install-tools.sh --print kube-apiserver))
export CATALOGIST_KUBE_APISERVER := $(KUBE_APISERVER)

# axe-core's axe.min.js, which the browser tests inject into pages, from the
# npm packages pinned in tools/browser; installed by `make tools`.
AXE ?= $(or $(CATALOGIST_AXE),$(shell bash scripts/install-tools.sh --print axe-core))
export CATALOGIST_AXE := $(AXE)

# The npm packages pinned in tools/browser (axe-core's among them), whose
# JSON and YAML language services the editor schema tests run; installed by
# `make tools`.
NODE_MODULES ?= $(or $(CATALOGIST_NODE_MODULES),$(shell bash scripts/install-tools.sh --print node-modules))
export CATALOGIST_NODE_MODULES := $(NODE_MODULES)

# Debian's pre-commit, which the hook test runs on a scratch repository;
# installed by `make tools`.
PRECOMMIT ?= $(or $(CATALOGIST_PRECOMMIT),$(shell bash scripts/install-tools.sh --print pre-commit))
export CATALOGIST_PRECOMMIT := $(PRECOMMIT)

# helm-docs, whose READMEs the docs tests compare `catalogist docs` with;
# installed by `make tools`.
HELMDOCS ?= $(or $(CATALOGIST_HELMDOCS),$(shell bash scripts/install-tools.sh --print helm-docs))
export CATALOGIST_HELMDOCS := $(HELMDOCS)

# Debian's cmark-gfm, GitHub's Markdown renderer, with which the docs tests
# read the READMEs `catalogist docs` writes; installed by `make tools`.
CMARKGFM ?= $(or $(CATALOGIST_CMARKGFM),$(shell bash scripts/install-tools.sh --print cmark-gfm))
export CATALOGIST_CMARKGFM := $(CMARKGFM)

# Steps of `make check`, in order.
CHECK_STEPS := tools fmt-check vet build test test-js lint-examples fuzz

.PHONY: build pgo test test-js vet fmt-check lint-examples fuzz tools check check-corpus docs bench bench-lint bench-build bench-launch bench-scale clean cluster cluster-down

# The binary is built with profile-guided optimisation from the main jobs'
# profile (scripts/pgo.sh, make pgo): lint runs about 7% faster. The profile
# is not default.pgo, which every `go build` and `go install` of the command
# would then read: a cold build with it compiles every dependency again,
# which a pre-commit hook or an Action building from source should not wait
# for. Release builds take the same flag.
PGO = cmd/catalogist/release.pgo

build:
	$(GO) build -pgo=$(PGO) -o bin/catalogist ./cmd/catalogist

# Regenerates $(PGO) from the lint and build benchmarks.
pgo:
	GO=$(GO) bash scripts/pgo.sh

# Tests call the Helm 4 CLI, so they install it first (a no-op when present).
test: tools
	$(GO) test -race ./...

# The chart pages' form script against the edit vectors that the Go tests
# run too, with the form models of the binary just built; and the editor
# schemas that binary's build publishes, in VS Code's JSON and
# yaml-language-server's language services configured as the README says.
# The shell expands the file names: Node 20 reads a directory argument,
# newer Nodes a glob.
test-js: tools build
	CATALOGIST_BIN=bin/catalogist node --test testdata/form/*.test.mjs testdata/editor/*.test.mjs

vet:
	$(GO) vet ./...

fmt-check:
	@files=$$(gofmt -l .); \
	if [ -n "$$files" ]; then \
		echo "gofmt needed on:"; echo "$$files" | sed 's/^/  /'; \
		exit 1; \
	fi

# The main job on the bundled examples, and their READMEs' options sections
# against their schemas (with the binary `make build` wrote).
lint-examples: build
	$(GO) run ./cmd/catalogist lint --region examples/region.yaml examples/*
	bin/catalogist docs --check examples/*

# Every fuzz target of the module, FUZZTIME executions each (see the script
# for why counts, and how). CI's pass is a short one, which keeps `make check`
# under five minutes on a warm machine; for a longer campaign:
# make fuzz FUZZTIME=300000x.
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) FUZZMINIMIZE=$(FUZZMINIMIZE) bash scripts/fuzz.sh

tools:
	bash scripts/install-tools.sh

# A local etcd + kube-apiserver on loopback (state in CLUSTER_DIR, default
# ~/.cache/catalogist-cluster), for trying the launcher by hand; tests given
# CATALOGIST_KUBECONFIG use it instead of starting their own.
cluster:
	@bash scripts/install-tools.sh etcd kube-apiserver >/dev/null
	@kubeconfig=$$(bash scripts/kube-up.sh $(CLUSTER_DIR) | tail -n 1); \
	echo "export KUBECONFIG=$$kubeconfig CATALOGIST_KUBECONFIG=$$kubeconfig"

cluster-down:
	bash scripts/kube-down.sh $(CLUSTER_DIR)

check:
	@for step in $(CHECK_STEPS); do \
		printf '\n==================== make %s ====================\n' "$$step"; \
		$(MAKE) --no-print-directory "$$step" || { printf '\nmake check: step "%s" failed\n' "$$step"; exit 1; }; \
	done; \
	printf '\nmake check: all steps passed (%s)\n' "$(CHECK_STEPS)"

# Writes docs/cli/, each command's reference page, from the commands
# (cobra's generator); a test fails when it is stale.
docs:
	$(GO) test ./cmd/catalogist -run '^TestCLIDocsCurrent$$' -args -update-docs

# The tests that read a public catalog of the reference platform and its
# API's schema registry, which the repository never copies: test files
# built with the corpus tag (their packages found by that tag), given the
# two directories. `make check` passes on a plain clone without them.
#   make check-corpus CORPUS=../shared/corpus/interactive-services REGISTRY=../shared/onyxia-registry
CORPUS_PACKAGES = $(sort $(dir $(shell grep -rl --include='*_test.go' '^//go:build corpus$$' cmd internal lint builder)))
check-corpus: tools build
	@if [ -z "$(CORPUS)" ] || [ -z "$(REGISTRY)" ]; then \
		echo "make check-corpus: give CORPUS=DIR (a catalog, with its charts/) and REGISTRY=DIR (the platform API's schema registry)" >&2; exit 2; \
	fi
	@if [ ! -d "$(CORPUS)/charts" ]; then echo "make check-corpus: CORPUS=$(CORPUS) has no charts/ directory" >&2; exit 2; fi
	@if [ ! -d "$(REGISTRY)" ]; then echo "make check-corpus: REGISTRY=$(REGISTRY) is not a directory" >&2; exit 2; fi
	CATALOGIST_CORPUS=$(abspath $(CORPUS)) CATALOGIST_REGISTRY=$(abspath $(REGISTRY)) \
		$(GO) test -race -tags corpus -run '^(TestCorpus.*|TestSiteInBrowser)$$' $(addprefix ./,$(CORPUS_PACKAGES))
	CATALOGIST_CORPUS=$(abspath $(CORPUS)) CATALOGIST_FORM_VECTORS=testdata/form-corpus CATALOGIST_BIN=bin/catalogist \
		node --test testdata/form/edits.test.mjs
	CATALOGIST_CORPUS=$(abspath $(CORPUS)) CATALOGIST_BIN=bin/catalogist node --test testdata/editor/schemas.test.mjs

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# catalogist lint against a `helm lint` loop on a generated 100-chart catalog.
bench-lint:
	bash scripts/bench-lint.sh

# catalogist build against a `helm package` loop plus `helm repo index`:
# cold, incremental, and merging into a 15,000-version index; says whether
# the incremental build's work (above `catalogist --help`, process start) is
# 20 times less than the cold build's.
bench-build:
	bash scripts/bench-build.sh

# catalogist lint and build of 1,000 and 10,000 small generated charts: time,
# CPU and peak memory, per chart, and the ratio between the two sizes.
bench-scale:
	bash scripts/bench-scale.sh

# Finding one chart's versions in a published 15,000-version index, as the
# launcher does, against Helm's index loader; fails unless 10 times faster
# and allocating 5 times fewer bytes.
bench-launch:
	bash scripts/bench-launch.sh

clean:
	rm -rf bin
