package nnue

import (
	"unsafe"

	"github.com/kingrook/kingrook/movegen"
)

// Accumulator holds the first layer's output for both perspectives (White's
// at index 0, Black's at 1) of one position. Make them with NewAccumulators;
// the zero value is unusable.
type Accumulator struct {
	v      [2][]int16
	pieces int32             // pieces on the board (both colours), for the output bucket
	mirror [2]movegen.Square // what each perspective's squares are XORed with: 0, or 7 in a mirrored layout with that side's king on files a-d
	base   [2]int32          // each perspective's first input row: its king bucket times Inputs (0 but in a KingBuckets net)
	cache  *refreshCache     // shared by the accumulators of one NewAccumulators call; nil in a Plain net
}

// NewAccumulators returns k accumulators for n sharing one backing array
// (one allocation), meant as a searcher's per-ply stack. In a net whose
// inputs depend on the king's square (not Plain) they share a refresh
// cache of n's values too, so they belong to one searcher (another net
// given to their methods refreshes without it).
func (n *Net) NewAccumulators(k int) []Accumulator {
	return n.newAccumulators(k, n.Layout != Plain)
}

// newAccumulators is NewAccumulators, with a refresh cache or without.
func (n *Net) newAccumulators(k int, cached bool) []Accumulator {
	back := make([]int16, 2*k*n.H)
	accs := make([]Accumulator, k)
	var cache *refreshCache
	if cached {
		cache = n.newRefreshCache()
	}
	for i := range accs {
		o := 2 * i * n.H
		accs[i].v[0] = back[o : o+n.H : o+n.H]
		accs[i].v[1] = back[o+n.H : o+2*n.H : o+2*n.H]
		accs[i].cache = cache
	}
	return accs
}

// refreshCache holds, for each perspective and each way it can see the
// board (its king bucket and half, kingView), the perspective's
// accumulator of the last position it was refreshed in with that view,
// and that position's pieces. A king move that Crosses then costs only the
// rows of the pieces that differ from that position's, not one row per
// piece on the board (the idea is known as "Finny tables").
type refreshCache struct {
	net     *Net         // whose rows the entries sum
	views   int          // views per perspective: 2 per king bucket (the halves)
	entries []cacheEntry // perspective c, view v at c*views+v
}

type cacheEntry struct {
	acc    []int16                // the first layer's output for pieces
	pieces [2][6]movegen.Bitboard // by colour and piece type (Pawn first)
}

// newRefreshCache returns n's cache with every entry the empty board: the
// biases and no pieces.
func (n *Net) newRefreshCache() *refreshCache {
	c := &refreshCache{net: n, views: 2 * n.KingBuckets()}
	c.entries = make([]cacheEntry, 2*c.views)
	back := make([]int16, len(c.entries)*n.H)
	for i := range c.entries {
		c.entries[i].acc = back[i*n.H : (i+1)*n.H : (i+1)*n.H]
		copy(c.entries[i].acc, n.FeatureB)
	}
	return c
}

// Values returns the accumulator of perspective c (read-only use).
func (a *Accumulator) Values(c movegen.Color) []int16 { return a.v[c] }

// CopyFrom sets a to src (for a null move).
func (a *Accumulator) CopyFrom(src *Accumulator) {
	copy(a.v[0], src.v[0])
	copy(a.v[1], src.v[1])
	a.pieces = src.pieces
	a.mirror, a.base = src.mirror, src.base
}

// Pieces returns the number of pieces of the accumulator's position.
func (a *Accumulator) Pieces() int { return int(a.pieces) }

// Refresh computes a from scratch: the biases plus the rows of every piece
// of pos, for both perspectives (without the refresh cache).
func (a *Accumulator) Refresh(n *Net, pos *movegen.Position) {
	a.pieces = int32(pos.Occupied().Count())
	a.refreshSide(n, pos, movegen.White, nil, false)
	a.refreshSide(n, pos, movegen.Black, nil, false)
}

