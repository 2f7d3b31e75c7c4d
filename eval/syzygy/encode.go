package syzygy

import (
	"encoding/binary"

	"github.com/kingrook/kingrook/movegen"
)

// lookup is the outcome of one table access.
type lookup uint8

const (
	found     lookup = iota
	missing          // no usable table for the position
	otherSide        // DTZ: the table holds the other side to move
)

// tableValue reads the raw value of pos from its WDL table (dtz false; the
// result is -2..2) or DTZ table (dtz true, given the position's WDL value;
// the result is the distance in plies before the +1 of the zeroing move).
// The position's castling rights and en passant square are ignored.
func (t *Tables) tableValue(pos *movegen.Position, dtz bool, wdl int) (int, lookup) {
	key := positionKey(pos)
	if dtz == false && key == 0 {
		return 0, found // KvK
	}
	e := t.entries[key]
	if e == nil {
		return 0, missing
	}
	var d *tableData
	if dtz {
		d = t.load(&e.dtz, e, true)
	} else {
		d = t.load(&e.wdl, e, false)
	}
	if d == nil {
		return 0, missing
	}

	// Look the position up with the table's colours: flip colours and
	// ranks when black holds the table's "white" pieces, and for symmetric
	// material when black is to move.
	stm := pos.SideToMove()
	flip := key != e.key
	if e.symmetric {
		flip = stm == movegen.Black
	}
	var colFlip movegen.Piece
	sqFlip := 0
	side := int(stm)
	if flip {
		colFlip, sqFlip, side = 8, 56, side^1
	}

	var sq [MaxPieces]int
	n := 0
	f := 0
	if e.hasPawns {
		// The leading pawns decide the sub-table: the one nearest the
		// edge file, lowest on it, is the leader.
		lead := d.p[0][0].pieces[0] ^ colFlip
		for b := pos.Pieces(lead.Color(), movegen.Pawn); b != 0; {
			sq[n] = int(b.PopLSB()) ^ sqFlip
			n++
		}
		for i := 1; i < n; i++ {
			if pawnRank[sq[i]] > pawnRank[sq[0]] {
				sq[0], sq[i] = sq[i], sq[0]
			}
		}
		f = min(sq[0]&7, 7-sq[0]&7)
	}
	tside := side
	if d.sides == 1 {
		tside = 0
	}
	p := &d.p[tside][f]
	if dtz && int(p.flags&flagSTM) != side && !e.symmetric {
		return 0, otherSide
	}
	for n < e.num {
		pc := p.pieces[n] ^ colFlip
		b := pos.Pieces(pc.Color(), pc.Type())
		if b == 0 {
			return 0, missing
		}
		for ; b != 0; n++ {
			if n >= e.num {
				return 0, missing
			}
			sq[n] = int(b.PopLSB()) ^ sqFlip
		}
	}
	idx, ok := p.index(e, &sq)
	if !ok {
		return 0, missing
	}
	v, ok := p.value(d.src, idx)
	if !ok {
		return 0, missing
	}
	if !dtz {
		return v - 2, found
	}
	return d.dtzValue(p, v, wdl)
}

// dtzValue maps a raw DTZ value through the table's map and into plies.
func (d *tableData) dtzValue(p *pairs, v, wdl int) (int, lookup) {
	if p.flags&flagMapped != 0 {
		// Maps in the file order: win, loss, cursed win, blessed loss.
		i := p.mapStart[[5]int{1, 3, 0, 2, 0}[wdl+2]]
		if p.flags&flagWide != 0 {
			i += 2 * v
			if i+2 > len(d.dmap) {
				return 0, missing
			}
			v = int(binary.LittleEndian.Uint16(d.dmap[i:]))
		} else {
			i += v
			if i >= len(d.dmap) {
				return 0, missing
			}
			v = int(d.dmap[i])
		}
	}
	plies := (wdl == 2 && p.flags&flagWinPlies != 0) || (wdl == -2 && p.flags&flagLossPlies != 0)
	if !plies {
		v *= 2
	}
	return v, found
}

