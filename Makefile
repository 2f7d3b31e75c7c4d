# Kingrook build. `make` builds ./kingrook. As OpenBench expects:
#   make -j EXE=name [EVALFILE=net.nnue] [CC=...]
# EXE=path names the binary; EVALFILE=path embeds that network instead of the
# shipped one (eval/nnue/default.nnue). TAGS=tune builds the tuning binary:
# every search margin and reduction a UCI option (cmd/tune/README.md).
GO       ?= go
EXE      ?= kingrook
EVALFILE ?=
TAGS     ?=

# No cgo: the engine is pure Go, so it builds without a C compiler and a CC
# that is none (OpenBench passes CC=go) changes nothing. The race tests below
# turn cgo back on for themselves.
export CGO_ENABLED = 0

# The commit, when this folder is the top of a git checkout (not an archive
# of one): the abbreviated hash, "-dirty" when files differ from it (untracked
# ones included, as go build's own VCS stamp counts them). The binary prints
# it after the version: "Kingrook 1.1.0 (abc1234)".
ifeq ($(shell [ "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" ] && echo yes),yes)
HASH   := $(shell git rev-parse --short=7 HEAD 2>/dev/null)
COMMIT := $(if $(HASH),$(HASH)$(shell [ -z "$$(git status --porcelain)" ] || echo -dirty))
endif
LDFLAGS := $(strip -s -w $(if $(COMMIT),-X main.commit=$(COMMIT)))

# Native build: x86-64-v3 (AVX2, BMI2) when this CPU has it, portable otherwise.
GOAMD64 ?= $(shell grep -qw bmi2 /proc/cpuinfo 2>/dev/null && grep -qw avx2 /proc/cpuinfo 2>/dev/null && echo v3 || echo v1)
export GOAMD64
# On amd64 the network's inference uses Go's experimental SIMD package
# (simd/archsimd, AVX2 at run time, plain Go otherwise); other targets build
# the plain Go path. GOEXPERIMENT= (empty) builds the plain path on amd64 too.
ifeq ($(shell $(GO) env GOARCH),amd64)
GOEXPERIMENT ?= simd
export GOEXPERIMENT
endif

# EVALFILE: go:embed reads only files inside the package, so the net is
# copied into eval/nnue (evalfile.nnue and its base name in evalfile.name,
# both ignored by git) and the build tag evalfile embeds that copy.
NETDIR := eval/nnue
comma  := ,
GOTAGS := $(strip $(TAGS)$(if $(EVALFILE),$(if $(strip $(TAGS)),$(comma))evalfile))
TAGFLAG := $(if $(GOTAGS),-tags $(GOTAGS))
# The binary as a command (EXE may be a bare name or a path).
RUN_EXE := $(if $(findstring /,$(EXE)),$(EXE),./$(EXE))

.DEFAULT_GOAL := build
.PHONY: build run test bench pgo perft-suite clean

build:
ifneq ($(EVALFILE),)
	@test -f "$(EVALFILE)" || { echo "make: EVALFILE=$(EVALFILE): no such file" >&2; exit 2; }
	cp "$(EVALFILE)" $(NETDIR)/evalfile.nnue
	printf '%s\n' "$(notdir $(EVALFILE))" > $(NETDIR)/evalfile.name
endif
	$(GO) build -trimpath $(TAGFLAG) -ldflags "$(LDFLAGS)" -o $(EXE) ./cmd/kingrook
ifneq ($(EVALFILE),)
# `kingrook version` loads the embedded net and fails on a malformed one; a
# cross build checks the net with a build for this machine instead.
	@if [ "$$($(GO) env GOOS GOARCH)" = "$$($(GO) env GOHOSTOS GOHOSTARCH)" ]; then \
		$(RUN_EXE) version; \
	else \
		GOOS= GOARCH= $(GO) run $(TAGFLAG) ./cmd/kingrook version; \
	fi || { rm -f "$(EXE)"; \
		echo "make: EVALFILE=$(EVALFILE) is not a network Kingrook can load (see above); $(EXE) removed" >&2; exit 1; }
endif

run: build
	$(RUN_EXE)

test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	@if command -v "$$(CC= $(GO) env CC)" >/dev/null 2>&1; then \
		echo 'CGO_ENABLED=1 $(GO) test -count=1 -race -short ./tt/... ./search/... ./engine/... ./uci/...'; \
		CGO_ENABLED=1 $(GO) test -count=1 -race -short ./tt/... ./search/... ./engine/... ./uci/...; \
	else \
		echo "no C compiler ($$(CC= $(GO) env CC)): the race tests, which need cgo, are skipped"; \
	fi
	GOEXPERIMENT= $(GO) test -count=1 ./eval/nnue/... # the plain Go path of the network as well
	$(GO) vet -tags tune ./... # the tuning build (TAGS=tune) as well
	$(GO) test -count=1 -short -tags tune ./search/ ./engine/

bench: build
	$(RUN_EXE) bench

# The profile that go build uses for profile-guided optimisation of
# cmd/kingrook (cmd/kingrook/default.pgo, read by -pgo=auto, the default):
# a CPU profile of the benchmark at depth 15. Make it again after a change to
# the search or the net moves where the time goes (bench/README.md, Speed).
pgo: build
	$(RUN_EXE) bench --depth 15 --cpuprofile cmd/kingrook/default.pgo

# The whole perft suites (hours): PERFT_DIR holds standard.epd, perftsuite.epd
# and fischer.epd (movegen/testdata/README.md says where they come from).
PERFT_DIR ?= ../shared/data/perft

perft-suite:
	@test -d "$(PERFT_DIR)" || { echo "PERFT_DIR=$(PERFT_DIR) is not a folder: give PERFT_DIR=path"; exit 2; }
	KINGROOK_PERFT_DIR="$(abspath $(PERFT_DIR))" KINGROOK_PERFT_FULL=1 $(GO) test -count=1 -timeout 6h -run 'TestPerftFullSuites' ./movegen/ -v

clean:
	rm -f $(EXE) kingrook kingrook.exe $(NETDIR)/evalfile.nnue $(NETDIR)/evalfile.name
	$(GO) clean -testcache
