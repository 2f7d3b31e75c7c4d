package nnue

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// The embedded network: a default build embeds the shipped net, default.nnue
// in this folder (embed_default.go); a build with the tag evalfile embeds
// the file the Makefile's EVALFILE names, which the Makefile copies to
// evalfile.nnue here and whose base name it writes to evalfile.name (both
// ignored by git; embed_evalfile.go). go:embed reads only files inside the
// package, hence the copy.

// EmbeddedSHA256 returns the SHA-256 of the embedded network's bytes in
// lower-case hex, which tells two nets of the same name apart.
func EmbeddedSHA256() string {
	sum := sha256.Sum256(defaultNet)
	return hex.EncodeToString(sum[:])
}

// LoadEmbedded reads the embedded network, as Default does, but returns an
// error for a malformed one instead of panicking: a build whose EVALFILE is
// not a network this loader reads reports it through here.
func LoadEmbedded() (*Net, error) {
	n, err := Load(bytes.NewReader(defaultNet))
	if err != nil {
		return nil, fmt.Errorf("the embedded network %s: %w", EmbeddedName(), err)
	}
	return n, nil
}

// SIMDBuilt reports whether this build contains the AVX2 kernels (amd64
// built with GOEXPERIMENT=simd). Whether a net uses them also depends on
// the CPU: Net.SIMD.
func SIMDBuilt() bool { return simdBuilt }
