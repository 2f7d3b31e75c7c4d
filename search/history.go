package search

import (
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// Move-ordering statistics, one set per worker, kept between searches of a
// game and cleared by NewGame.

// pieceToHistory is indexed by [piece][to square].
type pieceToHistory [16][64]int16

type histories struct {
	butterfly [2][2][2][64][64]int16    // [color][from attacked][to attacked][from][to], quiet moves
	corr      [2][corrSize]int16        // [color][pawn key % corrSize]: static eval correction
	capture   [16][64][8]int16          // [piece][to][captured type]
	counter   [16][64]movegen.Move      // [piece][to] of the previous move
	cont      [2][16][64]pieceToHistory // [capture?][prev piece][prev to][piece][to]
}

func (h *histories) clear() { *h = histories{} }

// quietEntry is the butterfly entry of the quiet move m of side us, with
// the opponent attacking the squares att.
func (h *histories) quietEntry(us movegen.Color, att movegen.Bitboard, m movegen.Move) *int16 {
	from, to := m.From(), m.To()
	return &h.butterfly[us][boolToInt(att.Has(from))][boolToInt(att.Has(to))][from][to]
}

// gravity updates a history entry towards bonus, saturating at historyMax.
func gravity(v *int16, bonus int) {
	bonus = max(-historyMax, min(historyMax, bonus))
	*v += int16(bonus - int(*v)*eval.Abs(bonus)/historyMax)
}

func historyBonus(depth int) int {
	return min(historyBonusMax, historyBonusMul*depth-historyBonusSub)
}

// updateQuietStats rewards a quiet move that caused a cutoff and punishes
// the quiet moves tried before it.
func (w *worker) updateQuietStats(ply int, best movegen.Move, tried []movegen.Move, bonus int) {
	f := &w.stack[ply+stackOffset]
	if f.killers[0] != best {
		f.killers[1] = f.killers[0]
		f.killers[0] = best
	}
	if prev := &w.stack[ply+stackOffset-1]; prev.move != movegen.NoMove && prev.move != movegen.NullMove {
		w.hist.counter[prev.piece][prev.move.To()] = best
	}
	w.updateQuietHistory(ply, best, bonus)
	for _, m := range tried {
		w.updateQuietHistory(ply, m, -bonus)
	}
}

func (w *worker) updateQuietHistory(ply int, m movegen.Move, bonus int) {
	pos := w.pos
	us := pos.SideToMove()
	pc := pos.PieceOn(m.From())
	to := m.To()
	gravity(w.hist.quietEntry(us, w.stack[ply+stackOffset].threats, m), bonus)
	for _, back := range contHistoryPlies {
		prev := &w.stack[ply+stackOffset-back]
		if prev.move == movegen.NoMove || prev.move == movegen.NullMove {
			if back == 1 {
				continue
			}
			break
		}
		gravity(&prev.cont[pc][to], bonus)
	}
}

// correction is the correction history's adjustment of the static
// evaluation raw of the position on the board.
func (w *worker) correction(raw int) int {
	pos := w.pos
	c := int(w.hist.corr[pos.SideToMove()][pos.PawnKey()%corrSize]) / corrGrain
	return max(-corrEvalLimit, min(corrEvalLimit, raw+c))
}

// updateCorrection moves the correction of the position on the board
// towards diff, the search's score less the raw static evaluation, by a
// weight that grows with the depth.
func (w *worker) updateCorrection(depth, diff int) {
	pos := w.pos
	e := &w.hist.corr[pos.SideToMove()][pos.PawnKey()%corrSize]
	wt := min(depth+1, corrMaxWeight)
	target := max(-corrMax, min(corrMax, diff*corrGrain))
	*e = int16(max(-corrMax, min(corrMax, (int(*e)*(corrWeightDen-wt)+target*wt)/corrWeightDen)))
}

func (w *worker) updateCaptureHistory(m movegen.Move, bonus int) {
	pos := w.pos
	gravity(&w.hist.capture[pos.PieceOn(m.From())][m.To()][pos.CapturedType(m)], bonus)
}
