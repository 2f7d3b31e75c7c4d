package search

import (
	"testing"

	"github.com/kingrook/kingrook/eval"
)

// TestInfoWDL: every report carries the root's material and the
// win/draw/loss of eval's model for its score.
func TestInfoWDL(t *testing.T) {
	for _, fen := range []string{
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/5k2/8/3K4/8/8/1P6/8 w - - 0 1",       // below the model's material range
		"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", // mate in 1
	} {
		_, infos := run(t, fen, Limits{Depth: 6}, Options{})
		want := eval.Material(mustPos(t, fen))
		for _, in := range infos {
			w, d, l := eval.WDL(in.Score, want)
			if in.Material != want || in.WDL != [3]int{w, d, l} {
				t.Fatalf("%s: info score %d material %d wdl %v, want material %d wdl %d %d %d",
					fen, in.Score, in.Material, in.WDL, want, w, d, l)
			}
		}
		if last := infos[len(infos)-1]; eval.IsMate(last.Score) && last.WDL != [3]int{1000, 0, 0} {
			t.Errorf("%s: mate score %d with wdl %v", fen, last.Score, last.WDL)
		}
	}
}

// TestTablebaseScoresUnscaled: every tablebase score the search gives is
// one that eval.NormalizeCP and eval.WDL leave as a certain result.
func TestTablebaseScoresUnscaled(t *testing.T) {
	if tbWin-eval.MaxPly < eval.UnscaledScore || tbWin >= eval.MateInMaxPly {
		t.Fatalf("tablebase wins %d..%d, unscaled from %d, mates from %d", tbWin-eval.MaxPly, tbWin, eval.UnscaledScore, eval.MateInMaxPly)
	}
}
