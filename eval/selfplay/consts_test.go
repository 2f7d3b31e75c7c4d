package selfplay_test

import (
	"testing"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/selfplay"
)

// TestScoresMatchEval: the format stores the search's scores as they are,
// so its mate constants must be the eval package's.
func TestScoresMatchEval(t *testing.T) {
	if selfplay.Mate != eval.Mate || selfplay.MateBound != eval.MateInMaxPly {
		t.Fatalf("selfplay Mate %d MateBound %d, eval Mate %d MateInMaxPly %d",
			selfplay.Mate, selfplay.MateBound, eval.Mate, eval.MateInMaxPly)
	}
	if selfplay.NoScore >= -eval.Infinite {
		t.Fatalf("NoScore %d is a score the search can give", selfplay.NoScore)
	}
	for _, s := range []int{eval.MateIn(3), eval.MatedIn(4), eval.MateInMaxPly} {
		if !selfplay.IsMate(s) {
			t.Errorf("%d is not a mate for selfplay", s)
		}
	}
}
