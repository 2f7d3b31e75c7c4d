# Kingrook build. `make` builds ./kingrook (EXE=path overrides, as OpenBench expects).
GO      ?= go
EXE     ?= kingrook
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -s -w -X main.version=$(VERSION)
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

.PHONY: build run test test-race bench perft-suite clean

build:
	$(GO) build -trimpath -ldflags "$(LDFLAGS)" -o $(EXE) ./cmd/kingrook

run: build
	./$(EXE)

test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	$(GO) test -count=1 -race -short ./tt/... ./search/... ./engine/... ./uci/...
	GOEXPERIMENT= $(GO) test -count=1 ./eval/nnue/... # the plain Go path of the network as well

bench: build
	./$(EXE) bench

# The whole perft suites (hours): PERFT_DIR holds standard.epd, perftsuite.epd
# and fischer.epd (movegen/testdata/README.md says where they come from).
PERFT_DIR ?= ../shared/data/perft

perft-suite:
	@test -d "$(PERFT_DIR)" || { echo "PERFT_DIR=$(PERFT_DIR) is not a folder: give PERFT_DIR=path"; exit 2; }
	KINGROOK_PERFT_DIR="$(abspath $(PERFT_DIR))" KINGROOK_PERFT_FULL=1 $(GO) test -count=1 -timeout 6h -run 'TestPerftFullSuites' ./movegen/ -v

clean:
	rm -f $(EXE) kingrook kingrook.exe
	$(GO) clean -testcache
