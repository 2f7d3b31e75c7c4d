package movegen

import (
	"slices"
	"strings"
	"testing"
)

// TestCastlingRules checks which castling moves exist in positions built for
// the rules bugs other engines shipped (see UCI.md). Every expectation was
// also confirmed with Stockfish's perft.
func TestCastlingRules(t *testing.T) {
	for _, tc := range []struct {
		name string
		fen  string
		want string // the legal castling moves as king takes rook, sorted, space-separated
	}{
		// King already on its target square.
		{"king-on-g1-rook-h1", "4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1"},
		{"king-on-c1-rook-a1", "4k3/8/8/8/8/8/8/R1K5 w A - 0 1", "c1a1"},
		{"king-on-c1-rook-b1", "4k3/8/8/8/8/8/8/1RK5 w B - 0 1", "c1b1"},
		{"black-king-on-g8-rook-h8", "6kr/8/8/8/8/8/8/4K3 b h - 0 1", "g8h8"},
		// Rook already on its target square.
		{"rook-on-f1-king-e1", "4k3/8/8/8/8/8/8/4KR2 w F - 0 1", "e1f1"},
		{"rook-on-d1-king-e1", "4k3/8/8/8/8/8/8/3RK3 w D - 0 1", "e1d1"},
		// King and rook swap squares.
		{"swap-king-f1-rook-g1", "4k3/8/8/8/8/8/8/5KR1 w G - 0 1", "f1g1"},
		{"swap-king-d1-rook-c1", "4k3/8/8/8/8/8/8/2RK4 w C - 0 1", "d1c1"},
		// The king jumps over its own rook: the rook's square must not be attacked.
		{"jump-over-rook-c1-attacked", "4k3/8/8/8/8/b7/8/1KR5 w C - 0 1", ""},
		{"jump-over-rook-c1-free", "4k3/8/8/8/8/8/8/1KR5 w C - 0 1", "b1c1"},
		{"jump-over-rook-f1-attacked", "4k3/8/8/8/8/7b/8/5RK1 w F - 0 1", ""},
		{"jump-over-rook-f1-free", "4k3/8/8/8/8/8/8/5RK1 w F - 0 1", "g1f1"},
		// An enemy rook or queen behind the castling rook on the back rank.
		{"xray-rook-a1", "4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", ""},
		{"xray-queen-a1", "4k3/8/8/8/8/8/8/qR1K4 w B - 0 1", ""},
		{"xray-no-attacker", "4k3/8/8/8/8/8/8/1R1K4 w B - 0 1", "d1b1"},
		{"xray-king-on-target", "4k3/8/8/8/8/8/8/rRK5 w B - 0 1", ""},
		{"xray-h-side", "4k3/8/8/8/8/8/8/5KRr w G - 0 1", ""},
		{"xray-black-a8", "Rr1k4/8/8/8/8/8/8/4K3 b b - 0 1", ""},
		// Out of, through and into check; attacked squares only the rook crosses.
		{"standard-free", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1a1 e1h1"},
		{"out-of-check", "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", ""},
		{"through-check-f1", "4k3/5r2/8/8/8/8/8/R3K2R w KQ - 0 1", "e1a1"},
		{"into-check-g1", "4k3/6r1/8/8/8/8/8/R3K2R w KQ - 0 1", "e1a1"},
		{"through-check-d1", "4k3/3r4/8/8/8/8/8/R3K2R w KQ - 0 1", "e1h1"},
		{"into-check-c1", "4k3/2r5/8/8/8/8/8/R3K2R w KQ - 0 1", "e1h1"},
		{"rook-crosses-attacked-b1", "4k3/1r6/8/8/8/8/8/R3K2R w KQ - 0 1", "e1a1 e1h1"},
		{"rook-on-attacked-h1", "4k3/7r/8/8/8/8/8/R3K2R w KQ - 0 1", "e1a1 e1h1"},
		{"black-through-check", "r3k2r/8/8/8/8/8/8/3RK3 b kq - 0 1", "e8h8"},
		// A piece in between, on the king's path or only on the rook's.
		{"knights-b1-g1", "4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1", ""},
		{"bishop-f1", "4k3/8/8/8/8/8/8/R3KB1R w KQ - 0 1", "e1a1"},
		{"enemy-knight-b1", "4k3/8/8/8/8/8/8/Rn2K2R w KQ - 0 1", "e1h1"},
		{"rook-path-f1-king-on-g1", "4k3/8/8/8/8/8/8/5BKR w H - 0 1", ""},
		{"rook-path-d1-king-on-b1", "4k3/8/8/8/8/8/8/RK1N4 w A - 0 1", ""},
		{"king-path-g1-rook-on-c1", "4k3/8/8/8/8/8/8/1KR3N1 w C - 0 1", ""},
		{"other-rook-on-king-path", "4k3/8/8/8/8/8/8/1RK2R2 w BF - 0 1", "c1b1 c1f1"},
		// K and Q name the outermost rook; X-FEN letters name inner rooks.
		{"outermost-rooks-blocked", "4k3/8/8/8/8/8/8/RR2K1RR w KQ - 0 1", ""},
		{"inner-rooks-xfen", "4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1", "e1b1 e1g1"},
		{"mixed-xfen", "4k3/8/8/8/8/8/8/1R2K1RR w KB - 0 1", "e1b1"},
		// DFRC: each color has its own files.
		{"dfrc-white", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w KQkq - 0 1", "e1a1 e1f1"},
		{"dfrc-black", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 b KQkq - 0 1", "d8b8 d8g8"},
		{"dfrc-black-shredder", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 b FAgb - 0 1", "d8b8 d8g8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			var got []string
			for _, m := range castlingMoves(p) {
				got = append(got, m.UCI(true))
			}
			slices.Sort(got)
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("castling moves %q, want %q", s, tc.want)
			}
			// Every castling move plays and takes back cleanly.
			fen, key := p.FEN(true), p.Key()
			for _, m := range castlingMoves(p) {
				p.Make(m)
				checkConsistent(t, p)
				p.Unmake()
				if p.FEN(true) != fen || p.Key() != key {
					t.Fatalf("unmake of %v gave %q", m, p.FEN(true))
				}
			}
		})
	}
}

// TestCastlingAfter plays castling moves and checks the whole resulting FEN.
func TestCastlingAfter(t *testing.T) {
	for _, tc := range []struct {
		name, fen, move, after string
	}{
		{"king-on-target", "4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
		{"inner-rook-g1", "4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1", "e1g1", "4k3/8/8/8/8/8/8/RR3RKR b - - 1 1"},
		{"inner-rook-b1", "4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1", "e1b1", "4k3/8/8/8/8/8/8/R1KR2RR b - - 1 1"},
		{"dfrc-white-h-side", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w KQkq - 0 1", "e1f1", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b gb - 1 1"},
		{"dfrc-black-a-side", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 b KQkq - 3 7", "d8b8", "2kr2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FA - 4 8"},
		{"dfrc-black-h-side", "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 b KQkq - 3 7", "d8g8", "1r3rk1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w FA - 4 8"},
		// A rook captured on its home square takes its right along.
		{"rook-captured-h1", "r3k2r/8/8/8/8/8/6b1/R3K2R b KQkq - 0 1", "g2h1", "r3k2r/8/8/8/8/8/8/R3K2b w Aha - 0 2"},
		{"rook-takes-rook-a8", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a8", "R3k2r/8/8/8/8/8/8/4K2R b Hh - 0 1"},
		{"960-rook-captured-b8", "1r1k2r1/8/8/8/8/8/8/RB2KR2 w KQkq - 0 1", "b1h7", "1r1k2r1/7B/8/8/8/8/8/R3KR2 b FAgb - 1 1"},
		{"960-rook-captured-b8-", "1r1k2r1/8/8/8/8/8/8/RB2KR2 w KQkq - 0 1", "b1a2", "1r1k2r1/8/8/8/8/8/B7/R3KR2 b FAgb - 1 1"},
		{"king-move-ends-both", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1e2", "r3k2r/8/8/8/8/8/4K3/R6R b ha - 1 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			before, key := p.FEN(true), p.Key()
			m, err := ParseMove(p, tc.move, true)
			if err != nil {
				t.Fatal(err)
			}
			p.Make(m)
			if got := p.FEN(true); got != tc.after {
				t.Errorf("after %s: %q, want %q", tc.move, got, tc.after)
			}
			checkConsistent(t, p)
			if q := mustPos(t, tc.after); q.Key() != p.Key() {
				t.Error("incremental key differs from the key of the after-FEN")
			}
			p.Unmake()
			if p.FEN(true) != before || p.Key() != key {
				t.Errorf("unmake gave %q", p.FEN(true))
			}
		})
	}
}

// TestEnPassantSquare checks that an ep square survives only when a legal
// ep capture exists, and that a dropped one leaves the key of the position
// without it (so repetitions are still found).
func TestEnPassantSquare(t *testing.T) {
	for _, tc := range []struct {
		name string
		fen  string
		keep bool
	}{
		{"no-capturing-pawn", "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", false},
		{"capture-possible", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", true},
		{"pinned-on-rank", "4K3/8/8/8/k2pP2R/8/8/8 b - e3 0 1", false},
		{"rank-pin-other-side", "4K3/8/8/8/R2pP2k/8/8/8 b - e3 0 1", false},
		{"not-pinned-blocked", "4K3/8/8/8/k1NpP2R/8/8/8 b - e3 0 1", true},
		{"capturing-pawn-pinned-diagonally", "4K3/8/5B2/8/3pP3/8/8/k7 b - e3 0 1", false},
		{"capturing-pawn-not-pinned", "4K3/8/8/8/3pP3/8/8/k5B1 b - e3 0 1", true},
		{"origin-square-occupied", "4k3/3n4/8/3pP3/8/8/8/4K3 w - d6 0 1", false},
		{"ep-square-occupied", "4k3/8/3n4/3pP3/8/8/8/4K3 w - d6 0 1", false},
		{"no-pawn-that-moved", "4k3/8/8/4P3/8/8/8/4K3 w - d6 0 1", false},
		{"white-captures", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", true},
		{"ep-resolves-check", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", true},
		{"two-pawns-leave-rank", "8/8/8/8/1k1Pp2R/8/8/4K3 b - d3 0 1", false},
		{"ep-does-not-resolve-check", "4K3/8/8/7k/3Pp3/8/8/7R b - d3 0 1", false},
		{"ep-blocks-check", "4K3/8/8/8/3Pp3/R6k/8/8 b - d3 0 1", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPos(t, tc.fen)
			f := strings.Fields(tc.fen)
			f[3] = "-"
			without := mustPos(t, strings.Join(f, " "))
			if kept := p.EPSquare() != NoSquare; kept != tc.keep {
				t.Fatalf("ep square %v, want kept=%v", p.EPSquare(), tc.keep)
			}
			if got := strings.Fields(p.FEN(true))[3]; (got != "-") != tc.keep {
				t.Errorf("FEN ep field %q", got)
			}
			if (p.Key() == without.Key()) == tc.keep {
				t.Errorf("key equal to the position without ep: %v, want %v", p.Key() == without.Key(), !tc.keep)
			}
			hasEP := false
			for _, m := range p.LegalMoves() {
				hasEP = hasEP || m.Kind() == EnPassant
			}
			if hasEP != tc.keep {
				t.Errorf("ep capture generated: %v, want %v", hasEP, tc.keep)
			}
		})
	}
}

// TestEnPassantRepetition: a double step that allows no ep capture must not
// spoil repetition detection (Stockfish #6563).
func TestEnPassantRepetition(t *testing.T) {
	// The FEN carries a useless ep square; four knight moves later the
	// position repeats.
	p := mustPos(t, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
	start := p.Key()
	for _, s := range []string{"g8f6", "g1f3", "f6g8", "f3g1"} {
		m, err := ParseMove(p, s, false)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
	}
	if p.Key() != start || !p.IsRepetition() {
		t.Fatalf("no repetition after returning to the position: key %x vs %x", p.Key(), start)
	}
	// The same with the double step played on the board.
	q := NewPosition()
	for _, s := range []string{"e2e4", "g8f6", "g1f3", "f6g8", "f3g1"} {
		m, err := ParseMove(q, s, false)
		if err != nil {
			t.Fatal(err)
		}
		q.Make(m)
		if s == "e2e4" && q.Key() != start {
			t.Fatal("key after e2e4 differs from the FEN's")
		}
	}
	if !q.IsRepetition() || q.RepetitionCount() != 1 {
		t.Fatalf("repetition %v count %d", q.IsRepetition(), q.RepetitionCount())
	}
	// A null move cuts the repetition chain.
	q.MakeNull()
	q.UnmakeNull()
	if !q.IsRepetition() {
		t.Fatal("null move and unmake changed the repetition")
	}
}
