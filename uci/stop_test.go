package uci

import (
	"strconv"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// infoField returns the value after key in an info line ("" when absent);
// for "score" it is "cp N" or "mate N", for "pv" the moves.
func infoField(line, key string) string {
	f := strings.Fields(line)
	for i, w := range f {
		if w != key || i+1 >= len(f) {
			continue
		}
		switch key {
		case "score":
			if i+2 < len(f) {
				return f[i+1] + " " + f[i+2]
			}
		case "pv":
			return strings.Join(f[i+1:], " ")
		default:
			return f[i+1]
		}
	}
	return ""
}

// TestStopAtOnce: a go infinite stopped at once (stop sent with it, or the
// input closed after it) still answers with a searched move: the main
// thread completes depth 1 (a few dozen nodes) before it heeds the stop, so
// the last info line is a completed depth's, with the score and move a
// go depth 1 reports, never the first move generated with the root's
// static score.
func TestStopAtOnce(t *testing.T) {
	const moves = "e2e4 e7e5"
	ref := newHarness(t)
	ref.send("position startpos moves "+moves, "go depth 1")
	_, refLines := lastBest(ref)
	depth1 := refLines[len(refLines)-1]
	pos := movegen.NewPosition()
	for _, s := range strings.Fields(moves) {
		m, err := movegen.ParseMove(pos, s, false)
		if err != nil {
			t.Fatal(err)
		}
		pos.Make(m)
	}
	rootMoves := len(pos.LegalMoves())

	tries := 10
	if testing.Short() {
		tries = 4
	}
	for _, eof := range []bool{false, true} {
		for range tries {
			h := newHarness(t)
			var out []string
			if eof {
				h.send("position startpos moves "+moves, "go infinite")
				rest, err := h.finish()
				if err != nil {
					t.Fatal(err)
				}
				out = rest
			} else {
				h.send("position startpos moves "+moves, "go infinite", "stop")
				out = h.until("bestmove")
			}
			if count(out, "bestmove") != 1 || !strings.HasPrefix(out[len(out)-1], "bestmove") {
				t.Fatalf("eof=%v: want one bestmove, last: %q", eof, out)
			}
			best, _ := bestMove(t, out[len(out)-1])
			var last string
			for _, l := range out {
				if strings.HasPrefix(l, "info depth") {
					last = l
				}
			}
			if last == "" {
				t.Fatalf("eof=%v: no info line before bestmove: %q", eof, out)
			}
			depth, _ := strconv.Atoi(infoField(last, "depth"))
			nodes, _ := strconv.Atoi(infoField(last, "nodes"))
			pv := strings.Fields(infoField(last, "pv"))
			if depth < 1 || nodes < rootMoves || len(pv) == 0 || pv[0] != best {
				t.Fatalf("eof=%v: last line %q, bestmove %s: want a completed depth (at least %d nodes) whose pv starts with the bestmove",
					eof, last, best, rootMoves)
			}
			if depth == 1 && (infoField(last, "score") != infoField(depth1, "score") || pv[0] != strings.Fields(infoField(depth1, "pv"))[0]) {
				t.Fatalf("eof=%v: stopped at once: %q\ngo depth 1 reports %q", eof, last, depth1)
			}
		}
	}
}
