//go:build !evalfile

package nnue

import _ "embed"

//go:embed default.nnue
var defaultNet []byte

// EmbeddedName returns the name of the embedded network: DefaultName in
// this build, which embeds the shipped net.
func EmbeddedName() string { return DefaultName }
