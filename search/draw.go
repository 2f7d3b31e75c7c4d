package search

import (
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// Exact draws in reports. Inside the tree a drawn node scores drawScore, a
// point either side of 0, so that the search does not settle into
// repetitions blindly; a GUI or a bot that offers and accepts draws only at
// exactly 0 would read such a line as a small edge. The reported scores
// (Info.Score and Result.Score) are therefore made exact, while the search
// itself keeps its values:
//   - at a dead root (no mate by any sequence of moves) every line scores 0;
//   - at a root of KNN v K a line scores 0 unless the search found a mate
//     (the defender can always avoid one it is not already caught in);
//   - an exact line whose PV ends in such a position scores 0 the same way,
//     and so does one whose PV ends in a position the search scores as a
//     draw (a repetition, the 50-move rule, insufficient material) with the
//     draw score of a point either side of 0;
//   - at a root where the side to move may claim a draw (the 50-move rule
//     reached, or the position on the board for the third time), a line
//     scored 1 or less (a loss included, mate or not) scores 0: claiming is
//     worth 0, and a better line is reported as found.
//
// A root the tables cover (tb.go) reports their result first; these rules
// apply to it after.

// leafDraw is what kind of draw the end of a PV is.
type leafDraw uint8

const (
	leafNotDrawn     leafDraw = iota
	leafRuleDraw              // scored drawScore by the search
	leafNoForcedMate          // KNN v K
	leafDead                  // no mate by any sequence of moves
)

// deadMaterial tells whether neither side can mate by any sequence of legal
// moves on material alone: no pawns, rooks or queens, and either at most one
// minor piece or only bishops, all on squares of one colour.
func deadMaterial(pos *movegen.Position) bool {
	if pos.ByType(movegen.Pawn)|pos.ByType(movegen.Rook)|pos.ByType(movegen.Queen) != 0 {
		return false
	}
	knights, bishops := pos.ByType(movegen.Knight), pos.ByType(movegen.Bishop)
	if (knights | bishops).Count() <= 1 {
		return true
	}
	return knights == 0 && (bishops&movegen.DarkSquares == 0 || bishops&^movegen.DarkSquares == 0)
}

// twoKnightsVsKing tells whether the material is two knights of one side
// against the bare king: a mate is possible, but only with the defender's
// help unless it is already caught.
func twoKnightsVsKing(pos *movegen.Position) bool {
	knights := pos.ByType(movegen.Knight)
	if pos.Occupied().Count() != 4 || knights.Count() != 2 {
		return false
	}
	return knights&pos.ByColor(movegen.White) == 0 || knights&pos.ByColor(movegen.Black) == 0
}

// rootDraw is the kind of draw a root position is for the rules above
// (leafNotDrawn, leafDead or leafNoForcedMate), and whether the side to
// move, which has a legal move, may claim a draw: the 50-move rule is
// reached or the position stands for the third time.
func rootDraw(pos *movegen.Position) (kind leafDraw, claimable bool) {
	switch {
	case deadMaterial(pos):
		kind = leafDead
	case twoKnightsVsKing(pos):
		kind = leafNoForcedMate
	}
	return kind, pos.Rule50() >= rule50Plies || pos.RepetitionCount() >= 2
}

// pvLeafDraw plays pv from the root (w.pos stands at the root between
// iterations and after the search) and tells what kind of draw its last
// position is.
func (w *worker) pvLeafDraw(pv []movegen.Move) leafDraw {
	pos := w.pos
	for _, m := range pv {
		pos.Make(m)
	}
	kind := leafNotDrawn
	switch {
	case deadMaterial(pos):
		kind = leafDead
	case twoKnightsVsKing(pos):
		kind = leafNoForcedMate
	case pos.IsDrawnRepetition(len(pv)) || pos.InsufficientMaterial() ||
		(pos.Rule50() >= rule50Plies && (!pos.InCheck() || pos.HasLegalMove())):
		kind = leafRuleDraw
	}
	for range pv {
		pos.Unmake()
	}
	return kind
}

// exactDraw returns the score and bound reported for a root line scored
// score (a bound of kind bound) whose PV is pv, by the rules above.
func (w *worker) exactDraw(score int, bound Bound, pv []movegen.Move) (int, Bound) {
	p := w.pool
	kind := p.rootDraw
	if kind == leafNotDrawn && bound == Exact {
		kind = w.pvLeafDraw(pv)
	}
	switch kind {
	case leafDead:
		return 0, Exact
	case leafNoForcedMate:
		if !eval.IsMate(score) {
			return 0, bound
		}
	case leafRuleDraw:
		if score >= -1 && score <= 1 {
			return 0, Exact
		}
	}
	if p.rootClaimable && score <= 1 {
		if bound == Upper {
			bound = Exact // at most 1 by playing on, 0 by claiming
		}
		return 0, bound
	}
	return score, bound
}
