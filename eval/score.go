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

// MateMoves converts a mate score to UCI's "mate N" (moves, negative when
// being mated).
func MateMoves(s int) int {
	if s > 0 {
		return (Mate - s + 1) / 2
	}
	return -(Mate + s) / 2
}
