package bench

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
)

func TestPositionsValid(t *testing.T) {
	list := Positions()
	if len(list) < 45 || len(list) > 60 {
		t.Fatalf("%d positions, want about 50", len(list))
	}
	seen := map[string]bool{}
	shredder := 0
	for i, fen := range list {
		pos := movegen.NewPosition()
		if err := pos.SetFEN(fen); err != nil {
			t.Errorf("position %d %q: %v", i+1, fen, err)
			continue
		}
		if !pos.HasLegalMove() {
			t.Errorf("position %d %q has no legal move", i+1, fen)
		}
		// Written in canonical form: what movegen prints in one mode.
		if pos.FEN(false) != fen && pos.FEN(true) != fen {
			t.Errorf("position %d %q is not canonical (%q)", i+1, fen, pos.FEN(true))
		}
		if pos.FEN(false) != fen {
			shredder++
		}
		if seen[pos.FEN(true)] {
			t.Errorf("position %d %q is a duplicate", i+1, fen)
		}
		seen[pos.FEN(true)] = true
	}
	if shredder < 10 {
		t.Errorf("%d Chess960/DFRC positions in Shredder-FEN, want at least 10", shredder)
	}
}

// TestNodeCountIsStable: the signature is the same on every run.
func TestNodeCountIsStable(t *testing.T) {
	var first Result
	for run := range 2 {
		var out bytes.Buffer
		res := Run(Config{Depth: 4}, &out)
		if res.Errors != 0 || res.Positions != len(Positions()) || res.Nodes == 0 {
			t.Fatalf("run %d: %+v\n%s", run, res, out.String())
		}
		if run == 0 {
			first = res
		} else if res.Nodes != first.Nodes {
			t.Fatalf("node counts differ: %d then %d", first.Nodes, res.Nodes)
		}
	}
}

// TestSignature runs the default bench, as `kingrook bench` does, and
// checks its node count.
func TestSignature(t *testing.T) {
	if testing.Short() {
		t.Skip("the default bench takes seconds; make test runs it without -short")
	}
	var out bytes.Buffer
	res := Run(Config{Net: nnue.Default()}, &out)
	if res.Errors != 0 || res.Positions != len(Positions()) {
		t.Fatalf("%+v\n%s", res, out.String())
	}
	if res.Nodes != Signature {
		t.Fatalf("bench: %d nodes, want the signature %d", res.Nodes, Signature)
	}
}

var lastLineRE = regexp.MustCompile(`^(\d+) nodes (\d+) nps$`)

func TestOutput(t *testing.T) {
	var out bytes.Buffer
	fens := Positions()[:3]
	res := Run(Config{Depth: 3, Positions: fens, Verbose: true}, &out)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	m := lastLineRE.FindStringSubmatch(lines[len(lines)-1])
	if m == nil {
		t.Fatalf("last line %q", lines[len(lines)-1])
	}
	if m[1] != fmt.Sprint(res.Nodes) || m[2] != fmt.Sprint(res.NPS) {
		t.Fatalf("last line %q, result %+v", lines[len(lines)-1], res)
	}
	if len(lines) != len(fens)+3 {
		t.Fatalf("%d lines for %d positions:\n%s", len(lines), len(fens), out.String())
	}
	for i, fen := range fens {
		if !strings.HasSuffix(lines[i], fen) {
			t.Errorf("line %q is not about %s", lines[i], fen)
		}
	}
}

func TestBadPositionSkipped(t *testing.T) {
	var out bytes.Buffer
	res := Run(Config{Depth: 2, Positions: []string{"nonsense", movegen.StartFEN}}, &out)
	if res.Errors != 1 || res.Positions != 1 || res.Nodes == 0 {
		t.Fatalf("%+v\n%s", res, out.String())
	}
}

// TestNilOutput: a nil writer prints nowhere; the result is the same.
func TestNilOutput(t *testing.T) {
	cfg := Config{Depth: 3, Positions: []string{movegen.StartFEN}}
	res := Run(cfg, nil)
	want := Run(cfg, &bytes.Buffer{})
	if res.Positions != 1 || res.Nodes == 0 || res.Nodes != want.Nodes {
		t.Fatalf("%+v, with a writer %+v", res, want)
	}
}
