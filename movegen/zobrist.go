package movegen

// Zobrist keys, from a fixed-seed xorshift generator so keys are identical on
// every run and machine.
var (
	zobristPiece    [16][64]uint64
	zobristEP       [8]uint64
	zobristCastling [16]uint64
	zobristSide     uint64
)

func init() {
	state := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		// xorshift64*
		state ^= state >> 12
		state ^= state << 25
		state ^= state >> 27
		return state * 2685821657736338717
	}
	for p := range zobristPiece {
		for s := range zobristPiece[p] {
			zobristPiece[p][s] = next()
		}
	}
	for i := range zobristEP {
		zobristEP[i] = next()
	}
	for i := range zobristCastling {
		zobristCastling[i] = next()
	}
	zobristSide = next()
	buildCuckoo()
}
