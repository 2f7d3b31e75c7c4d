//go:build !evalfile

package nnue

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"strings"
	"testing"
)

// TestEmbedded: a default build embeds default.nnue under DefaultName, and
// its hash is that of the file's bytes.
func TestEmbedded(t *testing.T) {
	data, err := os.ReadFile("default.nnue")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if got, want := EmbeddedSHA256(), hex.EncodeToString(sum[:]); got != want {
		t.Fatalf("EmbeddedSHA256 %s, want %s", got, want)
	}
	if EmbeddedName() != DefaultName {
		t.Fatalf("EmbeddedName %q, want %q", EmbeddedName(), DefaultName)
	}
	n, err := LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	if d := Default(); n.H != d.H || len(n.OutputB) != len(d.OutputB) || n.SIMD() != d.SIMD() {
		t.Fatalf("LoadEmbedded: H %d, %d buckets, SIMD %v; Default: H %d, %d buckets, SIMD %v", n.H, len(n.OutputB), n.SIMD(), d.H, len(d.OutputB), d.SIMD())
	}
	if !SIMDBuilt() && n.SIMD() {
		t.Fatal("a build without the SIMD kernels reports a net on the SIMD path")
	}
}

// TestLoadEmbeddedMalformed: a malformed embedded net (a bad EVALFILE) is
// an error naming it, not a panic.
func TestLoadEmbeddedMalformed(t *testing.T) {
	saved := defaultNet
	t.Cleanup(func() { defaultNet = saved })
	defaultNet = saved[:len(saved)/2]
	_, err := LoadEmbedded()
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), EmbeddedName()) || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("LoadEmbedded of half a net: %v", err)
	}
}
