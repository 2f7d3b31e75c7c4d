package movegen

// maxPerftStack is how many plies of move lists Perft keeps on its stack;
// deeper calls (far beyond any practical perft) fall back to fresh lists.
const maxPerftStack = 16

// Perft counts the leaf nodes of the legal move tree to depth (bulk counting
// at the last ply).
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return uint64(p.countLegal())
	}
	if depth > maxPerftStack {
		var l MoveList
		p.generate(&l, GenAll)
		var n uint64
		for i := 0; i < l.N; i++ {
			p.Make(l.Moves[i].Move)
			n += p.Perft(depth - 1)
			p.Unmake()
		}
		return n
	}
	var lists [maxPerftStack]MoveList
	return p.perft(depth, lists[:depth])
}

// perft recurses with one preallocated move list per remaining ply.
func (p *Position) perft(depth int, lists []MoveList) uint64 {
	if depth == 1 {
		return uint64(p.countLegal())
	}
	l := &lists[depth-1]
	l.N = 0
	p.generate(l, GenAll)
	var n uint64
	for i := 0; i < l.N; i++ {
		p.Make(l.Moves[i].Move)
		n += p.perft(depth-1, lists)
		p.Unmake()
	}
	return n
}

// DivideEntry is one root move and its perft count.
type DivideEntry struct {
	Move  Move
	Nodes uint64
}

// Divide returns the perft count below each root move, in generation order.
// When each is non-nil it is called after every root move (for progress).
func (p *Position) Divide(depth int, each func(DivideEntry)) []DivideEntry {
	var l MoveList
	p.generate(&l, GenAll)
	out := make([]DivideEntry, 0, l.N)
	for i := 0; i < l.N; i++ {
		m := l.Moves[i].Move
		p.Make(m)
		e := DivideEntry{Move: m, Nodes: p.Perft(depth - 1)}
		p.Unmake()
		out = append(out, e)
		if each != nil {
			each(e)
		}
	}
	return out
}
