// Package nnue is Kingrook's efficiently updatable neural network evaluation.
//
// # Network
//
// A perspective network with one hidden layer:
//
//	768 inputs per side  ->  H int16 accumulator (per side)  ->  activation  ->  2H  ->  1 (of B output buckets)
//
// Each side has its own accumulator over the same first-layer weights. An
// input is a piece on a square seen from a side: index
//
//	(piece colour == perspective ? 0 : 384) + (piece type - 1)*64 + square
//
// with the square mirrored vertically (a1 <-> a8) for Black's perspective, so
// every side sees itself as White. The output layer reads the side to move's
// accumulator first and the other side's second, so the net scores the
// position for the side to move and a colour-flipped position gets exactly
// the same score. The activation is clipped ReLU, clamp(x, 0, QA), or squared
// clipped ReLU, clamp(x, 0, QA)^2, as the file's header says.
//
// A net's Layout may mirror the inputs by the king's half of the board:
// in a KingMirrored net, each perspective's squares are mirrored across the
// d/e line (a1 <-> h1) whenever that perspective's own king stands on files
// a-d, so every side sees its own king on files e-h (KingMirror). The same
// first-layer weights then serve both halves of the board, and a position
// and its mirror image across the d/e line score the same. A KingBuckets
// net is mirrored so and has KingBuckets sets of first-layer weights: each
// perspective reads the set of its own king's bucket (Net.KingBucket of
// KingSquare, the square the king is seen on).
//
// The output layer may have B buckets (1 to MaxBuckets), each its own 2H
// weights and bias, chosen by the number of pieces on the board (BucketOf):
// one net, but a different last layer for the middlegame and for each stage
// of the endgame. The accumulator counts the pieces, so Evaluate needs no
// position.
//
// All inference is integer: first-layer weights and biases are int16 scaled
// by QA, output weights int16 scaled by QB, the output biases int32 scaled by
// QA*QB; the score in centipawns is output*Scale/(QA*QB). See Load for the
// byte layout of a .nnue file.
//
// # Use in a search
//
// A Net is read-only and shared by every thread. Each search worker owns a
// stack of accumulators, one per ply, allocated once:
//
//	net := nnue.Default()                  // or nnue.Load(r) for an EvalFile
//	stack := net.NewAccumulators(maxPly+1) // one backing array, no allocation afterwards
//
//	stack[0].Refresh(net, rootPos)         // at the root of each search
//
//	// before pos.Make(m) at ply p (pos is still the position BEFORE the move):
//	stack[p+1].Update(net, &stack[p], pos, m)
//	pos.Make(m)
//	... search ...
//	pos.Unmake()                           // nothing to undo: stack[p] is untouched
//
//	// a null move changes no piece: copy the parent (or reuse its index)
//	stack[p+1].CopyFrom(&stack[p])
//
//	score := net.Evaluate(&stack[p], pos.SideToMove()) // centipawns, side to move's view
//
// Update computes the feature changes of the move from the position before
// it is made (normal moves, captures, promotions with or without capture, en
// passant, and every castling form, encoded as king takes own rook, with the
// king or rook possibly staying put or landing on the other's square) and
// writes parent+changes into the child in one pass. Refresh and any sequence
// of Updates give bit-identical accumulators (tested along random standard,
// Chess960 and DFRC games). An accumulator belongs to the Net it was made by:
// after loading a net with another H, allocate a new stack. Update and
// Evaluate never allocate; Refresh costs about ten Updates, so a searcher
// refreshes only at the root, and where a mirrored layout needs it: a move
// that takes a king across the d/e line, or into another king bucket
// (Crosses; a king move or a castling, which in Chess960 may cross from
// either side) changes every input of the mover's perspective, and Update
// refreshes that perspective from the position. A searcher that applies Deltas lazily (Apply, which has no
// position) makes such moves' updates while it has their position: Update
// before the move is made, ApplyMade after.
//
// Evaluate has no tempo bonus and no 50-move fade, and is bounded by
// MaxScore. The shipped net's centipawns run about 1.3 times larger than the
// hand-written evaluation's for the same expected result (README.md in this
// folder: how it was trained and measured), which matters for search
// margins tuned on the hand-written scale.
//
// # SIMD
//
// Built with GOEXPERIMENT=simd on amd64 and run on a CPU with AVX2, the
// accumulator updates and the output layer use simd/archsimd (16 int16 lanes
// per operation, VPMADDWD for the dot product); every other build uses the
// plain Go loops. Both give identical accumulators and scores (tested).
package nnue

