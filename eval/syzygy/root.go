package syzygy

import "github.com/kingrook/kingrook/movegen"

// MoveResult is the tablebase value of one root move from the mover's view:
// DTZ counts plies from the root position (a zeroing move counts 1 or 101),
// and WDL classifies it with the root's half-move clock.
type MoveResult struct {
	Move movegen.Move
	WDL  WDL
	DTZ  int
}

// RootResult is the tablebase value of a position and of its legal moves.
type RootResult struct {
	WDL   WDL // from the side to move's view, with the position's clock
	DTZ   int // ProbeDTZ of the position; 0 when mated or stalemated
	Mated bool
	Moves []MoveResult // in generation order
}

// ProbeRoot probes pos and every legal move of it as Fathom's root probe
// does: a move that mates scores 1 when the root wins, a zeroing move the
// WDL value after it (as 1, 101, 0, -101 or -1), any other move one ply
// more than the DTZ after it. It is false when a needed table is missing.
func (t *Tables) ProbeRoot(pos *movegen.Position) (RootResult, bool) {
	var r RootResult
	if !t.Probable(pos) {
		return r, false
	}
	dtz, ok := t.dtz(pos)
	if !ok {
		return r, false
	}
	rule50 := pos.Rule50()
	var list movegen.MoveList
	pos.GenerateLegal(&list)
	if list.N == 0 {
		r.Mated = pos.InCheck()
		if r.Mated {
			r.WDL = Loss
		}
		return r, true
	}
	r.DTZ = dtz
	r.WDL = WDLFromDTZ(dtz, rule50)
	r.Moves = make([]MoveResult, 0, list.N)
	for i := 0; i < list.N; i++ {
		m := list.At(i)
		pos.Make(m)
		var v int
		switch {
		case dtz > 0 && pos.InCheck() && !pos.HasLegalMove():
			v = 1
		case pos.Rule50() != 0:
			v, ok = t.dtz(pos)
			v = -v
			if v > 0 {
				v++
			} else if v < 0 {
				v--
			}
		default:
			var w int
			w, _, ok = t.wdl(pos)
			v = wdlToDTZ[-w+2]
		}
		pos.Unmake()
		if !ok {
			return RootResult{}, false
		}
		r.Moves = append(r.Moves, MoveResult{Move: m, WDL: WDLFromDTZ(v, rule50), DTZ: v})
	}
	return r, true
}
