package movegen

import (
	"fmt"
	"io"
)

// maxPerftStack is how many plies of move lists Perft keeps on its stack;
// deeper calls (far beyond any practical perft) fall back to fresh lists.
const maxPerftStack = 16

// MaxPerftDepth is the deepest perft the front ends ("go perft", the perft
// subcommand) accept.
const MaxPerftDepth = 15

// Perft counts the leaf nodes of the legal move tree to depth (bulk counting
// at the last ply). Below depth 1 the tree is the position alone: 1.
func (p *Position) Perft(depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	if depth == 1 {
		return uint64(p.countLegal())
	}
	if depth > maxPerftStack {
		var l MoveList
		p.generate(&l, genAll)
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
	p.generate(l, genAll)
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
// Below depth 1 no root move is played: it returns nil.
func (p *Position) Divide(depth int, each func(DivideEntry)) []DivideEntry {
	if depth < 1 {
		return nil
	}
	var l MoveList
	p.generate(&l, genAll)
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

// WritePerft runs Divide to depth (below 1: none, and a count of 1, as
// Perft gives) and writes the result to w in the format
// of Stockfish's "go perft": with divide, a line "move: count" per root move
// (castling per chess960) and a blank line; then "Nodes searched: N". When
// progress is not nil it is called after each root move with the entry, the
// number of root moves done and their total. WritePerft returns the node
// count and the first write error.
func (p *Position) WritePerft(w io.Writer, depth int, chess960, divide bool,
	progress func(e DivideEntry, done, of int)) (uint64, error) {
	var l MoveList
	p.generate(&l, genAll)
	var total uint64
	done := 0
	var err error
	p.Divide(depth, func(e DivideEntry) {
		total += e.Nodes
		done++
		if divide && err == nil {
			_, err = fmt.Fprintf(w, "%s: %d\n", e.Move.UCI(chess960), e.Nodes)
		}
		if progress != nil {
			progress(e, done, l.N)
		}
	})
	if depth < 1 {
		total = 1 // Perft(0): the position itself
	}
	if divide && err == nil {
		_, err = fmt.Fprintln(w)
	}
	if err == nil {
		_, err = fmt.Fprintf(w, "Nodes searched: %d\n", total)
	}
	return total, err
}