import (
	"slices"

	"github.com/kingrook/kingrook/movegen"
)

// Fixed architecture constants.
const (
	// Inputs is the number of input features per perspective: 2 colours x 6
	// piece types x 64 squares.
	Inputs = 768
	// MaxHidden bounds H (the accumulator width) a file may declare.
	MaxHidden = 1024
	// HiddenAlign: H must be a multiple of this (the SIMD width in int16s).
	HiddenAlign = 16
	// MaxScore bounds Evaluate's results, well inside the search's
	// non-mate range.
	MaxScore = 20000
	// MaxBuckets bounds the number of output buckets a file may declare.
	MaxBuckets = 16
	// MaxKingBuckets bounds the number of king buckets (first-layer weight
	// sets) of a KingBuckets net.
	MaxKingBuckets = 16
	// KingSquares is the number of squares a KingBuckets net's map gives
	// a bucket for: the half board a king is seen on (files e-h), 8 ranks
	// of 4.
	KingSquares = 32
)

// BucketOf returns the output bucket of a position with pieces pieces (both
// colours, kings included) for a net of b buckets: the 31 counts 2..32 split
// into b bands of nearly equal size, (pieces-2)*b/31, so that with 8 buckets
// 2-5 pieces use bucket 0 and 30-32 bucket 7. Counts outside 2..32 (DFRC and
// promotions keep at most 32) are clamped.
func BucketOf(pieces, b int) int {
	if b <= 1 {
		return 0
	}
	return min(max(pieces-2, 0)*b/31, b-1)
}

// Layout is how a net's inputs see the board.
type Layout uint32

// The layouts a file can declare.
const (
	// Plain: the inputs are FeatureIndex's, as they are.
	Plain Layout = 0
	// KingMirrored: each perspective's squares are mirrored across the d/e
	// line while its own king stands on files a-d (KingMirror).
	KingMirrored Layout = 1
	// KingBuckets: KingMirrored, and each perspective reads the first-layer
	// weights of its king's bucket (Net.KingBucket of KingSquare): inputs
	// bucket*Inputs .. bucket*Inputs+Inputs-1.
	KingBuckets Layout = 2
)

// String returns the layout's name as the trainer's --layout takes it:
// plain, mirrored or kingbuckets.
func (l Layout) String() string {
	switch l {
	case Plain:
		return "plain"
	case KingMirrored:
		return "mirrored"
	case KingBuckets:
		return "kingbuckets"
	}
	return "unknown"
}

// KingSquare returns where perspective c's own king on king stands as a
// KingBuckets net sees it, an index into Net.KingBucket: the square from
// c's side (ranks flipped for Black), mirrored onto files e-h, as rank*4 +
// file-4 (0 is e1, 3 h1, 31 h8).
func KingSquare(c movegen.Color, king movegen.Square) int {
	sq := king ^ movegen.Square(56*uint8(c)) ^ KingMirror(king)
	return int(sq.Rank())*4 + int(sq.File()) - 4
}

// KingMirror returns what a KingMirrored net XORs into the squares of a
// perspective whose own king stands on king: 7 (a <-> h, b <-> g, ...) when
// the king is on files a-d, else 0. The feature index of a piece moves the
// same way: FeatureIndex(c, pc, sq^x) = FeatureIndex(c, pc, sq) ^ int(x).
func KingMirror(king movegen.Square) movegen.Square { return (^king >> 2 & 1) * 7 }

// Activation is the hidden layer's non-linearity.
type Activation uint32

// The activations a file can declare.
const (
	CReLU  Activation = 0 // clamp(x, 0, QA)
	SCReLU Activation = 1 // clamp(x, 0, QA)^2, rescaled by 1/QA
)

// String returns the activation's name: crelu or screlu.
func (a Activation) String() string {
	switch a {
	case CReLU:
		return "crelu"
	case SCReLU:
		return "screlu"
	}
	return "unknown"
}