// index computes the position's index in the sub-table from the squares of
// its pieces in the sub-table's piece order (the leader first for pawns).
func (p *pairs) index(e *entry, sq *[MaxPieces]int) (uint64, bool) {
	n := e.num
	// Mirror so the leading piece is on files a-d.
	if sq[0]&7 > 3 {
		for i := 0; i < n; i++ {
			sq[i] ^= 7
		}
	}
	var idx uint64
	if e.hasPawns {
		lead := e.pawns[0]
		idx = leadPawnIdx[lead][sq[0]]
		sortBy(sq[1:lead], func(s int) int { return pawnRank[s] })
		for i := 1; i < lead; i++ {
			idx += binomial[i][pawnRank[sq[i]]]
		}
	} else {
		// Without pawns, also mirror to ranks 1-4 and, by the first piece
		// of the leading group off the a1-h8 diagonal, below it.
		if sq[0]>>3 > 3 {
			for i := 0; i < n; i++ {
				sq[i] ^= 56
			}
		}
		for i := 0; i < p.groupLen[0]; i++ {
			if d := diag(sq[i]); d != 0 {
				if d > 0 {
					for j := i; j < n; j++ {
						sq[j] = (sq[j]>>3 | sq[j]<<3) & 63
					}
				}
				break
			}
		}
		if e.kkEnc {
			t := triangle[sq[0]]
			if t < 0 || kingPair[t][sq[1]] < 0 {
				return 0, false
			}
			idx = uint64(kingPair[t][sq[1]])
		} else {
			v, ok := uniqueIndex(sq[0], sq[1], sq[2])
			if !ok {
				return 0, false
			}
			idx = v
		}
	}
	idx *= p.groupIdx[0]

	// The other groups: each a combination of squares, not counting the
	// squares the earlier groups hold (and for the other colour's pawns,
	// not the first rank).
	start := p.groupLen[0]
	pawnGroup := e.hasPawns && e.pawns[1] > 0
	for g := 1; p.groupLen[g] != 0; g++ {
		grp := sq[start : start+p.groupLen[g]]
		sortBy(grp, func(s int) int { return s })
		var c uint64
		for i, s := range grp {
			skip := 0
			for _, t := range sq[:start] {
				if s > t {
					skip++
				}
			}
			v := s - skip
			if pawnGroup {
				v -= 8
			}
			if v < 0 {
				return 0, false
			}
			c += binomial[i+1][v]
		}
		pawnGroup = false
		idx += c * p.groupIdx[g]
		start += p.groupLen[g]
	}
	return idx, true
}

// uniqueIndex numbers three unique pieces (the two kings and one more, in
// table order) after the symmetry reduction: 31332 placements.
func uniqueIndex(s0, s1, s2 int) (uint64, bool) {
	adj1, adj2 := 0, 0
	if s1 > s0 {
		adj1 = 1
	}
	if s2 > s0 {
		adj2++
	}
	if s2 > s1 {
		adj2++
	}
	var idx int
	switch {
	case diag(s0) != 0:
		if triangle[s0] < 0 || triangle[s0] > 5 {
			return 0, false
		}
		idx = (triangle[s0]*63+s1-adj1)*62 + s2 - adj2
	case diag(s1) != 0:
		if belowDiag[s1] < 0 {
			return 0, false
		}
		idx = (6*63+(s0>>3)*28+belowDiag[s1])*62 + s2 - adj2
	case diag(s2) != 0:
		if belowDiag[s2] < 0 {
			return 0, false
		}
		idx = 6*63*62 + 4*28*62 + (s0>>3)*7*28 + (s1>>3-adj1)*28 + belowDiag[s2]
	default:
		idx = 6*63*62 + 4*28*62 + 4*7*28 + (s0>>3)*7*6 + (s1>>3-adj1)*6 + s2>>3 - adj2
	}
	return uint64(idx), true
}

// sortBy sorts a few squares by ascending key (insertion sort: at most six).
func sortBy(s []int, key func(int) int) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && key(s[j]) < key(s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