// refreshSide computes perspective c for the position pos changed by d
// (nil: pos itself): the pieces of pos but those on d's Sub squares, then
// d's Add pieces. With cached, from the refresh cache's entry of c's view
// of that position (refreshCached) where a has a cache of n; else from
// scratch.
func (a *Accumulator) refreshSide(n *Net, pos *movegen.Position, c movegen.Color, d *Delta, cached bool) {
	occ, king := pos.Occupied(), pos.KingSquare(c)
	var add []PieceSquare
	if d != nil {
		for _, s := range d.Sub[:d.NSub] {
			occ &^= movegen.SquareBB(s.Square)
		}
		add = d.Add[:d.NAdd]
		if d.Add[0].Piece == movegen.MakePiece(c, movegen.King) {
			king = d.Add[0].Square
		}
	}
	x, base := n.kingView(c, king)
	a.mirror[c], a.base[c] = x, base
	if cached && a.cache != nil && a.cache.net == n {
		a.refreshCached(n, pos, c, d)
		return
	}
	dst := a.v[c]
	copy(dst, n.FeatureB)
	for occ != 0 {
		sq := occ.PopLSB()
		n.addRow(dst, int(base)+FeatureIndex(c, pos.PieceOn(sq), sq^x))
	}
	for _, ps := range add {
		n.addRow(dst, int(base)+FeatureIndex(c, ps.Piece, ps.Square^x))
	}
}

// refreshCached is refreshSide through the refresh cache, with a.mirror[c]
// and a.base[c] already set to c's view of the position: it brings the
// view's entry to the position (the rows of the pieces that left or came
// since the entry's position), then copies it to a.
func (a *Accumulator) refreshCached(n *Net, pos *movegen.Position, c movegen.Color, d *Delta) {
	var now [2][6]movegen.Bitboard
	for col := movegen.White; col <= movegen.Black; col++ {
		for t := movegen.Pawn; t <= movegen.King; t++ {
			now[col][t-1] = pos.Pieces(col, t)
		}
	}
	if d != nil {
		for _, s := range d.Sub[:d.NSub] {
			now[s.Piece.Color()][s.Piece.Type()-1] &^= movegen.SquareBB(s.Square)
		}
		for _, s := range d.Add[:d.NAdd] {
			now[s.Piece.Color()][s.Piece.Type()-1] |= movegen.SquareBB(s.Square)
		}
	}
	x, base := a.mirror[c], int(a.base[c])
	view := int(base)/Inputs*2 + int(x&1)
	e := &a.cache.entries[int(c)*a.cache.views+view]
	var add, sub [32][]int16 // rows; at most 32 pieces come or go
	na, ns := 0, 0
	for col := movegen.White; col <= movegen.Black; col++ {
		for t := movegen.Pawn; t <= movegen.King; t++ {
			pc := movegen.MakePiece(col, t)
			was, is := e.pieces[col][t-1], now[col][t-1]
			for b := was &^ is; b != 0; ns++ {
				sub[ns] = n.row(base + FeatureIndex(c, pc, b.PopLSB()^x))
			}
			for b := is &^ was; b != 0; na++ {
				add[na] = n.row(base + FeatureIndex(c, pc, b.PopLSB()^x))
			}
		}
	}
	e.pieces = now
	acc, simd := e.acc, n.useSIMD()
	for ; na >= 2 && ns >= 2; na, ns = na-2, ns-2 {
		if simd {
			addAddSubSubSIMD(acc, acc, add[na-1], add[na-2], sub[ns-1], sub[ns-2])
		} else {
			addAddSubSubGeneric(acc, acc, add[na-1], add[na-2], sub[ns-1], sub[ns-2])
		}
	}
	for ; na >= 1 && ns >= 1; na, ns = na-1, ns-1 {
		if simd {
			addSubSIMD(acc, acc, add[na-1], sub[ns-1])
		} else {
			addSubGeneric(acc, acc, add[na-1], sub[ns-1])
		}
	}
	for ; na >= 1; na-- {
		if simd {
			addSIMD(acc, add[na-1])
		} else {
			addGeneric(acc, add[na-1])
		}
	}
	for ; ns >= 1; ns-- {
		if simd {
			subSIMD(acc, sub[ns-1])
		} else {
			subGeneric(acc, sub[ns-1])
		}
	}
	copy(a.v[c], acc)
}

