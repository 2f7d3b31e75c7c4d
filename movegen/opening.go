package movegen

// Random openings for self-play data and for the genfens command: a start
// position of a kind drawn from weights (standard, Chess960, Double Fischer
// Random), followed by random legal moves.

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
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

// VariantMix weighs the start position kinds of openings; weights are relative
// (they need not add up to 1) and must not be negative.
type VariantMix struct {
	Standard, Chess960, DFRC float64
}

// Validate reports a mix that cannot be drawn from: a negative weight, one
// that is not a finite number, or no weight at all.
func (m VariantMix) Validate() error {
	for _, w := range []float64{m.Standard, m.Chess960, m.DFRC} {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %g in %+v: want a finite number", w, m)
		}
	}
	if m.Standard < 0 || m.Chess960 < 0 || m.DFRC < 0 {
		return fmt.Errorf("negative weight in %+v", m)
	}
	if !(m.Standard+m.Chess960+m.DFRC > 0) {
		return errors.New("the weights of standard, chess960 and dfrc starts add up to 0")
	}
	return nil
}

// Pick draws a kind of start from m (which must be valid).
func (m VariantMix) Pick(rng *rand.Rand) Variant {
	rng = orGlobal(rng)
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

// RandomStartFEN returns a start position of kind v, drawn with rng (nil:
// math/rand/v2's global source): for Chess960 and DFRC a random one of
// their 960 and 921600, for Standard (or any other value) the standard
// start.
func RandomStartFEN(v Variant, rng *rand.Rand) string {
	rng = orGlobal(rng)
	var fen string
	var err error
	switch v {
	case Chess960:
		fen, err = Chess960FEN(rng.IntN(chess960Count))
	case DFRC:
		fen, err = DFRCFEN(rng.IntN(chess960Count), rng.IntN(chess960Count))
	default:
		return StartFEN
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
func RandomPlies(pos *Position, fen string, plies int, rng *rand.Rand) error {
	if plies < 0 {
		return fmt.Errorf("%d random plies: want 0 or more", plies)
	}
	rng = orGlobal(rng)
	for range maxOpeningTries {
		if err := pos.SetFEN(fen); err != nil {
			return err
		}
		ok := true
		var l MoveList
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
// plies random legal moves (see RandomPlies), and returns the kind. A mix
// that cannot be drawn from (VariantMix.Validate) is an error.
func RandomOpening(pos *Position, mix VariantMix, plies int, rng *rand.Rand) (Variant, error) {
	if err := mix.Validate(); err != nil {
		return Standard, err
	}
	rng = orGlobal(rng)
	v := mix.Pick(rng)
	return v, RandomPlies(pos, RandomStartFEN(v, rng), plies, rng)
}

// orGlobal returns rng, or a generator over math/rand/v2's global source
// when rng is nil: every function here that draws takes nil for that.
func orGlobal(rng *rand.Rand) *rand.Rand {
	if rng == nil {
		return rand.New(globalSource{})
	}
	return rng
}

// globalSource is math/rand/v2's global generator as a Source.
type globalSource struct{}

func (globalSource) Uint64() uint64 { return rand.Uint64() }