// Net is a loaded network. It is read-only after Load and safe to share
// between threads.
type Net struct {
	H      int        // accumulator width per perspective
	Act    Activation // hidden activation
	QA, QB int32      // quantisation scales of the first and output layers
	Scale  int32      // centipawns per unit of the float network's output
	Layout Layout     // how the inputs see the board
	// KingBucket maps KingSquare to the king bucket of a KingBuckets net
	// (all zero in the other layouts); the net has 1 + the largest of them
	// (KingBuckets) sets of Inputs first-layer rows.
	KingBucket [KingSquares]uint8
	FeatureW   []int16 // InputRows rows of H weights: row f is FeatureW[f*H : f*H+H]
	FeatureB   []int16 // H biases
	OutputW    []int16 // B rows of 2H weights: side to move's half first, then the other side's
	OutputB    []int32 // B output biases, scaled by QA*QB (B = len(OutputB), the bucket count)
	simdOK     bool    // this build and CPU can run the SIMD path for this H
	forceNoSIM bool    // tests and benchmarks: use the plain Go path
}

// FeatureIndex returns the input index of piece pc on square sq seen from
// perspective persp.
func FeatureIndex(persp movegen.Color, pc movegen.Piece, sq movegen.Square) int {
	idx := int(pc.Type()-1)*64 + int(sq^movegen.Square(56*uint8(persp)))
	if pc.Color() != persp {
		idx += 384
	}
	return idx
}

// Feature returns the input index of piece pc on square sq seen from
// perspective persp, whose own king stands on king, under n's layout.
func (n *Net) Feature(persp movegen.Color, pc movegen.Piece, sq, king movegen.Square) int {
	x, base := n.kingView(persp, king)
	return int(base) + FeatureIndex(persp, pc, sq^x)
}

// KingBuckets returns the number of king buckets: 1 but in a KingBuckets
// net.
func (n *Net) KingBuckets() int {
	if n.Layout != KingBuckets {
		return 1
	}
	return int(slices.Max(n.KingBucket[:])) + 1
}

// InputRows returns the number of first-layer rows: Inputs per king bucket.
func (n *Net) InputRows() int { return Inputs * n.KingBuckets() }

// kingView returns how perspective c, whose own king stands on king, sees
// the inputs under n's layout: what its squares are XORed with (KingMirror
// in the mirrored layouts, else 0) and the first row of its king bucket.
func (n *Net) kingView(c movegen.Color, king movegen.Square) (movegen.Square, int32) {
	switch n.Layout {
	case Plain:
		return 0, 0
	case KingMirrored:
		return KingMirror(king), 0
	}
	return KingMirror(king), int32(n.KingBucket[KingSquare(c, king)]) * Inputs
}

// Crosses tells whether d, a move's Delta, changes how the mover's
// perspective sees the inputs: a king move across the d/e line in a
// KingMirrored net, or into another half or king bucket in a KingBuckets
// net (never in a plain one). Every input of that perspective changes, so
// Update and ApplyMade refresh it, and Apply, which has no position, must
// not be given d.
func (n *Net) Crosses(d Delta) bool {
	if n.Layout == Plain || d.Sub[0].Piece.Type() != movegen.King {
		return false
	}
	if n.Layout == KingMirrored {
		return (d.Sub[0].Square^d.Add[0].Square)&4 != 0
	}
	c := d.Sub[0].Piece.Color()
	x0, b0 := n.kingView(c, d.Sub[0].Square)
	x1, b1 := n.kingView(c, d.Add[0].Square)
	return x0 != x1 || b0 != b1
}

// MirrorFeature returns the index of the same piece seen from the other
// perspective: f = FeatureIndex(White, pc, sq) gives FeatureIndex(Black,
// pc, sq) and the other way round.
func MirrorFeature(f int) int {
	if f >= 384 {
		return (f - 384) ^ 56
	}
	return (f + 384) ^ 56
}

