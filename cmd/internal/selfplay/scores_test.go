package selfplay

import (
	"math"
	"testing"

	"github.com/kingrook/kingrook/eval"
)

// TestScores: NoScore fits a stored int16 and is no score the search can
// give, and IsMate reads the search's mate scores, but not NoScore, as mates.
func TestScores(t *testing.T) {
	if NoScore < math.MinInt16 || NoScore >= -eval.Infinite {
		t.Fatalf("NoScore %d: want an int16 below %d", NoScore, -eval.Infinite)
	}
	if IsMate(NoScore) {
		t.Error("NoScore reads as a mate")
	}
	for _, s := range []int{eval.MateIn(3), eval.MatedIn(4), eval.MateInMaxPly, -eval.MateInMaxPly} {
		if !IsMate(s) {
			t.Errorf("%d is not a mate", s)
		}
	}
	for _, s := range []int{0, eval.MateInMaxPly - 1, -(eval.MateInMaxPly - 1)} {
		if IsMate(s) {
			t.Errorf("%d reads as a mate", s)
		}
	}
}
