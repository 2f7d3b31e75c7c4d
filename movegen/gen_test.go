package movegen

import (
	"math/rand/v2"
	"testing"
)

// TestPinsInCheck: positions where a piece that looks pinned (a slider
// behind an enemy checker) may capture the checker. Found by the Stockfish
// differential test; counts from Stockfish's perft 1.
func TestPinsInCheck(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want uint64
	}{
		{"1br4n/8/qpk5/r1P1p2P/1pB2p2/2Nb4/4K3/3NR3 w - - 3 38", 5},
		{"rn2k3/2rbn3/p1Q5/bp3p1p/2q5/3P1PPp/1B2B3/2KR2NR w a - 0 26", 4},
		{"7b/k2n4/p1b1B3/2pp1r1p/PBP1P3/1P3R1N/3R1q2/Q4K2 w - - 0 47", 4},
		{"r2kr3/2bn3p/2Q4n/5p1P/p5p1/B3R3/b3q3/4KB2 w - - 2 56", 3},
		{"4R2r/1kn3n1/7Q/p1P4q/P2pP3/b6K/6r1/4R3 w - - 0 51", 2},
	} {
		p := mustPos(t, tc.fen)
		if got := p.Perft(1); got != tc.want {
			t.Errorf("%s: perft 1 = %d, want %d", tc.fen, got, tc.want)
		}
		if got := len(p.LegalMoves()); uint64(got) != tc.want {
			t.Errorf("%s: %d generated moves, want %d", tc.fen, got, tc.want)
		}
	}
}

// randomPositions plays seeded random games from the seed FENs and returns
// positions sampled along the way.
func randomPositions(t testing.TB, games, every int, seed uint64) []*Position {
	rng := rand.New(rand.NewPCG(seed, 3))
	var out []*Position
	starts := append([]string{}, fuzzSeedFENs...)
	for n := 0; n < 960; n += 97 {
		fen, _ := Chess960FEN(n)
		starts = append(starts, fen)
	}
	for g := 0; g < games; g++ {
		var p Position
		if p.SetFEN(starts[g%len(starts)]) != nil {
			continue
		}
		for ply := 0; ply < 150; ply++ {
			moves := p.LegalMoves()
			if ply%every == 0 {
				out = append(out, p.Clone())
			}
			if len(moves) == 0 {
				break
			}
			p.Make(playoutMove(rng, moves, &p))
		}
	}
	return out
}

// TestGenerationConsistency: noisy and quiet split the legal moves exactly,
// the bulk count equals the list length, and every listed move is legal.
func TestGenerationConsistency(t *testing.T) {
	for _, p := range randomPositions(t, 60, 3, 1) {
		all := p.LegalMoves()
		var noisy, quiet MoveList
		p.GenerateNoisy(&noisy)
		p.GenerateQuiet(&quiet)
		seen := map[Move]int{}
		for i := 0; i < noisy.N; i++ {
			m := noisy.At(i)
			seen[m]++
			isNoisy := p.PieceOn(m.To()) != NoPiece && !m.IsCastling() || m.Kind() == EnPassant ||
				m.IsPromotion() && m.PromotionType() == Queen
			if !isNoisy {
				t.Fatalf("%s: %v generated as noisy", p.FEN(true), m)
			}
		}
		for i := 0; i < quiet.N; i++ {
			m := quiet.At(i)
			seen[m]++
			if p.PieceOn(m.To()) != NoPiece && !m.IsCastling() || m.Kind() == EnPassant || m.IsPromotion() && m.PromotionType() == Queen {
				t.Fatalf("%s: %v generated as quiet", p.FEN(true), m)
			}
		}
		if len(seen) != len(all) || noisy.N+quiet.N != len(all) {
			t.Fatalf("%s: %d noisy + %d quiet, %d legal", p.FEN(true), noisy.N, quiet.N, len(all))
		}
		for _, m := range all {
			if seen[m] != 1 {
				t.Fatalf("%s: %v in noisy+quiet %d times", p.FEN(true), m, seen[m])
			}
		}
		if n := p.countLegal(); n != len(all) {
			t.Fatalf("%s: countLegal %d, list %d", p.FEN(true), n, len(all))
		}
		if p.HasLegalMove() != (len(all) > 0) {
			t.Fatalf("%s: HasLegalMove wrong", p.FEN(true))
		}
		// Each move leaves the mover's king safe.
		us := p.SideToMove()
		for _, m := range all {
			p.Make(m)
			if p.Attacked(p.KingSquare(us), us.Other(), p.Occupied()) {
				t.Fatalf("%s: %v leaves the king attacked", p.FEN(true), m)
			}
			p.Unmake()
		}
	}
}