func (n *Net) row(f int) []int16 { return n.FeatureW[f*n.H : f*n.H+n.H] }

func (n *Net) addRow(dst []int16, f int) {
	if n.useSIMD() {
		addSIMD(dst, n.row(f))
		return
	}
	addGeneric(dst, n.row(f))
}

// Delta is the change of input features a move makes: pieces removed from
// and put on squares, at most two of each (castling).
type Delta struct {
	NAdd, NSub int
	Add, Sub   [2]PieceSquare
}

// PieceSquare is one input: a piece on a square.
type PieceSquare struct {
	Piece  movegen.Piece
	Square movegen.Square
}

// MoveDelta returns the feature changes of legal move m in pos, the
// position before the move is made.
func MoveDelta(pos *movegen.Position, m movegen.Move) Delta {
	var d Delta
	d.SetMove(pos, m)
	return d
}

// SetMove sets d to the feature changes of legal move m in pos, the
// position before the move is made (MoveDelta in place: the search fills
// its per-ply Delta so, with no copy of a Delta just written, whose wide
// loads would wait for the narrow stores that wrote it).
func (d *Delta) SetMove(pos *movegen.Position, m movegen.Move) {
	*d = Delta{}
	from, to := m.From(), m.To()
	pc := pos.PieceOn(from)
	switch m.Kind() {
	case movegen.Castling:
		rook := pos.PieceOn(to)
		kTo, rTo := m.CastlingKingTarget(), m.CastlingRookTarget()
		d.Sub = [2]PieceSquare{{pc, from}, {rook, to}}
		d.Add = [2]PieceSquare{{pc, kTo}, {rook, rTo}}
		d.NSub, d.NAdd = 2, 2
		// A king or rook that stays put is removed and put back: skip both.
		if kTo == from {
			d.Sub[0], d.Add[0] = d.Sub[1], d.Add[1]
			d.NSub, d.NAdd = 1, 1
		} else if rTo == to {
			d.NSub, d.NAdd = 1, 1
		}
	case movegen.EnPassant:
		d.Sub = [2]PieceSquare{{pc, from}, {pos.PieceOn(to ^ 8), to ^ 8}}
		d.Add[0] = PieceSquare{pc, to}
		d.NSub, d.NAdd = 2, 1
	default:
		put := pc
		if m.Kind() == movegen.Promotion {
			put = movegen.MakePiece(pc.Color(), m.PromotionType())
		}
		d.Sub[0] = PieceSquare{pc, from}
		d.NSub = 1
		if cap := pos.PieceOn(to); cap != movegen.NoPiece {
			d.Sub[1] = PieceSquare{cap, to}
			d.NSub = 2
		}
		d.Add[0] = PieceSquare{put, to}
		d.NAdd = 1
	}
}

// Update sets a to parent's values changed by move m, where pos is the
// position BEFORE m is made (parent is its accumulator). a and parent must
// be different accumulators of the same Net. A move that Crosses (a king
// across the d/e line in a mirrored layout, or into another king bucket)
// refreshes the mover's perspective from pos and the move's Delta.
func (a *Accumulator) Update(n *Net, parent *Accumulator, pos *movegen.Position, m movegen.Move) {
	d := MoveDelta(pos, m)
	a.Apply(n, parent, d)
	if n.Crosses(d) {
		a.refreshSide(n, pos, d.Sub[0].Piece.Color(), &d, true)
	}
}

// ApplyMade is Update for a move already made: it sets a to parent's values
// changed by d, the move's Delta, and where d Crosses, refreshes the
// mover's perspective from pos, the position AFTER the move.
func (a *Accumulator) ApplyMade(n *Net, parent *Accumulator, d Delta, pos *movegen.Position) {
	a.Apply(n, parent, d)
	if n.Crosses(d) {
		a.refreshSide(n, pos, d.Sub[0].Piece.Color(), nil, true)
	}
}

