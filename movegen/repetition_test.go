package movegen

import "testing"

// play makes the moves, given in UCI notation, on p.
func play(t *testing.T, p *Position, moves ...string) {
	t.Helper()
	for _, s := range moves {
		m, err := ParseMove(p, s, false)
		if err != nil {
			t.Fatal(err)
		}
		p.Make(m)
	}
}

// TestIsDrawnRepetition: a repetition is a draw in the search when the
// earlier occurrence lies after the root or when it is the third occurrence;
// the scan stops at a capture or pawn move and at a null move.
func TestIsDrawnRepetition(t *testing.T) {
	p := NewPosition()
	play(t, p, "g1f3", "g8f6", "f3g1", "f6g8") // the start position, a second time
	for _, c := range []struct {
		ply  int
		want bool
	}{
		{0, false}, // the root repeats a game position: not yet a draw
		{4, false}, // the earlier occurrence is the root itself
		{5, true},  // the earlier occurrence is after the root
		{40, true},
	} {
		if got := p.IsDrawnRepetition(c.ply); got != c.want {
			t.Errorf("second occurrence at ply %d: drawn %v, want %v", c.ply, got, c.want)
		}
	}
	play(t, p, "g1f3", "g8f6", "f3g1", "f6g8") // the third occurrence
	if !p.IsDrawnRepetition(0) {
		t.Error("third occurrence at the root ply: not a draw")
	}

	// A null move in between: the scan does not cross it.
	p = NewPosition()
	play(t, p, "g1f3")
	p.MakeNull()
	play(t, p, "f3g1", "g8f6")
	p.MakeNull()
	play(t, p, "f6g8")
	if p.Key() != NewPosition().Key() {
		t.Fatal("test setup: not the start position")
	}
	if p.IsDrawnRepetition(40) {
		t.Error("repetition found across a null move")
	}

	// After pawn moves (the scan's reach is the 50-move counter).
	p = NewPosition()
	play(t, p, "e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8")
	if !p.IsDrawnRepetition(5) {
		t.Error("repetition after the pawn moves not found")
	}
}

// TestIsGameDrawn: a game ends drawn at the third occurrence of a position,
// not the second (IsDrawByRule's), at 100 half-moves without a capture or
// pawn move unless that move mates, and on insufficient material.
func TestIsGameDrawn(t *testing.T) {
	p := NewPosition()
	play(t, p, "g1f3", "g8f6", "f3g1", "f6g8")
	if p.IsGameDrawn() || !p.IsDrawByRule() {
		t.Fatalf("second occurrence: game drawn %v (want false), draw by rule %v (want true)", p.IsGameDrawn(), p.IsDrawByRule())
	}
	play(t, p, "g1f3", "g8f6", "f3g1", "f6g8")
	if !p.IsGameDrawn() {
		t.Fatal("third occurrence: the game is not drawn")
	}
	for _, c := range []struct {
		fen  string
		want bool
	}{
		{"4k3/8/8/8/8/8/8/4K2R w K - 99 80", false},  // one half-move short
		{"4k3/8/8/8/8/8/8/4K2R w K - 100 80", true},  // fifty moves
		{"7k/6Q1/6K1/8/8/8/8/8 b - - 100 90", false}, // checkmated at 100: the mate stands
		{"8/8/4k3/8/8/2N5/8/4K3 w - - 0 1", true},    // a knight alone cannot mate
		{"8/8/4k3/8/8/2B5/8/4K2R w - - 0 1", false},
	} {
		if err := p.SetFEN(c.fen); err != nil {
			t.Fatal(err)
		}
		if got := p.IsGameDrawn(); got != c.want {
			t.Errorf("%s: game drawn %v, want %v", c.fen, got, c.want)
		}
	}
}
