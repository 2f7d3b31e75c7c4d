//go:build ignore

// gen_tune writes params_tune.go from params.go (run by go generate in this
// folder): see package search/internal/gentune.
package main

import (
	"fmt"
	"os"

	"github.com/kingrook/kingrook/search/internal/gentune"
)

func main() {
	src, err := os.ReadFile("params.go")
	if err == nil {
		src, err = gentune.Generate(src)
	}
	if err == nil {
		err = os.WriteFile("params_tune.go", src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen_tune:", err)
		os.Exit(1)
	}
}
