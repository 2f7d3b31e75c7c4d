package syzygy

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// The tests of this file check the position encoding (setGroups in
// table.go, index and uniqueIndex in encode.go, the tables of index.go)
// against counts and numberings derived here from the format's definition,
// without those tables:
//
//   - The leading group is two kings when no other piece is unique (the
//     first king on the a1-d1-d4 triangle, the second anywhere but next to
//     it, not above the a1-h8 diagonal when the first is on it), three
//     unique pieces when one is (the first on the triangle, the first of
//     them off the diagonal below it), or, with pawns, the pawns of the
//     colour with fewer (but some): one sub-table per file a-d of the
//     leading pawn, the pawn nearest an edge file, then lowest, then on
//     files a-d.
//   - The other colour's pawns, then each further run of like pieces, are a
//     combination of the squares the groups before them left free (for
//     pawns, of a2-h7), numbered in the combinatorial number system.
//   - The index is the mixed-radix number of these digits, in the digit
//     order the table file gives for the leading group (and the other
//     colour's pawns), the other groups in piece order.

// choose is n choose k (0 when k < 0 or k > n).
func choose(n, k int) uint64 {
	if k < 0 || k > n {
		return 0
	}
	r := uint64(1)
	for i := 0; i < k; i++ {
		r = r * uint64(n-i) / uint64(i+1) // exact: r is C(n, i) before
	}
	return r
}

// colex numbers a combination of distinct values in the combinatorial
// number system: the i-th smallest value v (from 1) adds C(v, i).
func colex(vals []int) uint64 {
	var a [MaxPieces]int
	v := a[:copy(a[:], vals)]
	slices.Sort(v)
	var c uint64
	for i, x := range v {
		c += choose(x, i+1)
	}
	return c
}

func fileOf(s int) int { return s & 7 }
func rankOf(s int) int { return s >> 3 }

