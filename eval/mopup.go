package eval

import "github.com/kingrook/kingrook/movegen"

// The bare-king term. Against a lone king, a queen or a rook wins, but the
// mate lies deeper than a short search sees, and neither evaluation grades
// the way there: the network scores K+R v K about alike wherever the kings
// stand. MopUp gives the stronger side the gradient that leads to the mate:
// the defending king driven towards an edge, the kings brought together.
const (
	mopUpEdge  = 16 // per step of the bare king from the centre (0-6 steps)
	mopUpClose = 8  // per step the kings are closer than the farthest (0-6 steps)
)

// MopUp returns the bare-king term from the side to move's view: when one
// side has its king alone and the other a queen or a rook, the side with
// the material gains mopUpEdge for each step of the bare king from the
// four centre squares (file and rank steps added) and mopUpClose for each
// step the kings stand closer than 7 apart. It is 0 in every other position,
// and costs two tests there.
func MopUp(pos *movegen.Position) int {
	for _, bare := range [2]color{white, black} {
		if pos.ByColor(bare).More() {
			continue
		}
		strong := bare ^ 1
		if pos.Pieces(strong, movegen.Queen)|pos.Pieces(strong, movegen.Rook) == 0 {
			return 0
		}
		k, sk := pos.KingSquare(bare), pos.KingSquare(strong)
		fromCentre := max(3-k.File(), k.File()-4) + max(3-k.Rank(), k.Rank()-4)
		v := mopUpEdge*fromCentre + mopUpClose*(7-distance(k, sk))
		if pos.SideToMove() == bare {
			return -v
		}
		return v
	}
	return 0
}
