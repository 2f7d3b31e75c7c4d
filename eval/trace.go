package eval

import (
	"fmt"
	"strings"

	"github.com/kingrook/kingrook/movegen"
)

// Trace returns a human-readable breakdown of Evaluate(pos): every group of
// terms with its middlegame and endgame sums for white and black, then the
// phase, the endgame scale factor, the 50-move fade and the final score
// (for the UCI "eval" command). Its final number equals Evaluate(pos).
func Trace(pos *movegen.Position) string {
	return traceText(pos, defaultWeights)
}

// Trace is Trace with the Evaluator's weights.
func (e *Evaluator) Trace(pos *movegen.Position) string {
	return traceText(pos, e.w)
}

func traceText(pos *movegen.Position, w *weights) string {
	var tr tracer
	v := evaluate(pos, w, nil, &tr)
	var sb strings.Builder
	if tr.drawn {
		sb.WriteString("Insufficient material: a dead draw.\n")
		fmt.Fprintf(&sb, "Final evaluation: %d (side to move)\n", v)
		return sb.String()
	}
	fmt.Fprintf(&sb, "%-22s |     White     |     Black     |     Total\n", "Term")
	fmt.Fprintf(&sb, "%-22s |   MG      EG  |   MG      EG  |   MG      EG\n", "")
	sb.WriteString(strings.Repeat("-", 22) + "-+---------------+---------------+--------------\n")
	var sum [2]Pair
	for _, g := range TermGroups() {
		var side [2]Pair
		for i := g.Start; i < g.Start+g.Len; i++ {
			for c := 0; c < 2; c++ {
				n := int(tr.coef[i][c])
				side[c].MG += n * w[i].mg()
				side[c].EG += n * w[i].eg()
			}
		}
		if side[0] == (Pair{}) && side[1] == (Pair{}) {
			continue
		}
		for c := range sum {
			sum[c].MG += side[c].MG
			sum[c].EG += side[c].EG
		}
		fmt.Fprintf(&sb, "%-22s | %5d   %5d | %5d   %5d | %5d   %5d\n", g.Name,
			side[0].MG, side[0].EG, side[1].MG, side[1].EG,
			side[0].MG-side[1].MG, side[0].EG-side[1].EG)
	}
	sb.WriteString(strings.Repeat("-", 22) + "-+---------------+---------------+--------------\n")
	fmt.Fprintf(&sb, "%-22s | %5d   %5d | %5d   %5d | %5d   %5d\n", "Total",
		sum[0].MG, sum[0].EG, sum[1].MG, sum[1].EG, sum[0].MG-sum[1].MG, sum[0].EG-sum[1].EG)
	fmt.Fprintf(&sb, "\nPhase %d/%d (middlegame share), endgame scale %d/%d, 50-move fade %d/%d\n",
		tr.phase, PhaseMax, tr.scale, ScaleNormal, FadeBase-tr.rule50, FadeBase)
	fmt.Fprintf(&sb, "Blended (white's view): %d\n", tr.white)
	fmt.Fprintf(&sb, "Final evaluation: %d (side to move)\n", v)
	return sb.String()
}

// Feature is one non-zero coefficient of an evaluation's linear form: how
// many more times term Index counted for white than for black.
type Feature struct {
	Index int32
	Count int32
}

// Features is the linear form of one evaluation, for tuning. With weights
// p, the middlegame sum is Σ Count·p[Index].MG over Terms (the endgame sum
// likewise), and the score from white's view is
//
//	(mg·Phase + eg·(PhaseMax-Phase)·Scale/ScaleNormal) / PhaseMax · (FadeBase-Rule50)/FadeBase
//
// up to integer rounding. Scale is the one chosen with the Evaluator's
// weights and held fixed. Drawn positions evaluate to 0 whatever the
// weights.
type Features struct {
	Terms  []Feature
	Phase  int
	Scale  int
	Rule50 int
	Drawn  bool
	White  int // the evaluation from white's view with the Evaluator's weights
}

// Features extracts the linear form of the evaluation of pos, appending
// its terms to dst[:0].
func (e *Evaluator) Features(pos *movegen.Position, dst []Feature) Features {
	if e.tr == nil {
		e.tr = new(tracer)
	}
	tr := e.tr
	*tr = tracer{}
	evaluate(pos, e.w, nil, tr)
	f := Features{Terms: dst[:0], Phase: tr.phase, Scale: tr.scale, Rule50: tr.rule50, Drawn: tr.drawn, White: tr.white}
	if tr.drawn {
		return f
	}
	for i := range tr.coef {
		if n := tr.coef[i][white] - tr.coef[i][black]; n != 0 {
			f.Terms = append(f.Terms, Feature{Index: int32(i), Count: n})
		}
	}
	return f
}