// Apply sets a to parent's values changed by d, each perspective's squares
// mirrored as parent's are; d must not be one that n.Crosses (Update).
func (a *Accumulator) Apply(n *Net, parent *Accumulator, d Delta) {
	a.pieces, a.mirror, a.base = parent.pieces+int32(d.NAdd-d.NSub), parent.mirror, parent.base
	for c := movegen.White; c <= movegen.Black; c++ {
		dst, src, x, b := a.v[c], parent.v[c], a.mirror[c], int(a.base[c])
		a0 := n.row(b + FeatureIndex(c, d.Add[0].Piece, d.Add[0].Square^x))
		s0 := n.row(b + FeatureIndex(c, d.Sub[0].Piece, d.Sub[0].Square^x))
		simd := n.useSIMD()
		switch {
		case d.NAdd == 1 && d.NSub == 1:
			if simd {
				addSubSIMD(dst, src, a0, s0)
			} else {
				addSubGeneric(dst, src, a0, s0)
			}
		case d.NAdd == 1 && d.NSub == 2:
			s1 := n.row(b + FeatureIndex(c, d.Sub[1].Piece, d.Sub[1].Square^x))
			if simd {
				addSubSubSIMD(dst, src, a0, s0, s1)
			} else {
				addSubSubGeneric(dst, src, a0, s0, s1)
			}
		default: // castling with king and rook both moving
			a1 := n.row(b + FeatureIndex(c, d.Add[1].Piece, d.Add[1].Square^x))
			s1 := n.row(b + FeatureIndex(c, d.Sub[1].Piece, d.Sub[1].Square^x))
			if simd {
				addAddSubSubSIMD(dst, src, a0, a1, s0, s1)
			} else {
				addAddSubSubGeneric(dst, src, a0, a1, s0, s1)
			}
		}
	}
}

// ApplyEvaluate is Apply followed by Evaluate(a, stm): the same values and
// the same score. On the SIMD path, for a move that puts one piece (all but
// castling with both king and rook moving) and a squared clipped ReLU net,
// the output layer is computed in the pass that updates the accumulators,
// which then need not be read again.
func (a *Accumulator) ApplyEvaluate(n *Net, parent *Accumulator, d Delta, stm movegen.Color) int {
	if !n.useSIMD() || n.Act != SCReLU || d.NAdd != 1 {
		a.Apply(n, parent, d)
		return n.Evaluate(a, stm)
	}
	a.pieces, a.mirror, a.base = parent.pieces+int32(d.NAdd-d.NSub), parent.mirror, parent.base
	var add, sub0, sub1 [2][]int16
	for c := movegen.White; c <= movegen.Black; c++ {
		x, b := a.mirror[c], int(a.base[c])
		add[c] = n.row(b + FeatureIndex(c, d.Add[0].Piece, d.Add[0].Square^x))
		sub0[c] = n.row(b + FeatureIndex(c, d.Sub[0].Piece, d.Sub[0].Square^x))
		if d.NSub == 2 {
			sub1[c] = n.row(b + FeatureIndex(c, d.Sub[1].Piece, d.Sub[1].Square^x))
		}
	}
	b := BucketOf(int(a.pieces), len(n.OutputB))
	w := n.OutputW[b*2*n.H : (b+1)*2*n.H]
	ws := [2][]int16{w[:n.H], w[n.H : 2*n.H]} // the side to move's weights, then the other's
	wWhite, wBlack := ws[stm&1], ws[(stm^1)&1]
	var sum int64
	if d.NSub == 1 {
		sum = addSubOutputSIMD(n, a.v[0], parent.v[0], add[0], sub0[0], wWhite, a.v[1], parent.v[1], add[1], sub0[1], wBlack)
	} else {
		sum = addSubSubOutputSIMD(n, a.v[0], parent.v[0], add[0], sub0[0], sub1[0], wWhite,
			a.v[1], parent.v[1], add[1], sub0[1], sub1[1], wBlack)
	}
	return n.finish(sum, b)
}

