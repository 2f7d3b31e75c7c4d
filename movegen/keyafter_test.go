package movegen

import "testing"

// TestKeyAfter: over every line three plies deep from positions with
// castling (standard and Chess960, both kinds of rook placement), en
// passant, promotions with and without capture and rights lost by captures,
// KeyAfter gives the key Make produces, except after a double step that
// leaves an en-passant capture legal, where it differs by exactly that
// square's key.
func TestKeyAfter(t *testing.T) {
	fens := []string{
		StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
		"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"1rk2r2/8/8/8/8/8/8/1RK2R2 w BFbf - 0 1",
		"r1k1r3/8/8/8/8/8/8/R1K1R3 w AEae - 0 1",
	}
	for _, fen := range fens {
		p := mustPos(t, fen)
		var walk func(depth int)
		walk = func(depth int) {
			for _, m := range p.LegalMoves() {
				got := p.KeyAfter(m)
				p.Make(m)
				want := p.Key()
				if p.ep != NoSquare {
					want ^= zobristEP[p.ep.File()]
				}
				if got != want {
					t.Errorf("%s: KeyAfter(%s) = %016x, Make gives %016x", fen, m.UCI(true), got, p.Key())
				}
				if depth > 1 {
					walk(depth - 1)
				}
				p.Unmake()
			}
		}
		walk(3)
	}
}
