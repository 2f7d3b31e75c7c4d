package syzygy

import (
	"math"

	"github.com/kingrook/kingrook/movegen"
)

// A table may store any value not above the truth for a position whose best
// move is a capture (a "don't care" that compresses better), and knows
// nothing of en passant. So a probe resolves captures first: the value of a
// position is the best of its table value and its captures' values. DTZ
// tables also leave out positions whose best move zeroes the counter.

// Probable tells whether pos can be probed at all: at most MaxPieces pieces
// (and no more than the set's largest table) and no castling rights.
func (t *Tables) Probable(pos *movegen.Position) bool {
	return t != nil && pos.CastlingRights() == 0 && pos.Occupied().Count() <= t.maxPieces
}

// ProbeWDL returns the tablebase value of pos for the side to move, with
// the 50-move rule counted from a zeroed clock (a CursedWin is a win only
// without the rule). It is false when no table covers the position. It
// makes and unmakes moves on pos, which is as it was when it returns.
func (t *Tables) ProbeWDL(pos *movegen.Position) (WDL, bool) {
	if !t.Probable(pos) {
		return Draw, false
	}
	v, _, ok := t.wdl(pos)
	return WDL(v), ok
}

// ProbeDTZ returns the distance to zeroing of pos in plies, with Fathom's
// and Stockfish's conventions: positive when the side to move wins, negative
// when it loses, 0 for a draw; 1..100 (or -1..-100) when the win (loss)
// stands under the 50-move rule from a zeroed clock, beyond 100 when the
// rule draws it (a cursed win, a blessed loss). A mated side gets -1. As
// the tables store it, the value can be one ply off for positions after a
// non-zeroing move (a losing side with a move left can get -1, as Fathom
// gives too). It is false when a needed table is missing.
func (t *Tables) ProbeDTZ(pos *movegen.Position) (int, bool) {
	if !t.Probable(pos) {
		return 0, false
	}
	return t.dtz(pos)
}

// isCapture tells whether m (legal in pos) takes a piece.
func isCapture(pos *movegen.Position, m movegen.Move) bool {
	return m.Kind() == movegen.EnPassant ||
		(!m.IsCastling() && pos.PieceOn(m.To()) != movegen.NoPiece)
}

// wdl resolves the captures of pos, en passant included, and probes its
// table. zeroing is true when the best move is a capture that the DTZ
// table cannot be trusted for: a winning (or cursed winning) capture, or an
// en passant capture better than everything else.
func (t *Tables) wdl(pos *movegen.Position) (v int, zeroing, ok bool) {
	var list movegen.MoveList
	pos.GenerateLegal(&list)
	bestCap, bestEp := -3, -3
	onlyEp := list.N > 0
	for i := 0; i < list.N; i++ {
		m := list.At(i)
		if !isCapture(pos, m) {
			onlyEp = false
			continue
		}
		ep := m.Kind() == movegen.EnPassant
		if !ep {
			onlyEp = false
		}
		pos.Make(m)
		v, ok := t.captures(pos, -2, -bestCap)
		pos.Unmake()
		if !ok {
			return 0, false, false
		}
		v = -v
		if v > bestCap {
			if v == 2 {
				return 2, true, true
			}
			if !ep {
				bestCap = v
			} else if v > bestEp {
				bestEp = v
			}
		}
	}
	v, res := t.tableValue(pos, false, 0)
	if res != found {
		return 0, false, false
	}
	// max(v, bestCap) is the value without the right to take en passant.
	if bestEp > bestCap {
		if bestEp > v {
			return bestEp, true, true
		}
		bestCap = bestEp
	}
	if bestCap >= v {
		return bestCap, bestCap > 0, true
	}
	// Without its en passant captures the position would be stalemate,
	// which is what the table says.
	if bestEp > -3 && v == 0 && onlyEp && !pos.InCheck() {
		return bestEp, true, true
	}
	return v, false, true
}

// captures is an alpha-beta search over captures only, ending in table
// probes: the WDL value of pos within (alpha, beta). pos has no en passant
// square (it follows a capture).
func (t *Tables) captures(pos *movegen.Position, alpha, beta int) (int, bool) {
	var list movegen.MoveList
	pos.GenerateNoisy(&list)
	for i := 0; i < list.N; i++ {
		m := list.At(i)
		if !isCapture(pos, m) {
			continue
		}
		pos.Make(m)
		v, ok := t.captures(pos, -beta, -alpha)
		pos.Unmake()
		if !ok {
			return 0, false
		}
		if v = -v; v > alpha {
			if v >= beta {
				return v, true
			}
			alpha = v
		}
	}
	v, res := t.tableValue(pos, false, 0)
	if res != found {
		return 0, false
	}
	return max(alpha, v), true
}

// wdlToDTZ is the DTZ of a position whose best move zeroes the counter.
var wdlToDTZ = [5]int{-1, -101, 0, 101, 1}

// dtz is ProbeDTZ without the checks of the position.
func (t *Tables) dtz(pos *movegen.Position) (int, bool) {
	wdl, zeroing, ok := t.wdl(pos)
	if !ok {
		return 0, false
	}
	if wdl == 0 {
		return 0, true
	}
	if zeroing {
		return wdlToDTZ[wdl+2], true
	}
	var list movegen.MoveList
	pos.GenerateLegal(&list)
	// A pawn move that keeps the win zeroes the counter at once.
	if wdl > 0 {
		for i := 0; i < list.N; i++ {
			m := list.At(i)
			if pos.PieceOn(m.From()).Type() != movegen.Pawn || isCapture(pos, m) {
				continue
			}
			pos.Make(m)
			v, _, ok := t.wdl(pos)
			pos.Unmake()
			if !ok {
				return 0, false
			}
			if -v == wdl {
				return wdlToDTZ[wdl+2], true
			}
		}
	}
	d, res := t.tableValue(pos, true, wdl)
	switch res {
	case missing:
		return 0, false
	case found:
		if wdl > 0 {
			return wdlToDTZ[wdl+2] + d, true
		}
		return wdlToDTZ[wdl+2] - d, true
	}

	// The table holds the other side to move: search one ply. Zeroing
	// moves need no look: a winning one was found above, and a losing one
	// is worth wdlToDTZ, the start of best.
	best := math.MaxInt
	if wdl < 0 {
		best = wdlToDTZ[wdl+2]
	}
	for i := 0; i < list.N; i++ {
		m := list.At(i)
		if isCapture(pos, m) || pos.PieceOn(m.From()).Type() == movegen.Pawn {
			continue
		}
		pos.Make(m)
		v, ok := t.dtz(pos)
		mate := ok && v == -1 && pos.InCheck() && !pos.HasLegalMove()
		pos.Unmake()
		if !ok {
			return 0, false
		}
		v = -v
		switch {
		case mate:
			best = 1
		case wdl > 0:
			if v > 0 && v+1 < best {
				best = v + 1
			}
		default:
			if v-1 < best {
				best = v - 1
			}
		}
	}
	return best, true
}
