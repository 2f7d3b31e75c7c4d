//go:build evalfile

package nnue

import (
	_ "embed"
	"strings"
)

// Written by `make EVALFILE=path`: a copy of the file and its base name.
var (
	//go:embed evalfile.nnue
	defaultNet []byte
	//go:embed evalfile.name
	evalfileName string
)

// EmbeddedName returns the name of the embedded network: in this build the
// base name of the file EVALFILE named.
func EmbeddedName() string { return strings.TrimSpace(evalfileName) }
