package movegen

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSAN writes moves of every kind: pawn pushes and captures, en
// passant, promotions, disambiguation by file, rank and both, castling in
// standard chess and Chess960, check and mate.
func TestSAN(t *testing.T) {
	cases := []struct{ fen, uci, san string }{
		{StartFEN, "e2e4", "e4"},
		{StartFEN, "g1f3", "Nf3"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", "exd6"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8n", "b8=N"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q", "b8=Q+"},
		{"2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7c8r", "bxc8=R+"},
		{"4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "a1d1", "Rad1"},
		{"4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a3", "R1a3"},
		{"4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a4a3", "R4a3"},
		{"4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "e1e2", "Ke2"},
		{"8/2k5/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h4e1", "Qh4e1"}, // three queens reach e1
		{"8/2k5/8/8/4Q2Q/8/8/K6Q w - - 0 1", "h1e1", "Q1e1"},
		{"8/2k5/8/8/4Q2Q/8/8/K6Q w - - 0 1", "e4e1", "Qee1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1", "O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1a1", "O-O-O"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O"},
		{"1r4k1/8/8/8/8/8/8/R1K4R w HAb - 0 1", "c1h1", "O-O"},
		{"6k1/8/8/8/8/8/8/RK5R w HA - 0 1", "b1a1", "O-O-O"},
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", "Ra8#"},
		{"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", "Qxf7#"},
	}
	for _, c := range cases {
		pos := mustPos(t, c.fen)
		m, err := ParseMove(pos, c.uci, true)
		if err != nil {
			// Standard castling written as the king's move (e8c8).
			if m, err = ParseMove(pos, c.uci, false); err != nil {
				t.Fatalf("%s in %s: %v", c.uci, c.fen, err)
			}
		}
		before := pos.FEN(true)
		got, err := pos.SAN(m)
		if err != nil || got != c.san {
			t.Errorf("%s in %s: SAN %q, %v; want %q", c.uci, c.fen, got, err, c.san)
		}
		if pos.FEN(true) != before {
			t.Errorf("%s in %s: SAN changed the position", c.uci, c.fen)
		}
	}
	pos := NewPosition()
	for _, m := range []Move{NoMove, NullMove, NewMove(NewSquare(4, 1), NewSquare(4, 4))} {
		if s, err := pos.SAN(m); err == nil {
			t.Errorf("SAN of %v, not a legal move: %q, no error", m, s)
		}
	}
}

// TestSANRoundTrip: along random games from many starts, the SAN of every
// legal move reads back as that move, and no two moves share a SAN.
func TestSANRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	plies := 60
	if testing.Short() {
		plies = 20
	}
	for _, fen := range fuzzSeedFENs {
		pos := NewPosition()
		if pos.SetFEN(fen) != nil {
			continue
		}
		for range plies {
			moves := pos.LegalMoves()
			if len(moves) == 0 {
				break
			}
			seen := map[string]Move{}
			for _, m := range moves {
				san, err := pos.SAN(m)
				if err != nil {
					t.Fatalf("%s: SAN of legal %s: %v", pos.FEN(true), m.UCI(true), err)
				}
				if o, dup := seen[san]; dup {
					t.Fatalf("%s: %s and %s both written %q", pos.FEN(true), o.UCI(true), m.UCI(true), san)
				}
				seen[san] = m
				back, err := ParseSAN(pos, san)
				if err != nil || back != m {
					t.Fatalf("%s: %s written %q, read back as %s, %v", pos.FEN(true), m.UCI(true), san, back.UCI(true), err)
				}
			}
			pos.Make(moves[rng.IntN(len(moves))])
		}
	}
}

// TestPlayUndo: Play takes legal moves only and Undo takes back only moves;
// a refused call leaves the position as it was.
func TestPlayUndo(t *testing.T) {
	pos := NewPosition()
	if err := pos.Undo(); err == nil {
		t.Error("Undo at the start took something back")
	}
	e4 := NewMove(NewSquare(4, 1), NewSquare(4, 3))
	if err := pos.Play(e4); err != nil {
		t.Fatal(err)
	}
	after := pos.FEN(false)
	for _, m := range []Move{NoMove, NullMove, e4, NewMove(NewSquare(4, 6), NewSquare(4, 3))} {
		if err := pos.Play(m); err == nil {
			t.Errorf("Play(%s) accepted after 1.e4", m.UCI(false))
		}
		if pos.FEN(false) != after || pos.Ply() != 1 {
			t.Fatalf("a refused Play(%s) changed the position to %s", m.UCI(false), pos.FEN(false))
		}
	}
	pos.MakeNull()
	if err := pos.Undo(); err == nil {
		t.Error("Undo took back a null move")
	}
	pos.UnmakeNull()
	if err := pos.Undo(); err != nil || pos.FEN(false) != StartFEN || pos.Ply() != 0 {
		t.Fatalf("Undo of 1.e4: %v, %s", err, pos.FEN(false))
	}
}

func TestLegalMoves(t *testing.T) {
	for _, fen := range fuzzSeedFENs {
		pos := NewPosition()
		if pos.SetFEN(fen) != nil {
			continue
		}
		moves := pos.LegalMoves()
		if uint64(len(moves)) != pos.Perft(1) {
			t.Errorf("%s: %d legal moves, perft 1 is %d", fen, len(moves), pos.Perft(1))
		}
		for _, m := range moves {
			if !pos.IsLegal(m) {
				t.Errorf("%s: %s listed but not legal", fen, m.UCI(true))
			}
		}
	}
}

func TestOutcome(t *testing.T) {
	cases := []struct {
		fen   string
		moves []string
		want  Outcome
	}{
		{StartFEN, nil, Ongoing},
		{"R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1", nil, Checkmate},
		{"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", nil, Stalemate},
		{"8/8/4k3/8/8/3BK3/8/8 b - - 0 1", nil, InsufficientMaterial},
		{"8/8/4k3/8/8/4K3/8/8 w - - 0 1", nil, InsufficientMaterial},
		{"8/8/4k3/8/8/3QK3/8/8 b - - 99 80", nil, Ongoing},
		{"8/8/4k3/8/8/3QK3/8/8 b - - 100 80", nil, FiftyMoveRule},
		{"R5k1/5ppp/8/8/8/8/8/6K1 b - - 100 80", nil, Checkmate}, // a mate on the 100th half-move stands
		{StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"}, Ongoing},
		{StartFEN, []string{"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"}, ThreefoldRepetition},
	}
	for _, c := range cases {
		pos := mustPos(t, c.fen)
		for _, s := range c.moves {
			m, err := ParseMove(pos, s, false)
			if err != nil {
				t.Fatal(err)
			}
			if err := pos.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		if got := pos.Outcome(); got != c.want {
			t.Errorf("%s after %v: %v, want %v", c.fen, c.moves, got, c.want)
		}
		if drawn := c.want != Ongoing && c.want != Checkmate && c.want != Stalemate; drawn != pos.IsGameDrawn() {
			t.Errorf("%s after %v: IsGameDrawn %v for %v", c.fen, c.moves, pos.IsGameDrawn(), c.want)
		}
	}
	if s := Outcome(99).String(); s != "Outcome(99)" {
		t.Errorf("Outcome(99) = %q", s)
	}
}

// TestLibraryEdges: the edges a library caller may reach: PieceOn off the
// board, perft below depth 1, and drawing starts with a nil generator.
func TestLibraryEdges(t *testing.T) {
	p := NewPosition()
	if pc := p.PieceOn(NoSquare); pc != NoPiece {
		t.Errorf("PieceOn(NoSquare) = %v, want NoPiece", pc)
	}
	if pc := p.PieceOn(p.EPSquare()); pc != NoPiece {
		t.Errorf("PieceOn(EPSquare()) without an en-passant square = %v", pc)
	}
	for _, d := range []int{0, -1} {
		if n := p.Perft(d); n != 1 {
			t.Errorf("Perft(%d) = %d, want 1", d, n)
		}
		if e := p.Divide(d, nil); e != nil {
			t.Errorf("Divide(%d) = %v, want nil", d, e)
		}
		var b strings.Builder
		if n, err := p.WritePerft(&b, d, false, true, nil); n != 1 || err != nil || !strings.HasSuffix(b.String(), "Nodes searched: 1\n") {
			t.Errorf("WritePerft(%d) = %d, %v, %q; want 1 and Nodes searched: 1", d, n, err, b.String())
		}
	}
	for _, v := range []Variant{Standard, Chess960, DFRC} {
		fen := RandomStartFEN(v, nil)
		if err := NewPosition().SetFEN(fen); err != nil {
			t.Errorf("RandomStartFEN(%v, nil) = %q: %v", v, fen, err)
		}
	}
	var q Position
	if _, err := RandomOpening(&q, VariantMix{Standard: 1, Chess960: 1}, 4, nil); err != nil {
		t.Errorf("RandomOpening with a nil generator: %v", err)
	}
}
