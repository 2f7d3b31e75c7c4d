package syzygy

import "github.com/kingrook/kingrook/movegen"

// Index tables of the Syzygy position encoding, built once by init from the
// geometry of the board. Squares are numbered a1=0 ... h8=63.
//
// A table index is a mixed-radix number: the leading group (two kings, three
// unique pieces, or the leading pawns) gives the most significant digit in
// an order the file chooses, every further group of like pieces a digit
// counting the ways to place it on the squares the earlier groups left free.
var (
	// binomial[k][n] is n choose k.
	binomial [8][64]uint64
	// triangle numbers the a1-d1-d4 triangle: the six squares below the
	// diagonal 0..5, then the four diagonal squares a1, b2, c3, d4 6..9.
	triangle [64]int
	// belowDiag numbers the 28 squares below the a1-h8 diagonal 0..27.
	belowDiag [64]int
	// kingPair numbers the 462 placements of two kings with the first in
	// the triangle (and the second not above the diagonal when the first is
	// on it); -1 marks an impossible pair.
	kingPair [10][64]int
	// pawnRank numbers the squares a2-h7 for pawns: edge files and low ranks
	// come first from the top (a2=47, h2=46, a3=45 ...). The leading pawn is
	// the one with the highest number.
	pawnRank [64]int
	// leadPawnIdx[n][s] is the first index of n leading pawns with the
	// leader on s (files a-d); leadPawnsSize[n][f] the count for file f.
	leadPawnIdx   [6][64]uint64
	leadPawnsSize [6][4]uint64
)

// diag is the signed distance of s from the a1-h8 diagonal: negative below
// (file > rank), zero on it, positive above.
func diag(s int) int { return s>>3 - s&7 }

func init() {
	binomial[0][0] = 1
	for n := 1; n < 64; n++ {
		for k := 0; k < 8 && k <= n; k++ {
			var v uint64
			if k > 0 {
				v += binomial[k-1][n-1]
			}
			if k < n {
				v += binomial[k][n-1]
			}
			binomial[k][n] = v
		}
	}

	code := 0
	for s := 0; s < 64; s++ {
		belowDiag[s] = -1
		if diag(s) < 0 {
			belowDiag[s] = code
			code++
		}
	}

	tri := []int{0, 1, 2, 3, 9, 10, 11, 18, 19, 27} // a1 b1 c1 d1 b2 c2 d2 c3 d3 d4
	for s := range triangle {
		triangle[s] = -1
	}
	code = 0
	for _, s := range tri {
		if diag(s) < 0 {
			triangle[s] = code
			code++
		}
	}
	for _, s := range tri {
		if diag(s) == 0 {
			triangle[s] = code
			code++
		}
	}

	type pair struct{ t, s int }
	var onDiag []pair
	code = 0
	for t := 0; t < 10; t++ {
		k1 := -1
		for _, s := range tri {
			if triangle[s] == t {
				k1 = s
			}
		}
		for s := range kingPair[t] {
			kingPair[t][s] = -1
		}
		near := movegen.KingAttacks(movegen.Square(k1)) | movegen.SquareBB(movegen.Square(k1))
		for k2 := 0; k2 < 64; k2++ {
			switch {
			case near.Has(movegen.Square(k2)):
			case diag(k1) == 0 && diag(k2) > 0:
			case diag(k1) == 0 && diag(k2) == 0:
				onDiag = append(onDiag, pair{t, k2})
			default:
				kingPair[t][k2] = code
				code++
			}
		}
	}
	for _, p := range onDiag {
		kingPair[p.t][p.s] = code
		code++
	}

	avail := 47
	for f := 0; f < 4; f++ {
		for r := 1; r < 7; r++ {
			pawnRank[r*8+f] = avail
			pawnRank[r*8+7-f] = avail - 1
			avail -= 2
		}
	}
	for n := 1; n <= 5; n++ {
		for f := 0; f < 4; f++ {
			var idx uint64
			for r := 1; r < 7; r++ {
				s := r*8 + f
				leadPawnIdx[n][s] = idx
				idx += binomial[n-1][pawnRank[s]]
			}
			leadPawnsSize[n][f] = idx
		}
	}
}