// The plain Go twins of the SIMD kernels work on four int16 lanes per
// uint64 (SWAR: the top bit of each lane is handled apart so that no carry
// or borrow crosses into the next lane). int16 arithmetic wraps the same way
// in both, so they agree bit for bit with the SIMD kernels and with a plain
// int16 loop on any input (tested). Every slice they get starts on an
// 8-byte boundary: H is a multiple of 16 and each accumulator and weight row
// starts a multiple of H int16s into an allocation.

const laneTops = 0x8000_8000_8000_8000

func swarAdd(x, y uint64) uint64 { return ((x &^ laneTops) + (y &^ laneTops)) ^ ((x ^ y) & laneTops) }
func swarSub(x, y uint64) uint64 { return ((x | laneTops) - (y &^ laneTops)) ^ ((x ^ ^y) & laneTops) }

// lanes views an int16 slice (length a multiple of 4) as uint64 words.
func lanes(s []int16) []uint64 {
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(s))), len(s)/4)
}

func addGeneric(dst, w []int16) {
	d, a := lanes(dst), lanes(w)
	a = a[:len(d)]
	for i := range d {
		d[i] = swarAdd(d[i], a[i])
	}
}

func subGeneric(dst, w []int16) {
	d, a := lanes(dst), lanes(w)
	a = a[:len(d)]
	for i := range d {
		d[i] = swarSub(d[i], a[i])
	}
}

func addSubGeneric(dst, src, a0, s0 []int16) {
	d, s, a, b := lanes(dst), lanes(src), lanes(a0), lanes(s0)
	s, a, b = s[:len(d)], a[:len(d)], b[:len(d)]
	for i := range d {
		d[i] = swarSub(swarAdd(s[i], a[i]), b[i])
	}
}

func addSubSubGeneric(dst, src, a0, s0, s1 []int16) {
	d, s, a, b, c := lanes(dst), lanes(src), lanes(a0), lanes(s0), lanes(s1)
	s, a, b, c = s[:len(d)], a[:len(d)], b[:len(d)], c[:len(d)]
	for i := range d {
		d[i] = swarSub(swarSub(swarAdd(s[i], a[i]), b[i]), c[i])
	}
}

func addAddSubSubGeneric(dst, src, a0, a1, s0, s1 []int16) {
	d, s, a, e, b, c := lanes(dst), lanes(src), lanes(a0), lanes(a1), lanes(s0), lanes(s1)
	s, a, e, b, c = s[:len(d)], a[:len(d)], e[:len(d)], b[:len(d)], c[:len(d)]
	for i := range d {
		d[i] = swarSub(swarSub(swarAdd(swarAdd(s[i], a[i]), e[i]), b[i]), c[i])
	}
}

// RefreshFeatures computes a from scratch from a list of White-perspective
// feature indices in the Plain layout (as AppendFeatures returns), under
// n's layout: the trainer's way to run the integer net without a Position.
func (a *Accumulator) RefreshFeatures(n *Net, white []uint16) {
	const whiteKing, blackKing = 5 * 64, 384 + 5*64 // the kings' first indices from White's view
	a.pieces = int32(len(white))
	a.mirror, a.base = [2]movegen.Square{}, [2]int32{}
	if n.Layout != Plain {
		for _, f := range white {
			if f >= whiteKing && f < whiteKing+64 {
				a.mirror[movegen.White], a.base[movegen.White] = n.kingView(movegen.White, movegen.Square(f-whiteKing))
			} else if f >= blackKing {
				a.mirror[movegen.Black], a.base[movegen.Black] = n.kingView(movegen.Black, movegen.Square(f-blackKing))
			}
		}
	}
	xw, xb := int(a.mirror[movegen.White]), int(a.mirror[movegen.Black])
	bw, bb := int(a.base[movegen.White]), int(a.base[movegen.Black])
	copy(a.v[0], n.FeatureB)
	copy(a.v[1], n.FeatureB)
	for _, f := range white {
		n.addRow(a.v[0], bw+(int(f)^xw))
		n.addRow(a.v[1], bb+(MirrorFeature(int(f))^xb))
	}
}
