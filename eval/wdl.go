package eval

import (
	"math"

	"github.com/kingrook/kingrook/movegen"
)

// The win/draw/loss model: what a score means in games.
//
// A position with score s (the search's units, side to move's view) and
// material m (Material) is won by the side to move with probability
//
//	win(s, m)  = 1 / (1 + exp((a(m) - s) / b(m)))
//
// and lost with probability loss(s, m) = win(-s, m); the rest is drawn.
// a(m) is the score at which the side ahead wins half of its games, b(m)
// how fast that chance grows with the score. Both are cubic polynomials of
// x = m / WDLMaterialRef, m clamped to WDLMaterialMin..WDLMaterialMax:
//
//	a(m) = ((wdlA3*x + wdlA2)*x + wdlA1)*x + wdlA0, the same for b.
//
// The parameters were fitted by cmd/wdlfit to the results of kingrook-5's
// own games against the search scores of their positions (eval/nnue/README.md
// has the data, the command and how well it fits).
//
// NormalizeCP turns a score into reported centipawns: +100 is a(m), a 50%
// chance of winning. The search keeps its own units; only what is shown to
// the user (UCI "score cp", "wdl", the atlas) goes through the model.

// Material range and reference of the model. Below 6 (a rook and a pawn)
// what the pieces are matters more than their count, and the fit gains
// nothing; above 78 (the start) there are only a few promoted positions.
const (
	WDLMaterialMin = 6
	WDLMaterialMax = 78
	WDLMaterialRef = 58
)

// The fitted parameters (cmd/wdlfit on kingrook5-3001.bin.gz).
const (
	wdlA0 = 591.831
	wdlA1 = -1520.23
	wdlA2 = 1601.92
	wdlA3 = -564.754
	wdlB0 = 121.549
	wdlB1 = -125.437
	wdlB2 = 252.393
	wdlB3 = -114.394
)

// UnscaledScore: scores at or beyond it in absolute value are mates and
// tablebase results (the search scores a tablebase win found at ply p as
// MateInMaxPly-1-p); NormalizeCP and WDL take them as they are.
const UnscaledScore = MateInMaxPly - 1 - MaxPly

// Material returns the material count of the model: pawns 1, knights and
// bishops 3, rooks 5, queens 9, both sides together (78 at the start).
func Material(pos *movegen.Position) int {
	return pos.ByType(movegen.Pawn).Count() +
		3*(pos.ByType(movegen.Knight).Count()+pos.ByType(movegen.Bishop).Count()) +
		5*pos.ByType(movegen.Rook).Count() +
		9*pos.ByType(movegen.Queen).Count()
}

// WDLParams returns a(m) and b(m) of the model (material clamped to its
// range).
func WDLParams(material int) (a, b float64) {
	x := float64(max(WDLMaterialMin, min(WDLMaterialMax, material))) / WDLMaterialRef
	a = ((wdlA3*x+wdlA2)*x+wdlA1)*x + wdlA0
	b = ((wdlB3*x+wdlB2)*x+wdlB1)*x + wdlB0
	return a, b
}

// WinRate returns the model's probability that the side to move wins with
// score (not a mate or tablebase score) and material.
func WinRate(score, material int) float64 {
	a, b := WDLParams(material)
	return 1 / (1 + math.Exp((a-float64(score))/b))
}

// WDL returns the chances of a win, a draw and a loss per mille, side to
// move's view, of a position with this score and material. A mate or
// tablebase win (or loss) is a certain win (or loss). WDL(-s, m) is WDL(s, m)
// with win and loss swapped.
func WDL(score, material int) (w, d, l int) {
	switch {
	case score >= UnscaledScore:
		return 1000, 0, 0
	case score <= -UnscaledScore:
		return 0, 0, 1000
	}
	w = int(math.Round(1000 * WinRate(score, material)))
	l = int(math.Round(1000 * WinRate(-score, material)))
	return w, 1000 - w - l, l
}

// NormalizeCP returns score in reported centipawns for this material: 100
// times score / a(m), so that +100 is a 50% chance of winning for the side
// ahead. Mate and tablebase scores are returned as they are.
func NormalizeCP(score, material int) int {
	if score >= UnscaledScore || score <= -UnscaledScore {
		return score
	}
	a, _ := WDLParams(material)
	return int(math.Round(100 * float64(score) / a))
}
