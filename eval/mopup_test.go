package eval

import "testing"

// TestMopUp: the bare-king term is zero unless one side has its king alone
// against a queen or a rook; it favours the side with the material, from
// either side to move and colour-flipped alike; it grows as the bare king
// nears an edge and as the kings come together.
func TestMopUp(t *testing.T) {
	zero := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"8/8/8/4k3/8/8/8/4K3 w - - 0 1",     // bare kings
		"8/8/8/4k3/8/8/8/2B1K1N1 w - - 0 1", // bishop and knight: no queen or rook
		"8/8/8/4k3/8/8/8/N3K3 w - - 0 1",    // a knight
		"8/8/3p4/4k3/8/8/8/R3K3 w - - 0 1",  // the defender has a pawn
		"8/8/8/4k3/8/8/8/R3K2r w - - 0 1",   // both have a rook
	}
	for _, fen := range zero {
		if v := MopUp(mustPos(t, fen)); v != 0 {
			t.Errorf("%s: MopUp %d, want 0", fen, v)
		}
	}

	// The same material, the bare king ever nearer a corner and the white
	// king ever nearer it: the term must grow at each step.
	steps := []string{
		"8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
		"8/8/5k2/8/8/8/8/R3K3 w - - 0 1",
		"8/6k1/8/8/8/8/8/R3K3 w - - 0 1",
		"6k1/8/8/8/8/8/8/R3K3 w - - 0 1",
		"6k1/8/8/8/8/8/4K3/R7 w - - 0 1",
		"6k1/8/8/8/5K2/8/8/R7 w - - 0 1",
		"6k1/8/5K2/8/8/8/8/R7 w - - 0 1",
	}
	prev := 0
	for i, fen := range steps {
		v := MopUp(mustPos(t, fen))
		if v <= prev {
			t.Errorf("step %d %s: MopUp %d, want more than the step before (%d)", i, fen, v, prev)
		}
		prev = v
		// The other side to move sees the opposite; the colour-flipped
		// position is the same to its side to move.
		black := fen[:len(fen)-len("w - - 0 1")] + "b - - 0 1"
		if b := MopUp(mustPos(t, black)); b != -v {
			t.Errorf("%s: MopUp %d with Black to move, want %d", black, b, -v)
		}
		if f := MopUp(mustPos(t, flipFEN(t, fen))); f != v {
			t.Errorf("%s flipped: MopUp %d, want %d", fen, f, v)
		}
	}
	// Queen or rook, with anything else beside it, and the defender's king
	// only: still the term.
	if v := MopUp(mustPos(t, "k7/8/8/8/8/8/1P6/1Q2K3 w - - 0 1")); v <= 0 {
		t.Errorf("K+Q+P v K: MopUp %d, want > 0", v)
	}
}
