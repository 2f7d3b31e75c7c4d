package eval

import "testing"

// TestScoreTT: a mate found at one ply and read back at another keeps its
// distance from the node; scores inside the mate thresholds do not move.
func TestScoreTT(t *testing.T) {
	cases := []struct {
		name          string
		score, atPly  int // the score stored and the ply it was found at
		readPly, want int // the ply it is read back at and the score then
	}{
		// Mate in 10 plies from the root, found at ply 5, is mate in 5 from
		// the node: reached again at ply 3, it is 3+5 = 8 plies from the root.
		{"mate read nearer the root", MateIn(10), 5, 3, MateIn(8)},
		{"mate read at its ply", MateIn(10), 5, 5, MateIn(10)},
		{"mated read nearer the root", MatedIn(10), 5, 3, MatedIn(8)},
		{"mated read deeper", MatedIn(4), 2, 6, MatedIn(8)},
		// The thresholds themselves are mate scores; one inside is not.
		{"threshold", MateInMaxPly, 7, 2, MateInMaxPly + 5},
		{"negative threshold", -MateInMaxPly, 7, 2, -MateInMaxPly - 5},
		{"inside the threshold", MateInMaxPly - 1, 7, 2, MateInMaxPly - 1},
		{"inside the negative threshold", -(MateInMaxPly - 1), 7, 2, -(MateInMaxPly - 1)},
		{"plain score", 35, 9, 1, 35},
		{"draw", Draw, 9, 1, Draw},
	}
	for _, c := range cases {
		stored := ScoreToTT(c.score, c.atPly)
		if got := ScoreFromTT(stored, c.readPly); got != c.want {
			t.Errorf("%s: %d stored at ply %d (as %d), read at ply %d: %d, want %d",
				c.name, c.score, c.atPly, stored, c.readPly, got, c.want)
		}
		if back := ScoreFromTT(stored, c.atPly); back != c.score {
			t.Errorf("%s: round trip at ply %d gives %d, want %d", c.name, c.atPly, back, c.score)
		}
	}
	// Stored mates count from the node: mate in 10 found at ply 5 is mate in 5.
	if got := ScoreToTT(MateIn(10), 5); got != MateIn(5) {
		t.Errorf("stored mate: %d, want %d", got, MateIn(5))
	}
}

func TestAbs(t *testing.T) {
	for _, c := range []struct{ in, want int }{{0, 0}, {7, 7}, {-7, 7}, {-Mate, Mate}, {MatedIn(3), MateIn(3)}} {
		if got := Abs(c.in); got != c.want {
			t.Errorf("Abs(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}
