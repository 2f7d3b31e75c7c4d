package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kingrook/kingrook/movegen"
)

func TestParseArgs(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "fens.txt")
	kiwi := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	if err := os.WriteFile(file, []byte("# two positions\n\n"+movegen.StartFEN+"\n  "+kiwi+"  \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty.txt")
	if err := os.WriteFile(empty, []byte("# nothing\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const current = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"
	badFEN := filepath.Join(dir, "bad.epd")
	if err := os.WriteFile(badFEN, []byte(movegen.StartFEN+"\ngarbage fen\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadPositions(badFEN); err == nil || !strings.Contains(err.Error(), "bad.epd:2:") {
		t.Errorf("a bad FEN on line 2: error %v, want one naming the line", err)
	}
	for _, tc := range []struct {
		args string
		want Config
	}{
		{"", Config{}},
		{"8", Config{Hash: 8}},
		{"8 2", Config{Hash: 8, Threads: 2}},
		{"16 1 7", Config{Hash: 16, Threads: 1, Depth: 7}},
		{"16 1 7 default", Config{Hash: 16, Threads: 1, Depth: 7}},
		{"16 1 7 default depth", Config{Hash: 16, Threads: 1, Depth: 7}},
		{"16 1 5000 default nodes", Config{Hash: 16, Threads: 1, Nodes: 5000}},
		{"16 1 250 default movetime", Config{Hash: 16, Threads: 1, MoveTime: 250 * time.Millisecond}},
		{"32 1 9 current", Config{Hash: 32, Threads: 1, Depth: 9, Positions: []string{current}}},
		{"16 1 9 " + file, Config{Hash: 16, Threads: 1, Depth: 9, Positions: []string{movegen.StartFEN, kiwi}}},
	} {
		got, err := ParseArgs(strings.Fields(tc.args), current)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseArgs(%q) = %+v, %v; want %+v", tc.args, got, err, tc.want)
		}
	}
	for _, args := range []string{
		"0", "x", "16 0", "16 1 0", "16 1 -3", "16 1 200", "16 1 x default nodes", "16 1 5 default perft",
		"16 1 5 " + filepath.Join(dir, "missing.txt"), "16 1 5 " + empty, "16 1 5 default depth more",
		"16 1 5 current", // no current position here
		"16 1 5 " + badFEN,
	} {
		if got, err := ParseArgs(strings.Fields(args), ""); err == nil {
			t.Errorf("ParseArgs(%q) = %+v, want an error", args, got)
		}
	}
}

// A node limit replaces the depth and keeps the count deterministic.
func TestNodeLimit(t *testing.T) {
	fens := Positions()[:4]
	var first Result
	for run := range 2 {
		var out bytes.Buffer
		res := Run(Config{Nodes: 3000, Positions: fens}, &out)
		if res.Positions != len(fens) || res.Nodes == 0 || res.Nodes > uint64(len(fens))*(3000+1024) {
			t.Fatalf("run %d: %+v\n%s", run, res, out.String())
		}
		if !strings.Contains(out.String(), "Positions: 4, nodes 3000,") {
			t.Fatalf("summary: %s", out.String())
		}
		if run == 0 {
			first = res
		} else if res.Nodes != first.Nodes {
			t.Fatalf("node counts differ: %d then %d", first.Nodes, res.Nodes)
		}
	}
	// Deeper than a 3000-node search reaches: the depth limit is not used.
	var out bytes.Buffer
	deep := Run(Config{Depth: 4, Positions: fens}, &out)
	if deep.Nodes == first.Nodes {
		t.Fatalf("depth 4 and 3000 nodes searched the same %d nodes", deep.Nodes)
	}
}
