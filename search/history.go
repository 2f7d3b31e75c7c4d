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
	npCorr    [2][2][corrSize]int16     // [side to move][color][that colour's non-pawn key % corrSize]
	contCorr  [16][64]pieceToHistory    // [piece][to] of the move two or three plies back, [piece][to] of the last
	capture   [16][64][8][2]int16       // [piece][to][captured type][to defended]
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
func gravity(v *int16, bonus int) { gravityWithin(v, bonus, historyMax) }

// gravityWithin moves an entry by bonus (held within ±limit), the less the
// nearer the entry already lies to the limit on that side: entries stay
// within ±limit.
func gravityWithin(v *int16, bonus, limit int) {
	bonus = max(-limit, min(limit, bonus))
	*v += int16(bonus - int(*v)*eval.Abs(bonus)/limit)
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
	gravity(w.hist.quietEntry(pos.SideToMove(), w.stack[ply+stackOffset].threats, m), bonus)
	w.updateContHistory(ply, pos.PieceOn(m.From()), m.To(), bonus)
}

// updateContHistory moves the continuation histories of a move of piece pc
// to to, made at ply, by bonus.
func (w *worker) updateContHistory(ply int, pc movegen.Piece, to movegen.Square, bonus int) {
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

// The correction histories estimate how far the search's scores lie from
// the static evaluation, from features the evaluation may misjudge: the pawn
// structure, each side's pieces other than pawns, and the last move after
// the one two and three plies back. Entries hold centipawns times
// corrGrain; correction weighs them (corrPawnWeight ...) and adds them.

// nonPawnKey hashes the bitboards of colour c's knights, bishops, rooks,
// queens and king: a key of that side's piece placement.
func nonPawnKey(pos *movegen.Position, c movegen.Color) uint64 {
	h := uint64(c+1) * 0x9e3779b97f4a7c15
	for pt := movegen.Knight; pt <= movegen.King; pt++ {
		h = (h ^ uint64(pos.Pieces(c, pt))) * 0xff51afd7ed558ccd
		h ^= h >> 32
	}
	return h
}

// corrEntries returns the correction entries of the position on the board
// at ply: pawn, White's and Black's non-pawn pieces, and the continuation
// entries of the last move after the moves two and three plies back (nil
// when those moves are unknown).
func (w *worker) corrEntries(ply int) (pawn, npW, npB, cont2, cont3 *int16) {
	pos := w.pos
	us := pos.SideToMove()
	pawn = &w.hist.corr[us][pos.PawnKey()%corrSize]
	npW = &w.hist.npCorr[us][movegen.White][nonPawnKey(pos, movegen.White)%corrSize]
	npB = &w.hist.npCorr[us][movegen.Black][nonPawnKey(pos, movegen.Black)%corrSize]
	last := &w.stack[ply+stackOffset-1]
	if last.move != movegen.NoMove && last.move != movegen.NullMove {
		if f := &w.stack[ply+stackOffset-2]; f.contCorr != nil {
			cont2 = &f.contCorr[last.piece][last.move.To()]
		}
		if f := &w.stack[ply+stackOffset-3]; f.contCorr != nil {
			cont3 = &f.contCorr[last.piece][last.move.To()]
		}
	}
	return pawn, npW, npB, cont2, cont3
}

// correction is the correction histories' adjustment of the static
// evaluation raw of the position on the board at ply.
func (w *worker) correction(raw, ply int) int {
	pawn, npW, npB, cont2, cont3 := w.corrEntries(ply)
	sum := corrPawnWeight*int(*pawn) + corrNonPawnWeight*(int(*npW)+int(*npB))
	if cont2 != nil {
		sum += corrCont2Weight * int(*cont2)
	}
	if cont3 != nil {
		sum += corrCont3Weight * int(*cont3)
	}
	return max(-corrEvalLimit, min(corrEvalLimit, raw+sum/(corrGrain*corrWeightDen)))
}

// updateCorrection moves the correction entries of the position on the
// board at ply towards diff, the search's score less the corrected static
// evaluation, by a step that grows with the depth (gravity: an entry near
// its limit moves less).
func (w *worker) updateCorrection(ply, depth, diff int) {
	bonus := max(-corrMaxBonus, min(corrMaxBonus, diff*corrGrain*depth/corrDepthDiv))
	pawn, npW, npB, cont2, cont3 := w.corrEntries(ply)
	for _, e := range [...]*int16{pawn, npW, npB, cont2, cont3} {
		if e != nil {
			gravityWithin(e, bonus, corrMax)
		}
	}
}

// captureEntry is the capture-history entry of the noisy move m, with the
// opponent attacking the squares att.
func (h *histories) captureEntry(pos *movegen.Position, att movegen.Bitboard, m movegen.Move) *int16 {
	to := m.To()
	return &h.capture[pos.PieceOn(m.From())][to][pos.CapturedType(m)][boolToInt(att.Has(to))]
}

// updateCaptureHistory moves the capture history of the noisy move m, made
// at ply, by bonus.
func (w *worker) updateCaptureHistory(ply int, m movegen.Move, bonus int) {
	gravity(w.hist.captureEntry(w.pos, w.stack[ply+stackOffset].threats, m), bonus)
}