// AppendFeatures appends the White-perspective feature index of every piece
// of pos to dst (the Black-perspective ones are MirrorFeature of these), in
// the Plain layout whatever the net's: RefreshFeatures takes them to n's.
func AppendFeatures(dst []uint16, pos *movegen.Position) []uint16 {
	occ := pos.Occupied()
	for occ != 0 {
		sq := occ.PopLSB()
		dst = append(dst, uint16(FeatureIndex(movegen.White, pos.PieceOn(sq), sq)))
	}
	return dst
}

// Evaluate returns the net's score of the position whose accumulator is acc,
// in centipawns from stm's point of view (stm is the side to move), within
// [-MaxScore, MaxScore]. It has no tempo bonus or 50-move fade of its own.
func (n *Net) Evaluate(acc *Accumulator, stm movegen.Color) int {
	us, them := acc.v[stm], acc.v[stm^1]
	b := BucketOf(int(acc.pieces), len(n.OutputB))
	w := n.OutputW[b*2*n.H : (b+1)*2*n.H]
	var sum int64
	if n.useSIMD() {
		sum = outputSIMD(n, us, them, w)
	} else {
		sum = outputGeneric(n, us, them, w)
	}
	return n.finish(sum, b)
}

// finish turns the output layer's sum (without the bias, in units of
// QA*QB) of bucket b into the score.
func (n *Net) finish(sum int64, b int) int {
	sum += int64(n.OutputB[b])
	var cp int64
	if n.QA == 255 && n.QB == 256 {
		// Every net Kingrook makes: a constant divisor compiles to a
		// multiplication, where a divisor read from the net is an IDIV of
		// some 40 cycles. The quotient is the same.
		cp = sum * int64(n.Scale) / (255 * 256)
	} else {
		cp = sum * int64(n.Scale) / (int64(n.QA) * int64(n.QB))
	}
	return int(min(max(cp, -MaxScore), MaxScore))
}

// Buckets returns the number of output buckets.
func (n *Net) Buckets() int { return len(n.OutputB) }

// outputGeneric is the output layer in plain Go: the activated accumulators
// dotted with one bucket's output weights w (2H), without the bias, in units
// of QA*QB. Sums of 16 lanes fit in int32 (the loader bounds QA and the
// weights).
func outputGeneric(n *Net, us, them, w []int16) int64 {
	h := n.H
	wu, wt := w[:h], w[h:2*h]
	us, them = us[:h], them[:h]
	qa := int32(n.QA)
	var s int64
	for i := 0; i+16 <= h; i += 16 {
		u, t := (*[16]int16)(us[i:i+16]), (*[16]int16)(them[i:i+16])
		a, b := (*[16]int16)(wu[i:i+16]), (*[16]int16)(wt[i:i+16])
		var c int32
		if n.Act == SCReLU {
			for j := range 16 {
				x := min(max(int32(u[j]), 0), qa)
				y := min(max(int32(t[j]), 0), qa)
				c += x*x*int32(a[j]) + y*y*int32(b[j])
			}
		} else {
			for j := range 16 {
				x := min(max(int32(u[j]), 0), qa)
				y := min(max(int32(t[j]), 0), qa)
				c += x*int32(a[j]) + y*int32(b[j])
			}
		}
		s += int64(c)
	}
	if n.Act == SCReLU {
		s = n.divQA(s)
	}
	return s
}

// divQA divides a squared clipped ReLU sum by QA: by a constant for QA 255
// (every net Kingrook makes), which compiles to a multiplication where a
// divisor read from the net is an IDIV of some 40 cycles. The same quotient.
func (n *Net) divQA(s int64) int64 {
	if n.QA == 255 {
		return s / 255
	}
	return s / int64(n.QA)
}

// EvaluatePosition refreshes a scratch accumulator and evaluates pos, in
// centipawns from the side to move's view: for displays and tests, not for
// the search (it allocates).
func (n *Net) EvaluatePosition(pos *movegen.Position) int {
	acc := n.newAccumulators(1, false)
	acc[0].Refresh(n, pos)
	return n.Evaluate(&acc[0], pos.SideToMove())
}

func (n *Net) useSIMD() bool { return n.simdOK && !n.forceNoSIM }

// SIMD tells whether this net runs on the SIMD path (GOEXPERIMENT=simd
// build, amd64 with AVX2).
func (n *Net) SIMD() bool { return n.useSIMD() }
