// Package eval is Kingrook's static evaluation: a tapered middlegame/endgame
// score from the side to move's point of view, in centipawns.
package eval

// Score constants shared by the search and the transposition table.
const (
	// Mate is the score of delivering mate now; mate in n plies is Mate-n.
	Mate = 32000
	// Infinite bounds every score.
	Infinite = 32001
	// MaxPly is the deepest ply the search reaches.
	MaxPly = 128
	// MateInMaxPly: scores at or beyond it (in absolute value) are mates.
	MateInMaxPly = Mate - MaxPly
	// Draw is the score of a drawn position.
	Draw = 0
)

// MatedIn returns the score of being mated in ply plies.
func MatedIn(ply int) int { return -Mate + ply }

// MateIn returns the score of mating in ply plies.
func MateIn(ply int) int { return Mate - ply }

// IsMate tells whether s is a mate score (for either side).
func IsMate(s int) bool { return s >= MateInMaxPly || s <= -MateInMaxPly }

// Abs returns the magnitude of a score (or of any other int: a margin, a
// distance to zeroing).
func Abs(s int) int {
	if s < 0 {
		return -s
	}
	return s
}

// MateMoves converts a mate score to UCI's "mate N" (moves, negative when
// being mated).
func MateMoves(s int) int {
	if s > 0 {
		return (Mate - s + 1) / 2
	}
	return -(Mate + s) / 2
}

// ScoreToTT converts a score found at ply, whose mate distance counts from
// the root, to the form the transposition table keeps: mate distance counted
// from the node itself, so that the entry stays right when the position is
// reached at another ply. Scores that are not mates are kept as they are.
func ScoreToTT(s, ply int) int {
	switch {
	case s >= MateInMaxPly:
		return s + ply
	case s <= -MateInMaxPly:
		return s - ply
	}
	return s
}

// ScoreFromTT converts a score read from the transposition table back to a
// mate distance from the root for a node at ply (the inverse of ScoreToTT).
func ScoreFromTT(s, ply int) int {
	switch {
	case s >= MateInMaxPly:
		return s - ply
	case s <= -MateInMaxPly:
		return s + ply
	}
	return s
}
