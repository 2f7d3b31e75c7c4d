package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/kingrook/kingrook/cmd/internal/cli"
	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/eval/nnue"
)

// commit is the source's git commit, "-dirty" appended when the tree had
// uncommitted changes, as the Makefile passes it (-ldflags "-X
// main.commit=..."). Empty: the commit go build stamps into a binary built
// inside a git checkout, if any (runtime/debug.ReadBuildInfo).
var commit string

// versionString is engine.Version, followed by the commit in parentheses
// when the build knows it: "1.1.0 (abc1234)". The id name line and
// kingrook version print it.
func versionString() string {
	info, _ := debug.ReadBuildInfo()
	return formatVersion(commit, info)
}

// formatVersion is versionString for a given commit and build info (nil:
// none).
func formatVersion(commit string, info *debug.BuildInfo) string {
	if commit == "" && info != nil {
		commit = cli.StampedCommit(info)
	}
	if commit == "" {
		return engine.Version
	}
	return engine.Version + " (" + commit + ")"
}

// runVersion prints what this build is: the version, the Go toolchain and
// platform, whether the network runs on the SIMD path here, and the
// embedded network's name and hash. load reads the embedded net
// (nnue.LoadEmbedded); a malformed one is an error on stderr and exit code
// 1, which is how the Makefile rejects a bad EVALFILE.
func runVersion(stdout, stderr io.Writer, load func() (*nnue.Net, error)) int {
	net, err := load()
	if err != nil {
		fmt.Fprintf(stderr, "kingrook: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(stdout, "Kingrook %s\n", versionString())
	fmt.Fprintf(stdout, "go    %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(stdout, "simd  %s\n", simdText(net.SIMD(), nnue.SIMDBuilt(), runtime.GOARCH))
	fmt.Fprintf(stdout, "net   %s sha256 %s\n", nnue.EmbeddedName(), nnue.EmbeddedSHA256()[:12])
	return exitOK
}

// simdText says whether the network's inference runs on the SIMD path and,
// if not, why.
func simdText(inUse, built bool, arch string) string {
	switch {
	case inUse:
		return "yes (AVX2)"
	case built:
		return "no (this CPU has no AVX2)"
	case arch == "amd64":
		return "no (built without GOEXPERIMENT=simd)"
	}
	return "no (the SIMD path exists for amd64 only)"
}
