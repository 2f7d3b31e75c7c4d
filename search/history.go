package search

import "github.com/kingrook/kingrook/movegen"

// Move-ordering statistics, one set per worker, kept between searches of a
// game and cleared by NewGame.

// pieceToHistory is indexed by [piece][to square].
type pieceToHistory [16][64]int16

type histories struct {
	butterfly [2][64][64]int16          // [color][from][to], quiet moves
	capture   [16][64][8]int16          // [piece][to][captured type]
	counter   [16][64]movegen.Move      // [piece][to] of the previous move
	cont      [2][16][64]pieceToHistory // [capture?][prev piece][prev to][piece][to]
}

func (h *histories) clear() { *h = histories{} }

// gravity updates a history entry towards bonus, saturating at historyMax.
func gravity(v *int16, bonus int) {
	bonus = max(-historyMax, min(historyMax, bonus))
	*v += int16(bonus - int(*v)*abs(bonus)/historyMax)
}

func historyBonus(depth int) int {
	return min(historyBonusMax, historyBonusMul*depth-historyBonusSub)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
