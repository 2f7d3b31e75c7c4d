package search

import (
	"bytes"
	"os"
	"testing"

	"github.com/kingrook/kingrook/search/internal/gentune"
)

// TestParamsTuneGenerated: params_tune.go is what gen_tune.go writes from
// params.go, so that the tune build declares the same parameters with the
// same values.
func TestParamsTuneGenerated(t *testing.T) {
	src, err := os.ReadFile("params.go")
	if err != nil {
		t.Fatal(err)
	}
	want, err := gentune.Generate(src)
	if err != nil {
		t.Fatalf("generating params_tune.go: %v", err)
	}
	got, err := os.ReadFile("params_tune.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("params_tune.go is stale: run go generate ./search")
	}
}