// validationPositions returns positions for the move-validation tests:
// the fuzz seeds (castling, en passant, promotions, pins, checks) and
// positions from random games.
func validationPositions(t testing.TB, games int) []*Position {
	var out []*Position
	for _, fen := range fuzzSeedFENs {
		var p Position
		if p.SetFEN(fen) == nil {
			out = append(out, &p)
		}
	}
	return append(out, randomPositions(t, games, 9, 2)...)
}

// TestIsLegal compares IsLegal with the generated legal moves on every
// 16-bit value in each position.
func TestIsLegal(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 4
	}
	positions := validationPositions(t, games)
	for _, p := range positions {
		var l MoveList
		p.GenerateLegal(&l)
		for v := 0; v < 1<<16; v++ {
			m := Move(v)
			if got, want := p.IsLegal(m), l.Contains(m) && m != NoMove && m != NullMove; got != want {
				t.Fatalf("%s: IsLegal(%v, %#04x) = %v, generated %v", p.FEN(true), m, v, got, want)
			}
		}
		// And the reference itself on the legal moves and a few others.
		for i := 0; i < l.N; i++ {
			if !p.isLegalByGeneration(l.At(i)) {
				t.Fatalf("%s: isLegalByGeneration(%v) false for a generated move", p.FEN(true), l.At(i))
			}
		}
	}
	t.Logf("%d positions x 65536 values", len(positions))
}

// TestGivesCheck compares GivesCheck with making the move and looking.
func TestGivesCheck(t *testing.T) {
	for _, tc := range []struct {
		name, fen, move string
		want            bool
	}{
		{"castling-rook-checks", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", true},
		{"castling-a-side-rook-checks", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1a1", true},
		{"castling-no-check", "6k1/8/8/8/8/8/8/4K2R w K - 0 1", "e1h1", false},
		{"castling-960-rook-checks", "3k4/8/8/8/8/8/8/RK6 w A - 0 1", "b1a1", true},
		{"castling-king-on-target", "5k2/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", true},
		{"castling-rook-leaves-line", "4k3/8/8/8/8/8/8/4K1RB w G - 0 1", "e1g1", false},
		{"ep-discovers-rook", "8/8/8/K1pP3k/8/8/8/8 w - c6 0 1", "d5c6", false},
		{"ep-discovers-rook-2", "8/8/8/R1pP3k/8/8/8/4K3 w - c6 0 1", "d5c6", true},
		{"ep-discovers-bishop", "8/8/1k6/2pP4/8/8/8/5BK1 w - c6 0 1", "d5c6", false},
		{"ep-pawn-checks", "8/1k6/8/2pP4/8/8/8/6K1 w - c6 0 1", "d5c6", true},
		{"promotion-queen-checks", "2k5/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", true},
		{"promotion-knight-checks", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", true},
		{"promotion-rook-no-check", "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7e8r", false},
		{"promotion-discovers-rook", "8/R4P1k/8/8/8/8/8/4K3 w - - 0 1", "f7f8b", true},
		{"discovered-knight", "4k3/8/8/8/4N3/8/8/4RK2 w - - 0 1", "e4c5", true},
		{"king-discovers", "4k3/8/8/8/8/8/4K3/4R3 w - - 0 1", "e2d2", true},
	} {
		p := mustPos(t, tc.fen)
		m, err := ParseMove(p, tc.move, true)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := p.GivesCheck(m); got != tc.want {
			t.Errorf("%s: GivesCheck(%s) = %v, want %v", tc.name, tc.move, got, tc.want)
		}
		p.Make(m)
		if p.InCheck() != tc.want {
			t.Errorf("%s: test expectation disagrees with Make: in check %v", tc.name, p.InCheck())
		}
	}
	checked, checks := 0, 0
	for _, p := range validationPositions(t, 200) {
		for _, m := range p.LegalMoves() {
			got := p.GivesCheck(m)
			p.Make(m)
			want := p.InCheck()
			p.Unmake()
			if got != want {
				t.Fatalf("%s: GivesCheck(%v) = %v, Make says %v", p.FEN(true), m, got, want)
			}
			checked++
			if want {
				checks++
			}
		}
	}
	t.Logf("%d moves checked, %d give check", checked, checks)
}
