package selfplay

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/kingrook/kingrook/movegen"
)

// Variant is a kind of start position.
type Variant int

// Start position kinds.
const (
	Standard Variant = iota // the standard start
	Chess960                // one of the 960 arrangements, the same for both sides
	DFRC                    // Double Fischer Random: each side its own arrangement
)

func (v Variant) String() string {
	switch v {
	case Standard:
		return "standard"
	case Chess960:
		return "chess960"
	case DFRC:
		return "dfrc"
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

// Mix weighs the start position kinds of openings; weights are relative
// (they need not add up to 1) and must not be negative.
type Mix struct {
	Standard, Chess960, DFRC float64
}

// Validate reports a mix that cannot be drawn from.
func (m Mix) Validate() error {
	if m.Standard < 0 || m.Chess960 < 0 || m.DFRC < 0 {
		return fmt.Errorf("negative weight in %+v", m)
	}
	if !(m.Standard+m.Chess960+m.DFRC > 0) {
		return errors.New("the weights of standard, chess960 and dfrc starts add up to 0")
	}
	return nil
}

// Pick draws a kind of start from m (which must be valid).
func (m Mix) Pick(rng *rand.Rand) Variant {
	x := rng.Float64() * (m.Standard + m.Chess960 + m.DFRC)
	switch {
	case x < m.Standard:
		return Standard
	case x < m.Standard+m.Chess960:
		return Chess960
	}
	return DFRC
}

// chess960Count is the number of Chess960 back-rank arrangements.
const chess960Count = 960

// StartFEN returns a start position of kind v, drawn with rng.
func StartFEN(v Variant, rng *rand.Rand) string {
	var fen string
	var err error
	switch v {
	case Chess960:
		fen, err = movegen.Chess960FEN(rng.IntN(chess960Count))
	case DFRC:
		fen, err = movegen.DFRCFEN(rng.IntN(chess960Count), rng.IntN(chess960Count))
	default:
		return movegen.StartFEN
	}
	if err != nil {
		panic(err) // unreachable: the numbers are in range
	}
	return fen
}

// maxOpeningTries bounds the redraws of RandomPlies.
const maxOpeningTries = 1000

// RandomPlies sets pos to fen followed by plies random legal moves drawn
// with rng, redrawing the moves when they end the game (no legal move, or a
// draw by rule) before or at the last one. The history of the moves is
// kept in pos (for repetitions); pos.FEN gives the opening.
func RandomPlies(pos *movegen.Position, fen string, plies int, rng *rand.Rand) error {
	for range maxOpeningTries {
		if err := pos.SetFEN(fen); err != nil {
			return err
		}
		ok := true
		var l movegen.MoveList
		for i := 0; i < plies && ok; i++ {
			l.Clear()
			pos.GenerateLegal(&l)
			if l.N == 0 {
				ok = false
				break
			}
			pos.Make(l.At(rng.IntN(l.N)))
		}
		if ok && pos.HasLegalMove() && !pos.IsDrawByRule() {
			return nil
		}
	}
	return fmt.Errorf("no playable position %d random plies after %s", plies, fen)
}

// RandomOpening sets pos to a start of a kind drawn from mix, followed by
// plies random legal moves (see RandomPlies), and returns the kind.
func RandomOpening(pos *movegen.Position, mix Mix, plies int, rng *rand.Rand) (Variant, error) {
	v := mix.Pick(rng)
	return v, RandomPlies(pos, StartFEN(v, rng), plies, rng)
}
