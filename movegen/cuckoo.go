package movegen

// Upcoming repetitions, after Marcel van Kervinck's "The design of a cuckoo
// table for repetition detection" (2013): the key difference that one
// reversible move makes (a knight, bishop, rook, queen or king of either
// colour going from one square to another, and the side to move changing)
// is one of 3668 values, kept in a cuckoo hash table. A position whose key
// differs by one such value from that of a position an odd number of plies
// earlier, with the squares between that move's ends empty, can return to
// that earlier position in one move.

// cuckooSize is the number of slots of the cuckoo table, a power of two.
const cuckooSize = 1 << 13

// cuckooMoves is the number of reversible piece moves the table holds; its
// init checks the count.
const cuckooMoves = 3668

// cuckooTable is the table of reversible moves by their key difference.
type cuckooTable struct {
	keys  [cuckooSize]uint64
	moves [cuckooSize]Move // the move of keys[i], from the lower square to the higher
}

// cuckoo is built from the Zobrist keys by their init (zobrist.go), which
// runs after the attack tables' (bitboard.go), and never changes after.
var cuckoo cuckooTable

func cuckooH1(k uint64) int { return int(k & (cuckooSize - 1)) }
func cuckooH2(k uint64) int { return int(k >> 16 & (cuckooSize - 1)) }

// buildCuckoo fills the cuckoo table.
func buildCuckoo() {
	n := 0
	for c := White; c <= Black; c++ {
		for pt := Knight; pt <= King; pt++ {
			pc := MakePiece(c, pt)
			for s1 := Square(0); s1 < 64; s1++ {
				for s2 := s1 + 1; s2 < 64; s2++ {
					if Attacks(pt, s1, 0)&SquareBB(s2) == 0 {
						continue
					}
					cuckoo.insert(zobristPiece[pc][s1]^zobristPiece[pc][s2]^zobristSide, NewMove(s1, s2))
					n++
				}
			}
		}
	}
	if n != cuckooMoves {
		panic("movegen: cuckoo table built from the wrong number of moves")
	}
}

// insert places key and move in the table, displacing residents to their
// other slot until one lands in an empty slot.
func (t *cuckooTable) insert(key uint64, m Move) {
	i := cuckooH1(key)
	for {
		t.keys[i], key = key, t.keys[i]
		t.moves[i], m = m, t.moves[i]
		if m == NoMove {
			return
		}
		if i == cuckooH1(key) {
			i = cuckooH2(key)
		} else {
			i = cuckooH1(key)
		}
	}
}

// lookup returns the reversible move whose key difference is diff.
func (t *cuckooTable) lookup(diff uint64) (Move, bool) {
	if diff == 0 {
		return NoMove, false // an empty slot's key
	}
	if i := cuckooH1(diff); t.keys[i] == diff {
		return t.moves[i], true
	}
	if i := cuckooH2(diff); t.keys[i] == diff {
		return t.moves[i], true
	}
	return NoMove, false
}

// HasUpcomingRepetition tells whether the side to move has a move that
// repeats a position of the search ply plies below the root (the current
// position being at ply): one reversible move, whose path is clear, turns
// this position into one an odd number of plies back within the reach of the
// half-move clock and past the root. A search can score such a node at
// least a draw before it searches any move. Positions at or before the root
// are not counted: repeating one of them once is not yet a draw
// (IsDrawnRepetition). The move is not checked for legality, as in the
// engines that use the method: a pinned piece's move can count. The piece
// must be the side to move's.
func (p *Position) HasUpcomingRepetition(ply int) bool {
	end := min(p.rule50, p.sinceNull, ply-1)
	n := len(p.keys)
	for i := 3; i <= end; i += 2 {
		m, ok := cuckoo.lookup(p.key ^ p.keys[n-i])
		if !ok {
			continue
		}
		if Between(m.From(), m.To())&p.Occupied() != 0 {
			continue
		}
		// The table holds each move one way; the piece stands on one end.
		pc := p.board[m.From()]
		if pc == NoPiece {
			pc = p.board[m.To()]
		}
		if pc.Color() == p.side {
			return true
		}
	}
	return false
}
