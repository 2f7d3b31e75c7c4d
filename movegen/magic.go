package movegen

// Fancy magic bitboards for sliders. The magic numbers below were found once,
// offline, by a seeded random search (see magicgen_test.go, which re-checks
// each of them); at start-up the tables are only filled, never searched.

type magic struct {
	mask   Bitboard
	magic  uint64
	shift  uint8
	offset uint32
}

// sliderTableSize holds every square's rook and bishop attack sets (107648
// entries); a power of two, so that a mask bounds each lookup, not a check.
const sliderTableSize = 1 << 17

var (
	rookMagics   [64]magic
	bishopMagics [64]magic
	sliderTable  [sliderTableSize]Bitboard
)

// RookAttacks returns rook attacks from s with occupancy occ.
func RookAttacks(s Square, occ Bitboard) Bitboard {
	m := &rookMagics[s]
	return sliderTable[(m.offset+uint32(uint64(occ&m.mask)*m.magic>>(m.shift&63)))&(sliderTableSize-1)]
}

// BishopAttacks returns bishop attacks from s with occupancy occ.
func BishopAttacks(s Square, occ Bitboard) Bitboard {
	m := &bishopMagics[s]
	return sliderTable[(m.offset+uint32(uint64(occ&m.mask)*m.magic>>(m.shift&63)))&(sliderTableSize-1)]
}

// QueenAttacks returns queen attacks from s with occupancy occ.
func QueenAttacks(s Square, occ Bitboard) Bitboard {
	return RookAttacks(s, occ) | BishopAttacks(s, occ)
}

// relevantMask returns the slider's blocker mask on an empty board, without
// the edge squares that cannot change the attack set.
func relevantMask(s Square, dirs [4][2]int) Bitboard {
	edges := ((Rank1 | Rank8) &^ RankBB(s.Rank())) | ((FileA | FileH) &^ FileBB(s.File()))
	return slowAttacks(s, 0, dirs) &^ edges
}

// fillMagic fills one square's slice of the table, returning false on a
// destructive collision (a bad magic).
func fillMagic(m *magic, s Square, dirs [4][2]int, table []Bitboard, used []bool) bool {
	n := m.mask.Count()
	for i := range table[:1<<n] {
		used[i] = false
	}
	// Enumerate all subsets of the mask (Carry-Rippler).
	var sub Bitboard
	for {
		idx := uint64(sub) * m.magic >> m.shift
		atk := slowAttacks(s, sub, dirs)
		if used[idx] && table[idx] != atk {
			return false
		}
		used[idx] = true
		table[idx] = atk
		sub = (sub - m.mask) & m.mask
		if sub == 0 {
			break
		}
	}
	return true
}

func initMagics() {
	total := 0
	for s := Square(0); s < 64; s++ {
		total += 1<<relevantMask(s, rookDirs).Count() + 1<<relevantMask(s, bishopDirs).Count()
	}
	if total > sliderTableSize {
		panic("movegen: slider attacks exceed their table") // unreachable: the sizes are fixed
	}
	used := make([]bool, 4096)
	off := uint32(0)
	for s := Square(0); s < 64; s++ {
		for _, k := range []struct {
			m     *magic
			dirs  [4][2]int
			magic uint64
		}{{&rookMagics[s], rookDirs, rookMagicNumbers[s]}, {&bishopMagics[s], bishopDirs, bishopMagicNumbers[s]}} {
			k.m.mask = relevantMask(s, k.dirs)
			n := k.m.mask.Count()
			k.m.magic = k.magic
			k.m.shift = uint8(64 - n)
			k.m.offset = off
			if !fillMagic(k.m, s, k.dirs, sliderTable[off:off+1<<n], used) {
				panic("movegen: bad magic constant") // unreachable: TestMagics checks every constant
			}
			off += 1 << n
		}
	}
}
