package uci

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/movegen"
)

// TestAnalyseMatchesUCI: engine.Analyse at a fixed node count answers what
// the protocol answers to go nodes on a fresh engine: the same bestmove and
// ponder move, and result lines equal to the last info line of each
// MultiPV line (depth, score, bound, nodes, PV); the result's node count is
// the last line's and its exact score the first line's when that line is
// exact.
func TestAnalyseMatchesUCI(t *testing.T) {
	cases := []struct {
		fen, moves string
		nodes      int
		multiPV    int
	}{
		{"startpos", "e2e4 e7e5", 20000, 1},
		{"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", "", 35000, 1},
		{"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "", 25000, 3},
		{"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "", 5000, 1}, // mate 1
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%.20s/%d", c.fen, c.nodes), func(t *testing.T) {
			h := newHarness(t)
			pos := "position fen " + c.fen
			if c.fen == "startpos" {
				pos = "position startpos"
			}
			if c.moves != "" {
				pos += " moves " + c.moves
			}
			h.send(fmt.Sprintf("setoption name MultiPV value %d", c.multiPV), pos, fmt.Sprintf("go nodes %d", c.nodes))
			line, before := lastBest(h)
			best, ponder := bestMove(t, line)
			last := map[string]string{} // multipv -> last info line
			for _, l := range before {
				if strings.HasPrefix(l, "info depth") {
					last[infoField(l, "multipv")] = l
				}
			}

			set := engine.DefaultSettings()
			set.MultiPV = c.multiPV
			eng, err := engine.New(&engine.Config{Settings: &set})
			if err != nil {
				t.Fatal(err)
			}
			if err := eng.SetPosition(c.fen, strings.Fields(c.moves)...); err != nil {
				t.Fatal(err)
			}
			res, err := eng.Analyse(context.Background(), engine.Limits{Nodes: uint64(c.nodes)})
			if err != nil {
				t.Fatal(err)
			}

			if got := res.BestMove.UCI(false); got != best {
				t.Errorf("Analyse best move %s, UCI bestmove %s", got, best)
			}
			if got := uciText(res.PonderMove); got != ponder {
				t.Errorf("Analyse ponder move %q, UCI ponder %q", got, ponder)
			}
			if len(res.Lines) != len(last) {
				t.Fatalf("Analyse gave %d lines, UCI %d", len(res.Lines), len(last))
			}
			for _, l := range res.Lines {
				u := last[fmt.Sprint(l.MultiPV)]
				bound := ""
				switch {
				case l.LowerBound:
					bound = " lowerbound"
				case l.UpperBound:
					bound = " upperbound"
				}
				pv := make([]string, len(l.PV))
				for i, m := range l.PV {
					pv[i] = uciText(m)
				}
				got := fmt.Sprintf("depth %d score %s%s nodes %d pv %s", l.Depth, l.Score, bound, l.Nodes, strings.Join(pv, " "))
				want := fmt.Sprintf("depth %s score %s%s nodes %s pv %s", infoField(u, "depth"), infoField(u, "score"),
					boundOf(u), infoField(u, "nodes"), infoField(u, "pv"))
				if got != want {
					t.Errorf("line %d: Analyse %q\nUCI %q", l.MultiPV, got, want)
				}
			}
			if fmt.Sprint(res.Nodes) != infoField(last["1"], "nodes") {
				t.Errorf("Analyse searched %d nodes, UCI's last line says %s", res.Nodes, infoField(last["1"], "nodes"))
			}
			if boundOf(last["1"]) == "" && res.Score.String() != infoField(last["1"], "score") {
				t.Errorf("Analyse score %v, UCI's last exact line %s", res.Score, infoField(last["1"], "score"))
			}
		})
	}
}

// uciText writes a move as UCI does in standard chess, "" for NoMove.
func uciText(m movegen.Move) string {
	if m == movegen.NoMove {
		return ""
	}
	return m.UCI(false)
}

// boundOf returns " lowerbound", " upperbound" or "" for an info line.
func boundOf(line string) string {
	for _, b := range []string{"lowerbound", "upperbound"} {
		if strings.Contains(line, " "+b+" ") {
			return " " + b
		}
	}
	return ""
}