// adjacent tells whether two distinct squares touch.
func adjacent(a, b int) bool {
	df, dr := fileOf(a)-fileOf(b), rankOf(a)-rankOf(b)
	return a != b && df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

func onDiagonal(s int) bool    { return rankOf(s) == fileOf(s) }
func belowDiagonal(s int) bool { return rankOf(s) < fileOf(s) }

// symmetry applies the k-th of the board's eight symmetries (k in 0..7):
// bit 0 mirrors the files, bit 1 the ranks, bit 2 swaps files and ranks.
func symmetry(s, k int) int {
	if k&1 != 0 {
		s ^= 7
	}
	if k&2 != 0 {
		s ^= 56
	}
	if k&4 != 0 {
		s = fileOf(s)<<3 | rankOf(s)
	}
	return s
}

// triangleSquares lists the a1-d1-d4 triangle in the format's order: its
// six squares below the diagonal, then a1, b2, c3, d4.
func triangleSquares() []int {
	var below, diag []int
	for s := 0; s < 64; s++ {
		switch {
		case fileOf(s) > 3:
		case belowDiagonal(s):
			below = append(below, s)
		case onDiagonal(s):
			diag = append(diag, s)
		}
	}
	return append(below, diag...)
}

// kingPairs lists the placements of two kings the format numbers, in the
// order of their numbers: by the first king's triangle square, then the
// second king's square, except that the pairs with both kings on the
// diagonal come last.
func kingPairs() [][2]int {
	var pairs, both [][2]int
	for _, k1 := range triangleSquares() {
		for k2 := 0; k2 < 64; k2++ {
			switch {
			case k2 == k1 || adjacent(k1, k2):
			case onDiagonal(k1) && onDiagonal(k2):
				both = append(both, [2]int{k1, k2})
			case onDiagonal(k1) && !belowDiagonal(k2):
			default:
				pairs = append(pairs, [2]int{k1, k2})
			}
		}
	}
	return append(pairs, both...)
}

// uniqueTriples lists the placements of three unique pieces the format
// numbers, in the order of their numbers: the first piece off the diagonal
// (on the triangle), the second and third anywhere; then the first on the
// diagonal and the second below it, the third anywhere; then the first two
// on the diagonal and the third below it; then all three on the diagonal.
// Within each part, by the first, the second, then the third square.
func uniqueTriples() [][3]int {
	var parts [4][][3]int
	for _, s0 := range triangleSquares() {
		for s1 := 0; s1 < 64; s1++ {
			for s2 := 0; s2 < 64; s2++ {
				if s1 == s0 || s2 == s0 || s2 == s1 {
					continue
				}
				part := -1
				switch {
				case !onDiagonal(s0):
					part = 0
				case belowDiagonal(s1):
					part = 1
				case onDiagonal(s1) && belowDiagonal(s2):
					part = 2
				case onDiagonal(s1) && onDiagonal(s2):
					part = 3
				}
				if part >= 0 {
					parts[part] = append(parts[part], [3]int{s0, s1, s2})
				}
			}
		}
	}
	return slices.Concat(parts[0], parts[1], parts[2], parts[3])
}

// leadPawns is the numbering of the leading pawns, counted by enumerating
// every set of squares of a2-h7.
type leadPawns struct {
	// order lists a2-h7 by precedence for the lead: a2, h2, a3, h3, ...,
	// a7, h7, b2, g2, ..., d7, e7. The leader of a set is its first square.
	order []int
	pos   [64]int // a square's place in order
	// count[n][s] is the number of sets of n squares that s leads; start
	// the number of the first of them, the leaders of a file numbered in
	// turn from its lowest; size[n][f] the sets whose leader is on file f.
	count [6][64]uint64
	start [6][64]uint64
	size  [6][4]uint64
}

func newLeadPawns() *leadPawns {
	l := &leadPawns{}
	for s := 8; s < 56; s++ {
		l.order = append(l.order, s)
	}
	key := func(s int) int {
		f := fileOf(s)
		return min(f, 7-f)*100 + rankOf(s)*10 + f/4
	}
	slices.SortFunc(l.order, func(a, b int) int { return key(a) - key(b) })
	for i, s := range l.order {
		l.pos[s] = i
	}
	for n := 1; n <= 5; n++ {
		l.sets(n, func(set []int) { l.count[n][set[0]]++ })
		for f := 0; f < 4; f++ {
			for r := 1; r < 7; r++ {
				s := r*8 + f
				l.start[n][s] = l.size[n][f]
				l.size[n][f] += l.count[n][s]
			}
		}
	}
	return l
}

// sets calls fn with every set of n squares of a2-h7, its leader first and
// the others in precedence order.
func (l *leadPawns) sets(n int, fn func(set []int)) {
	set := make([]int, n)
	var rec func(i, from int)
	rec = func(i, from int) {
		if i == n {
			fn(set)
			return
		}
		for p := from; p <= len(l.order)-(n-i); p++ {
			set[i] = l.order[p]
			rec(i+1, p+1)
		}
	}
	rec(0, 0)
}

// leader returns the square that leads a set of pawn squares.
func (l *leadPawns) leader(set []int) int {
	best := set[0]
	for _, s := range set[1:] {
		if l.pos[s] < l.pos[best] {
			best = s
		}
	}
	return best
}

// number is the expected number of a set of leading pawns (leader first,
// on files a-d): its leader's first number, plus the others numbered as a
// combination of the squares after the leader in precedence order, the
// last of them 0.
func (l *leadPawns) number(set []int) uint64 {
	var after [5]int
	n := 0
	for _, s := range set[1:] {
		v := len(l.order) - 1 - l.pos[s]
		i := n
		for ; i > 0 && after[i-1] > v; i-- {
			after[i] = after[i-1]
		}
		after[i] = v
		n++
	}
	idx := l.start[len(set)][set[0]]
	for i := 0; i < n; i++ {
		idx += choose(after[i], i+1)
	}
	return idx
}

// lowest and highest return the sets of n pawns led from file f with the
// lowest and the highest numbers.
func (l *leadPawns) lowest(n, f int) []int {
	for r := 1; r < 7; r++ {
		if s := r*8 + f; l.count[n][s] > 0 {
			set := []int{s}
			for i := 0; i < n-1; i++ {
				set = append(set, l.order[len(l.order)-1-i])
			}
			return set
		}
	}
	return nil
}

func (l *leadPawns) highest(n, f int) []int {
	for r := 6; r > 0; r-- {
		if s := r*8 + f; l.count[n][s] > 0 {
			return slices.Clone(l.order[l.pos[s] : l.pos[s]+n])
		}
	}
	return nil
}

// encoding is the format's numbering of the leading groups.
type encoding struct {
	pairs    [][2]int
	pairNum  [64][64]int32 // -1: not numbered
	triples  [][3]int
	tripleNo []int32 // by s0<<12 | s1<<6 | s2; -1: not numbered
	pawns    *leadPawns
}

func newEncoding() *encoding {
	e := &encoding{pairs: kingPairs(), triples: uniqueTriples(), tripleNo: make([]int32, 1<<18), pawns: newLeadPawns()}
	for i := range e.pairNum {
		for j := range e.pairNum[i] {
			e.pairNum[i][j] = -1
		}
	}
	for i, p := range e.pairs {
		e.pairNum[p[0]][p[1]] = int32(i)
	}
	for i := range e.tripleNo {
		e.tripleNo[i] = -1
	}
	for i, t := range e.triples {
		e.tripleNo[t[0]<<12|t[1]<<6|t[2]] = int32(i)
	}
	return e
}

type leadKind int

const (
	leadKings  leadKind = iota // the two kings
	leadUnique                 // three unique pieces
	leadPawn                   // the leading colour's pawns
)

// indexClass is the shape of one sub-table: a material, its pieces in
// index order and the groups they form.
type indexClass struct {
	name   string
	e      *entry
	pieces []movegen.Piece
	groups []int // lengths, the leading group first
	kind   leadKind
	pp     bool // groups[1] is the other colour's pawns
}

// materialOf names piece counts as a table: KRPvKB.
func materialOf(counts *[2][7]int) string {
	var sb strings.Builder
	for c := 0; c < 2; c++ {
		if c == 1 {
			sb.WriteByte('v')
		}
		for i := 0; i < counts[c][movegen.King]; i++ {
			sb.WriteByte('K')
		}
		for _, pt := range []movegen.PieceType{movegen.Queen, movegen.Rook, movegen.Bishop, movegen.Knight, movegen.Pawn} {
			sb.WriteString(strings.Repeat(" PNBRQK"[pt:pt+1], counts[c][pt]))
		}
	}
	return sb.String()
}

// newIndexClass orders the pieces of a material for its index: the leading
// group, the other colour's pawns, then runs of like pieces (in a fixed
// order of colours and types, reversed when reverse is set).
func newIndexClass(counts *[2][7]int, reverse bool) indexClass {
	c := indexClass{name: materialOf(counts)}
	c.e = newEntry(c.name, counts)
	type run struct {
		pc movegen.Piece
		n  int
	}
	var runs []run
	for col := movegen.White; col <= movegen.Black; col++ {
		for _, pt := range []movegen.PieceType{movegen.King, movegen.Queen, movegen.Rook, movegen.Bishop, movegen.Knight} {
			if n := counts[col][pt]; n > 0 {
				runs = append(runs, run{movegen.MakePiece(col, pt), n})
			}
		}
	}
	if reverse {
		slices.Reverse(runs)
	}
	var lead []run
	wp, bp := counts[movegen.White][movegen.Pawn], counts[movegen.Black][movegen.Pawn]
	unique := 0
	for _, r := range runs {
		if r.n == 1 && r.pc.Type() != movegen.King {
			unique++
		}
	}
	switch {
	case wp+bp > 0:
		c.kind = leadPawn
		// The colour with fewer pawns leads, White when they have as
		// many, the other when one has none.
		leadCol := movegen.White
		if wp == 0 || (bp > 0 && bp < wp) {
			leadCol = movegen.Black
		}
		lead = []run{{movegen.MakePiece(leadCol, movegen.Pawn), counts[leadCol][movegen.Pawn]}}
		if n := counts[leadCol.Other()][movegen.Pawn]; n > 0 {
			c.pp = true
			lead = append(lead, run{movegen.MakePiece(leadCol.Other(), movegen.Pawn), n})
		}
	case unique == 0:
		c.kind = leadKings
		runs = slices.DeleteFunc(runs, func(r run) bool {
			if r.pc.Type() == movegen.King {
				lead = append(lead, r)
				return true
			}
			return false
		})
	default:
		c.kind = leadUnique
		runs = slices.DeleteFunc(runs, func(r run) bool {
			if r.n == 1 && len(lead) < 3 {
				lead = append(lead, r)
				return true
			}
			return false
		})
	}
	for _, r := range append(lead, runs...) {
		for j := 0; j < r.n; j++ {
			c.pieces = append(c.pieces, r.pc)
		}
	}
	if c.kind == leadPawn {
		for _, r := range lead {
			c.groups = append(c.groups, r.n)
		}
	} else {
		c.groups = []int{0}
		for _, r := range lead {
			c.groups[0] += r.n
		}
	}
	for _, r := range runs {
		c.groups = append(c.groups, r.n)
	}
	return c
}

// digitOrders returns digit orders to try (the file's two order nibbles:
// the places of the leading group and of the other colour's pawns, 15 for
// none) for a class of g groups.
func (c *indexClass) digitOrders() [][2]int {
	g := len(c.groups)
	var orders [][2]int
	add := func(o [2]int) {
		if o[0] != o[1] && !slices.Contains(orders, o) {
			orders = append(orders, o)
		}
	}
	if c.pp {
		add([2]int{0, 1})
		add([2]int{1, 0})
		add([2]int{g - 1, g - 2})
		add([2]int{g - 2, 0})
	} else {
		add([2]int{0, 15})
		add([2]int{g - 1, 15})
		add([2]int{g / 2, 15})
	}
	return orders
}

// radices gives each group's count of digits and radix, and the size of
// the sub-table for leading file f in the digit order.
func (c *indexClass) radices(enc *encoding, f int, order [2]int) (counts, radix []uint64, size uint64) {
	g := len(c.groups)
	counts = make([]uint64, g)
	switch c.kind {
	case leadKings:
		counts[0] = uint64(len(enc.pairs))
	case leadUnique:
		counts[0] = uint64(len(enc.triples))
	default:
		counts[0] = enc.pawns.size[c.groups[0]][f]
	}
	free := 64 - c.groups[0]
	for i := 1; i < g; i++ {
		if i == 1 && c.pp {
			counts[i] = choose(48-c.groups[0], c.groups[1])
		} else {
			counts[i] = choose(free, c.groups[i])
		}
		free -= c.groups[i]
	}
	place := make([]int, g)
	used := map[int]bool{order[0]: true}
	place[0] = order[0]
	first := 1
	if c.pp {
		place[1] = order[1]
		used[order[1]] = true
		first = 2
	}
	next := 0
	for i := first; i < g; i++ {
		for used[next] {
			next++
		}
		place[i] = next
		next++
	}
	radix = make([]uint64, g)
	size = 1
	for i := range radix {
		radix[i] = 1
		for j := range place {
			if place[j] < place[i] {
				radix[i] *= counts[j]
			}
		}
		size *= counts[i]
	}
	return counts, radix, size
}

// freeSquares is the set of squares group g may take when those of taken
// hold the groups before it: for the other colour's pawns a2-h7, else the
// board, less taken.
func (c *indexClass) freeSquares(g int, taken uint64) uint64 {
	all := ^uint64(0)
	if g == 1 && c.pp {
		all = 0x00ffffffffffff00
	}
	return all &^ taken
}

// groupSquares lists freeSquares ascending, given the squares of the groups
// before g.
func (c *indexClass) groupSquares(g int, before []int) []int {
	var taken uint64
	for _, s := range before {
		taken |= 1 << s
	}
	var list []int
	for b := c.freeSquares(g, taken); b != 0; b &= b - 1 {
		list = append(list, bits.TrailingZeros64(b))
	}
	return list
}

// expected computes the index of a placement (squares in index order, the
// leader first; the leading group as the format numbers it) from the
// numbering of its leading group and the combinations of the others, each
// square numbered by its place among the squares free for its group.
func (c *indexClass) expected(enc *encoding, sq []int, radix []uint64) (uint64, bool) {
	var lead int64
	switch c.kind {
	case leadKings:
		lead = int64(enc.pairNum[sq[0]][sq[1]])
	case leadUnique:
		lead = int64(enc.tripleNo[sq[0]<<12|sq[1]<<6|sq[2]])
	default:
		if fileOf(sq[0]) > 3 || enc.pawns.leader(sq[:c.groups[0]]) != sq[0] {
			return 0, false
		}
		lead = int64(enc.pawns.number(sq[:c.groups[0]]))
	}
	if lead < 0 {
		return 0, false
	}
	idx := uint64(lead) * radix[0]
	var taken uint64
	for _, s := range sq[:c.groups[0]] {
		taken |= 1 << s
	}
	start := c.groups[0]
	for g := 1; g < len(c.groups); g++ {
		free := c.freeSquares(g, taken)
		grp := sq[start : start+c.groups[g]]
		var v [MaxPieces]int
		var mine uint64
		for i, s := range grp {
			if free>>s&1 == 0 || mine>>s&1 != 0 {
				return 0, false
			}
			mine |= 1 << s
			v[i] = bits.OnesCount64(free & (1<<s - 1))
		}
		taken |= mine
		idx += colex(v[:len(grp)]) * radix[g]
		start += c.groups[g]
	}
	return idx, true
}

// extreme builds the placement (index order, leader first) whose every
// group has its lowest digit, except the groups marked high, which have
// their highest.
func (c *indexClass) extreme(enc *encoding, f int, high []bool) []int {
	var sq []int
	switch {
	case c.kind == leadKings && high[0]:
		sq = enc.pairs[len(enc.pairs)-1][:]
	case c.kind == leadKings:
		sq = enc.pairs[0][:]
	case c.kind == leadUnique && high[0]:
		sq = enc.triples[len(enc.triples)-1][:]
	case c.kind == leadUnique:
		sq = enc.triples[0][:]
	case high[0]:
		sq = enc.pawns.highest(c.groups[0], f)
	default:
		sq = enc.pawns.lowest(c.groups[0], f)
	}
	sq = slices.Clone(sq)
	var taken uint64
	for _, s := range sq {
		taken |= 1 << s
	}
	for g := 1; g < len(c.groups); g++ {
		free := c.freeSquares(g, taken)
		for i := 0; i < c.groups[g]; i++ {
			s := bits.TrailingZeros64(free)
			if high[g] {
				s = 63 - bits.LeadingZeros64(free)
			}
			free &^= 1 << s
			taken |= 1 << s
			sq = append(sq, s)
		}
	}
	return sq
}

// random builds a random placement (index order, leader first) with the
// leading group as the format numbers it, leading pawns led from file f.
func (c *indexClass) random(r *rand.Rand, enc *encoding, f int) []int {
	var sq []int
	switch c.kind {
	case leadKings:
		p := enc.pairs[r.IntN(len(enc.pairs))]
		sq = []int{p[0], p[1]}
	case leadUnique:
		p := enc.triples[r.IntN(len(enc.triples))]
		sq = []int{p[0], p[1], p[2]}
	default:
		n := c.groups[0]
		set := make([]int, 0, n)
		for {
			set = set[:0]
			for len(set) < n {
				if s := 8 + r.IntN(48); !slices.Contains(set, s) {
					set = append(set, s)
				}
			}
			lead := enc.pawns.leader(set)
			if fileOf(lead) == 7-f {
				for i := range set {
					set[i] ^= 7
				}
				lead ^= 7
			}
			if fileOf(lead) == f {
				i := slices.Index(set, lead)
				set[0], set[i] = set[i], set[0]
				break
			}
		}
		sq = set
	}
	var taken uint64
	for _, s := range sq {
		taken |= 1 << s
	}
	for g := 1; g < len(c.groups); g++ {
		free := c.freeSquares(g, taken)
		for i := 0; i < c.groups[g]; {
			if s := r.IntN(64); free>>s&1 != 0 {
				free &^= 1 << s
				taken |= 1 << s
				sq = append(sq, s)
				i++
			}
		}
	}
	return sq
}

// setup builds the sub-table of the class with the production code.
func (c *indexClass) setup(f int, order [2]int) (*pairs, error) {
	p := &pairs{}
	copy(p.pieces[:], c.pieces)
	return p, p.setGroups(c.e, order, f)
}

// probeIndex runs the production index function on a copy of a placement.
func probeIndex(p *pairs, e *entry, sq []int) (uint64, bool) {
	var a [MaxPieces]int
	copy(a[:], sq)
	return p.index(e, &a)
}

// allMaterials lists the piece counts of every material of 3 to 7 pieces
// (kings included), both colour orders.
func allMaterials() [][2][7]int {
	types := []movegen.PieceType{movegen.Pawn, movegen.Knight, movegen.Bishop, movegen.Rook, movegen.Queen}
	var sides [][7]int
	var rec func(i, left int, cur [7]int)
	rec = func(i, left int, cur [7]int) {
		if i == len(types) {
			sides = append(sides, cur)
			return
		}
		for n := 0; n <= left; n++ {
			cur[types[i]] = n
			rec(i+1, left-n, cur)
		}
	}
	rec(0, MaxPieces-2, [7]int{movegen.King: 1})
	var out [][2][7]int
	for _, w := range sides {
		for _, b := range sides {
			n := 0
			for _, pt := range types {
				n += w[pt] + b[pt]
			}
			if n >= 1 && n <= MaxPieces-2 {
				out = append(out, [2][7]int{w, b})
			}
		}
	}
	return out
}

// TestIndexSizes checks, for every material of 3 to 7 pieces with two
// piece orders, several digit orders, and each file of the leading pawn:
// the group lengths, radices and table size setGroups computes against the
// counts derived here (sizes past 2^32 included); that index maps the
// placement with every digit lowest to 0, the one with every digit highest
// to size-1 and the one with a single digit highest to that digit's
// (count-1)*radix; and the index of random placements.
func TestIndexSizes(t *testing.T) {
	enc := newEncoding()
	r := rand.New(rand.NewPCG(31, 32))
	errs := 0
	fail := func(format string, args ...any) {
		if errs++; errs <= 20 {
			t.Errorf(format, args...)
		}
	}
	materials := allMaterials()
	var subtables, over31, over32 int
	var largest uint64
	var largestName string
	shapes := map[string]bool{}
	for _, counts := range materials {
		for _, reverse := range []bool{false, true} {
			c := newIndexClass(&counts, reverse)
			wantPawns := [2]int{}
			if c.kind == leadPawn {
				wantPawns[0] = c.groups[0]
				if c.pp {
					wantPawns[1] = c.groups[1]
				}
			}
			if c.e.kkEnc != (c.kind == leadKings) || c.e.hasPawns != (c.kind == leadPawn) || c.e.pawns != wantPawns {
				fail("%s: entry kkEnc %v, hasPawns %v, pawns %v; want lead %d, pawns %v",
					c.name, c.e.kkEnc, c.e.hasPawns, c.e.pawns, c.kind, wantPawns)
				continue
			}
			shapes[fmt.Sprint(c.kind, c.groups)] = true
			files := 1
			if c.kind == leadPawn {
				files = 4
			}
			for f := 0; f < files; f++ {
				for _, order := range c.digitOrders() {
					size, ok := c.checkSubtable(enc, r, f, order, fail)
					if !ok {
						continue
					}
					subtables++
					if size > 1<<31 {
						over31++
					}
					if size > 1<<32 {
						over32++
					}
					if size > largest {
						largest, largestName = size, c.name
					}
				}
			}
		}
	}
	if over32 == 0 {
		t.Errorf("no sub-table larger than 2^32 (largest %s, %d)", largestName, largest)
	}
	t.Logf("%d materials, %d sub-tables of %d group shapes; %d larger than 2^31, %d than 2^32; largest %s, %d entries",
		len(materials), subtables, len(shapes), over31, over32, largestName, largest)

	// A few sizes worked by hand.
	for _, tc := range []struct {
		material string
		file     int
		size     uint64
	}{
		{"KRRvKRR", 0, 462 * (62 * 61 / 2) * (60 * 59 / 2)},   // 1,546,346,340
		{"KQQQvK", 0, 462 * (62 * 61 * 60 / 6)},               // 17,472,840
		{"KNNNNNvK", 0, 462 * (62 * 61 * 60 * 59 * 58 / 120)}, // 2,989,602,924: past 2^31
		{"KQvKQRBN", 0, 31332 * 61 * 60 * 59 * 58},            // 392,418,260,640: past 2^38
		// The two white pawns lead: the leader on a2..a7 (h2..h7) has
		// 47, 45, ..., 37 squares after it for the other, on d2..d7 11,
		// 9, ..., 1; then the three black pawns on the 46 squares of
		// a2-h7 left, the kings on the 59 and 58 squares left.
		{"KPPvKPPP", 0, (47 + 45 + 43 + 41 + 39 + 37) * (46 * 45 * 44 / 6) * 59 * 58}, // 13,090,381,920
		{"KPPvKPPP", 3, (11 + 9 + 7 + 5 + 3 + 1) * (46 * 45 * 44 / 6) * 59 * 58},      // 1,870,054,560
	} {
		var counts [2][7]int
		if !parseMaterial(tc.material, &counts) {
			t.Fatalf("bad material %s", tc.material)
		}
		c := newIndexClass(&counts, false)
		p, err := c.setup(tc.file, c.digitOrders()[0])
		if err != nil || p.tbSize != tc.size {
			t.Errorf("%s, file %c: size %d (%v), want %d", tc.material, 'a'+tc.file, p.tbSize, err, tc.size)
		}
	}
}

// checkSubtable runs the checks of TestIndexSizes on one sub-table and
// returns its size, or false when setGroups fails or the sizes differ.
func (c *indexClass) checkSubtable(enc *encoding, r *rand.Rand, f int, order [2]int, fail func(string, ...any)) (uint64, bool) {
	what := func() string { return fmt.Sprintf("%s (pieces %v, file %c, order %v)", c.name, c.pieces, 'a'+f, order) }
	p, err := c.setup(f, order)
	if err != nil {
		fail("%s: setGroups: %v", what(), err)
		return 0, false
	}
	var lens []int
	for g := 0; p.groupLen[g] != 0; g++ {
		lens = append(lens, p.groupLen[g])
	}
	if !slices.Equal(lens, c.groups) {
		fail("%s: groups %v, want %v", what(), lens, c.groups)
		return 0, false
	}
	digits, radix, size := c.radices(enc, f, order)
	if p.tbSize != size {
		fail("%s: size %d, want %d", what(), p.tbSize, size)
		return 0, false
	}
	if !slices.Equal(p.groupIdx[:len(radix)], radix) || p.groupIdx[len(radix)] != size {
		fail("%s: radices %v, want %v then %d", what(), p.groupIdx[:len(radix)+1], radix, size)
		return 0, false
	}

	// Extremes: all digits lowest, all highest, one highest.
	check := func(high []bool, want uint64) {
		sq := c.extreme(enc, f, high)
		if exp, ok := c.expected(enc, sq, radix); !ok || exp != want {
			fail("%s: the test's own numbering gives %d (%v) for %s, want %d", what(), exp, ok, squareNames(sq), want)
		}
		if got, ok := probeIndex(p, c.e, sq); !ok || got != want {
			fail("%s: index(%s) = %d, %v; want %d (high digits %v)", what(), squareNames(sq), got, ok, want, high)
		}
	}
	g := len(c.groups)
	check(make([]bool, g), 0)
	check(slices.Repeat([]bool{true}, g), size-1)
	for i := 0; i < g; i++ {
		one := make([]bool, g)
		one[i] = true
		check(one, (digits[i]-1)*radix[i])
	}

	for k := 0; k < 3; k++ {
		sq := c.random(r, enc, f)
		want, ok := c.expected(enc, sq, radix)
		if !ok {
			fail("%s: random placement %s not numbered by the test", what(), squareNames(sq))
			continue
		}
		if got, ok := probeIndex(p, c.e, sq); !ok || got != want {
			fail("%s: index(%s) = %d, %v; want %d", what(), squareNames(sq), got, ok, want)
		}
	}
	return size, true
}

// squareNames writes squares as a1, b2, ... for messages.
func squareNames(sq []int) string {
	names := make([]string, len(sq))
	for i, s := range sq {
		names[i] = movegen.Square(s).String()
	}
	return strings.Join(names, " ")
}

// TestIndexLeadingKings checks the numbering of two kings: the format's
// 462 placements, each numbered by its place in kingPairs, under all eight
// symmetries of the board; a pair of adjacent kings has no index.
func TestIndexLeadingKings(t *testing.T) {
	pairs := kingPairs()
	if len(pairs) != 462 {
		t.Fatalf("%d placements of two kings, want 462", len(pairs))
	}
	var counts [2][7]int
	counts[0][movegen.King], counts[1][movegen.King] = 1, 1
	c := newIndexClass(&counts, false)
	p, err := c.setup(0, [2]int{0, 15})
	if err != nil {
		t.Fatal(err)
	}
	if p.tbSize != 462 {
		t.Fatalf("KvK: size %d, want 462", p.tbSize)
	}
	for i, pr := range pairs {
		for k := 0; k < 8; k++ {
			sq := []int{symmetry(pr[0], k), symmetry(pr[1], k)}
			if got, ok := probeIndex(p, c.e, sq); !ok || got != uint64(i) {
				t.Fatalf("index(%s) = %d, %v; want %d", squareNames(sq), got, ok, i)
			}
		}
	}
	for a := 0; a < 64; a++ {
		for b := 0; b < 64; b++ {
			if a == b || adjacent(a, b) {
				if got, ok := probeIndex(p, c.e, []int{a, b}); ok {
					t.Fatalf("index(%s) = %d for kings next to each other", squareNames([]int{a, b}), got)
				}
			}
		}
	}
}

// TestIndexLeadingUnique checks the numbering of three unique pieces: the
// format's 31332 placements, each numbered by its place in uniqueTriples,
// under all eight symmetries of the board.
func TestIndexLeadingUnique(t *testing.T) {
	triples := uniqueTriples()
	// 6*63*62 + 4*28*62 + 4*7*28 + 4*7*6
	if len(triples) != 31332 {
		t.Fatalf("%d placements of three unique pieces, want 31332", len(triples))
	}
	var counts [2][7]int
	counts[0][movegen.King], counts[0][movegen.Queen], counts[1][movegen.King] = 1, 1, 1
	c := newIndexClass(&counts, false)
	p, err := c.setup(0, [2]int{0, 15})
	if err != nil {
		t.Fatal(err)
	}
	if c.kind != leadUnique || p.tbSize != 31332 {
		t.Fatalf("KQvK: lead %d, size %d, want three unique pieces, 31332", c.kind, p.tbSize)
	}
	for i, tr := range triples {
		for k := 0; k < 8; k++ {
			sq := []int{symmetry(tr[0], k), symmetry(tr[1], k), symmetry(tr[2], k)}
			if got, ok := probeIndex(p, c.e, sq); !ok || got != uint64(i) {
				t.Fatalf("index(%s) = %d, %v; want %d", squareNames(sq), got, ok, i)
			}
		}
	}
}

// TestIndexLeadingPawns checks the numbering of 1 to 5 leading pawns
// alone (the leading group's digit does not depend on the other groups):
// for every set of squares of a2-h7, the sub-table of its leader's file
// and the index the test derives, the set mirrored to files a-d when its
// leader is on e-h; and the sizes per file against the enumeration.
func TestIndexLeadingPawns(t *testing.T) {
	l := newLeadPawns()
	for n := 1; n <= 5; n++ {
		var counts [2][7]int
		counts[0][movegen.Pawn] = n
		c := newIndexClass(&counts, false)
		var ps [4]*pairs
		var total uint64
		for f := range ps {
			var err error
			if ps[f], err = c.setup(f, [2]int{0, 15}); err != nil {
				t.Fatal(err)
			}
			if ps[f].tbSize != l.size[n][f] {
				t.Errorf("%d pawns led from file %c: size %d, want %d", n, 'a'+f, ps[f].tbSize, l.size[n][f])
			}
			total += l.size[n][f]
		}
		// Every set of n squares is led from one file, a-d or its mirror.
		if total*2 < choose(48, n) || total > choose(48, n) {
			t.Errorf("%d pawns: %d sets led from files a-d of %d", n, total, choose(48, n))
		}
		errs := 0
		sq := make([]int, n)
		l.sets(n, func(set []int) {
			copy(sq, set)
			f := fileOf(sq[0])
			if f > 3 {
				f = 7 - f
				for i := range sq {
					sq[i] ^= 7
				}
			}
			want := l.number(sq)
			got, ok := probeIndex(ps[f], c.e, set)
			if (!ok || got != want) && errs < 10 {
				errs++
				t.Errorf("%d pawns: index(%s) = %d, %v; want %d", n, squareNames(set), got, ok, want)
			}
		})
	}
}

// TestIndexGroups enumerates every placement of the groups after the
// leading one, for the lowest and the highest placement of the leading
// group, in classes of each kind of group: a pair or a triple of like
// pieces after two kings or after three unique pieces, the other colour's
// pawns (classes of pawns alone: a group's digit does not depend on the
// groups after it), single pieces after pawns. Each index must be the
// test's, and the largest the size less one. KPvK is enumerated whole: its
// indices of each file are 0..size-1, each once.
func TestIndexGroups(t *testing.T) {
	enc := newEncoding()
	classes := []struct {
		white, black string
		all          bool // every leading placement
	}{
		{"KP", "K", true},
		{"KRR", "K", false},
		{"KRRR", "K", false},
		{"KQ", "KRR", false},
		{"P", "PPP", false},
		{"PP", "PP", false},
		{"PPP", "P", false},
	}
	for _, tc := range classes {
		var counts [2][7]int
		for col, side := range []string{tc.white, tc.black} {
			for _, ch := range side {
				counts[col][strings.IndexRune(" PNBRQK", ch)]++
			}
		}
		c := newIndexClass(&counts, false)
		files := 1
		if c.kind == leadPawn {
			files = 4
		}
		placements := 0
		for f := 0; f < files; f++ {
			order := c.digitOrders()[0]
			p, err := c.setup(f, order)
			if err != nil {
				t.Fatal(err)
			}
			_, radix, size := c.radices(enc, f, order)
			g := len(c.groups)
			leads := [][]int{
				c.extreme(enc, f, make([]bool, g))[:c.groups[0]],
				c.extreme(enc, f, slices.Repeat([]bool{true}, g))[:c.groups[0]],
			}
			var seen []bool
			if tc.all {
				leads = nil
				enc.pawns.sets(c.groups[0], func(set []int) {
					if fileOf(set[0]) == f {
						leads = append(leads, slices.Clone(set))
					}
				})
				seen = make([]bool, size)
			}
			var largest uint64
			errs := 0
			for _, lead := range leads {
				c.placements(lead, func(sq []int) {
					placements++
					want, ok := c.expected(enc, sq, radix)
					got, gok := probeIndex(p, c.e, sq)
					if (!ok || !gok || got != want) && errs < 10 {
						errs++
						t.Errorf("%s: index(%s) = %d, %v; want %d, %v", c.name, squareNames(sq), got, gok, want, ok)
					}
					largest = max(largest, got)
					if seen != nil && got < size {
						if seen[got] && errs < 10 {
							errs++
							t.Errorf("%s: index %d twice", c.name, got)
						}
						seen[got] = true
					}
				})
			}
			if largest != size-1 {
				t.Errorf("%s, file %c: largest index %d, size %d", c.name, 'a'+f, largest, size)
			}
			if i := slices.Index(seen, false); i >= 0 {
				t.Errorf("%s, file %c: no placement has index %d", c.name, 'a'+f, i)
			}
		}
		t.Logf("%s: %d placements", c.name, placements)
	}
}

// placements calls fn with every placement (index order) that begins with the
// leading group's squares lead.
func (c *indexClass) placements(lead []int, fn func(sq []int)) {
	var rec func(g int, sq []int)
	rec = func(g int, sq []int) {
		if g == len(c.groups) {
			fn(sq)
			return
		}
		free := c.groupSquares(g, sq)
		n := c.groups[g]
		pick := make([]int, n)
		var comb func(i, from int)
		comb = func(i, from int) {
			if i == n {
				rec(g+1, append(slices.Clone(sq), pick...))
				return
			}
			for k := from; k <= len(free)-(n-i); k++ {
				pick[i] = free[k]
				comb(i+1, k+1)
			}
		}
		comb(0, 0)
	}
	rec(1, slices.Clone(lead))
}
