package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

func TestGeneratesLabelledQuietPositions(t *testing.T) {
	out := filepath.Join(t.TempDir(), "data.epd")
	var stderr bytes.Buffer
	if code := run([]string{"--games", "3", "--nodes", "400", "--concurrency", "1", "--out", out}, &bytes.Buffer{}, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) < 10 {
		t.Fatalf("only %d positions from 3 games", len(lines))
	}
	for _, l := range lines {
		i := strings.LastIndex(l, " [")
		if i < 0 {
			t.Fatalf("no result in %q", l)
		}
		switch l[i+1:] {
		case "[1.0]", "[0.5]", "[0.0]":
		default:
			t.Fatalf("bad result in %q", l)
		}
		var p movegen.Position
		if err := p.SetFEN(l[:i]); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if p.InCheck() {
			t.Errorf("sampled a position in check: %q", l)
		}
	}
}

func TestBadFlags(t *testing.T) {
	if code := run([]string{"--nope"}, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}
