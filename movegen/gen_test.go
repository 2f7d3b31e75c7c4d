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
		if got := len(legalMoves(p)); uint64(got) != tc.want {
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
			moves := legalMoves(&p)
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
		all := legalMoves(p)
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
