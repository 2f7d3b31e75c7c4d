package movegen

import (
	"math/rand/v2"
	"testing"
)

// fuzzSeedFENs seed the fuzz corpora: standard, Chess960 and DFRC starts,
// castling, en-passant and promotion positions, checks and pins.
var fuzzSeedFENs = []string{
	StartFEN,
	kiwipeteFEN,
	frcBenchFEN,
	"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
	"1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/R3KR2 w KQkq - 0 1",
	"4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1",
	"4k3/8/8/8/8/8/8/6KR w H - 0 1",
	"4k3/8/8/8/8/8/8/rR1K4 w B - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
	"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
	"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
	"8/8/8/8/1k1Pp2R/8/8/4K3 b - d3 0 1",
	"k2r4/4P3/8/8/8/8/8/4K3 w - - 0 1",
	"4k3/8/8/8/7b/3n4/8/r3K3 w - - 0 1",
	"4k3/8/8/8/8/8/8/4K3 w - -",
	"rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1",
	"",
	"x",
	"8/8/8/8/8/8/8/8 w - - 0 1",
}

// FuzzFEN: a FEN that parses prints, in both modes, a FEN that parses to the
// same position; a FEN that fails leaves the position untouched.
func FuzzFEN(f *testing.F) {
	for _, s := range fuzzSeedFENs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, fen string) {
		p := NewPosition()
		if err := p.SetFEN(fen); err != nil {
			if p.FEN(false) != StartFEN || p.Key() != NewPosition().Key() {
				t.Fatalf("failed SetFEN(%q) changed the position", fen)
			}
			return
		}
		checkConsistent(t, p)
		for _, chess960 := range []bool{true, false} {
			out := p.FEN(chess960)
			var q Position
			if err := q.SetFEN(out); err != nil {
				t.Fatalf("%q printed as %q, which fails: %v", fen, out, err)
			}
			if q.Key() != p.Key() || q.PawnKey() != p.PawnKey() || q.FEN(chess960) != out || q.FEN(!chess960) != p.FEN(!chess960) {
				t.Fatalf("%q printed as %q, which parses to %q", fen, out, q.FEN(chess960))
			}
			for c := White; c <= Black; c++ {
				for _, ks := range []bool{true, false} {
					if q.CastlingRook(c, ks) != p.CastlingRook(c, ks) {
						t.Fatalf("%q -> %q: castling rook of %v changed", fen, out, c)
					}
				}
			}
		}
	})
}

// FuzzMakeUnmake plays a seeded random game from a FEN, checking after every
// move that the incremental keys and state equal a full recomputation, and
// then takes every move back, checking each earlier position is restored
// exactly.
func FuzzMakeUnmake(f *testing.F) {
	for i, s := range fuzzSeedFENs {
		f.Add(s, uint64(i), uint8(60))
	}
	f.Fuzz(func(t *testing.T, fen string, seed uint64, plies uint8) {
		var p Position
		if p.SetFEN(fen) != nil {
			return
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		type state struct {
			fen             string
			key, pawnKey    uint64
			checkers        Bitboard
			castling        uint8
			ep              Square
			rule50, ply     int
			repetition      bool
			repetitionsSeen int
		}
		snap := func() state {
			return state{p.FEN(true), p.Key(), p.PawnKey(), p.Checkers(), p.CastlingRights(), p.EPSquare(),
				p.Rule50(), p.Ply(), p.IsRepetition(), p.RepetitionCount()}
		}
		var stack []state
		for range int(plies) {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			stack = append(stack, snap())
			if !p.InCheck() && rng.IntN(8) == 0 {
				p.MakeNull()
				checkConsistent(t, &p)
				p.UnmakeNull()
				if snap() != stack[len(stack)-1] {
					t.Fatalf("%q: null move not undone", stack[len(stack)-1].fen)
				}
			}
			m := moves[rng.IntN(len(moves))]
			p.Make(m)
			checkConsistent(t, &p)
			if p.LastMove() != m {
				t.Fatalf("LastMove %v, want %v", p.LastMove(), m)
			}
			// The position must also equal its own FEN re-read.
			var q Position
			if err := q.SetFEN(p.FEN(true)); err != nil {
				t.Fatalf("after %v: own FEN %q fails: %v", m, p.FEN(true), err)
			}
			if q.Key() != p.Key() || q.PawnKey() != p.PawnKey() {
				t.Fatalf("after %v: key differs from the key of its FEN %q", m, p.FEN(true))
			}
		}
		for len(stack) > 0 {
			p.Unmake()
			want := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if got := snap(); got != want {
				t.Fatalf("unmake gave %+v, want %+v", got, want)
			}
			checkConsistent(t, &p)
		}
	})
}

// FuzzParseMove: ParseMove never panics, and what it accepts is legal and
// prints back as the same text (modulo the promotion letter's case).
func FuzzParseMove(f *testing.F) {
	for _, s := range []string{"e2e4", "e1g1", "e1h1", "e7e8q", "e7e8", "0000", "", "a1a1", "h8h8qq", "e2e4\x00", "g1h1", "\xff\xfe\xfd\xfc"} {
		f.Add(StartFEN, s, false)
		f.Add(kiwipeteFEN, s, true)
	}
	f.Add("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", true)
	f.Add("k2r4/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", false)
	f.Fuzz(func(t *testing.T, fen, s string, chess960 bool) {
		var p Position
		if p.SetFEN(fen) != nil {
			p = *NewPosition()
		}
		before := p.FEN(true)
		m, err := ParseMove(&p, s, chess960)
		if p.FEN(true) != before {
			t.Fatal("ParseMove changed the position")
		}
		if err != nil {
			if m != NoMove {
				t.Fatalf("error %v with move %v", err, m)
			}
			return
		}
		if !p.isLegalByGeneration(m) {
			t.Fatalf("ParseMove(%q) = %v, not legal in %s", s, m, before)
		}
		p.Make(m)
		checkConsistent(t, &p)
	})
}

// FuzzMoveValidation: IsLegal agrees with isLegalByGeneration on any 16-bit
// value, and GivesCheck agrees with Make on the legal ones.
func FuzzMoveValidation(f *testing.F) {
	for i, s := range fuzzSeedFENs {
		f.Add(s, uint16(i*4099))
	}
	f.Add("4k3/8/8/8/8/8/8/6KR w H - 0 1", uint16(NewSpecial(G1, H1, Castling)))
	f.Add("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", uint16(NewSpecial(NewSquare(4, 4), NewSquare(3, 5), EnPassant)))
	f.Fuzz(func(t *testing.T, fen string, v uint16) {
		var p Position
		if p.SetFEN(fen) != nil {
			return
		}
		m := Move(v)
		legal := p.isLegalByGeneration(m)
		if got := p.IsLegal(m); got != legal {
			t.Fatalf("%s: IsLegal(%v) = %v, by generation %v", fen, m, got, legal)
		}
		if !legal {
			return
		}
		gives := p.GivesCheck(m)
		p.Make(m)
		if p.InCheck() != gives {
			t.Fatalf("%s: GivesCheck(%v) = %v, Make says %v", fen, m, gives, p.InCheck())
		}
	})
}
