package movegen

import (
	"math/rand/v2"
	"testing"
)

// TestCuckooTable: every reversible move of a knight, bishop, rook, queen or
// king of either colour is found by its key difference, and nothing else is
// in the table.
func TestCuckooTable(t *testing.T) {
	held := 0
	for i := range cuckoo.keys {
		if cuckoo.moves[i] != NoMove {
			held++
		}
	}
	if held != cuckooMoves {
		t.Fatalf("%d moves in the table, want %d", held, cuckooMoves)
	}
	for c := White; c <= Black; c++ {
		for pt := Knight; pt <= King; pt++ {
			pc := MakePiece(c, pt)
			for s1 := Square(0); s1 < 64; s1++ {
				for s2 := Square(0); s2 < 64; s2++ {
					diff := zobristPiece[pc][s1] ^ zobristPiece[pc][s2] ^ zobristSide
					m, ok := cuckoo.lookup(diff)
					reaches := Attacks(pt, s1, 0)&SquareBB(s2) != 0
					if ok != reaches {
						t.Fatalf("%v %v-%v: found %v, want %v", pc, s1, s2, ok, reaches)
					}
					if ok && m != NewMove(min(s1, s2), max(s1, s2)) {
						t.Fatalf("%v %v-%v: table move %v", pc, s1, s2, m)
					}
				}
			}
		}
	}
	// A pawn's step is never a reversible move.
	if _, ok := cuckoo.lookup(zobristPiece[MakePiece(White, Pawn)][12] ^ zobristPiece[MakePiece(White, Pawn)][20] ^ zobristSide); ok {
		t.Error("a pawn move found in the table")
	}
}

// TestHasUpcomingRepetition: the cases of the rule, by hand.
func TestHasUpcomingRepetition(t *testing.T) {
	p := NewPosition()
	play(t, p, "g1f3", "g8f6", "f3g1") // Black's Nf6-g8 returns to the start, 3 plies back
	for _, c := range []struct {
		ply  int
		want bool
	}{
		{0, false}, // the root: the start position is a game position
		{3, false}, // the start position is the root
		{4, true},  // the start position is inside the search
		{100, true},
	} {
		if got := p.HasUpcomingRepetition(c.ply); got != c.want {
			t.Errorf("after Nf3 Nf6 Ng1 at ply %d: %v, want %v", c.ply, got, c.want)
		}
	}

	// White to move after Nf3 Nf6 Ng1 Ng8: the position 3 plies back (after
	// Nf3) returns with Ng1-f3.
	play(t, p, "f6g8")
	if !p.HasUpcomingRepetition(10) {
		t.Error("after Nf3 Nf6 Ng1 Ng8: no upcoming repetition")
	}

	// A pawn move ends the reach of the half-move clock.
	p = NewPosition()
	play(t, p, "g1f3", "e7e6", "f3g1")
	if p.HasUpcomingRepetition(10) {
		t.Error("after Nf3 e6 Ng1: the pawn move counted as undone")
	}

	// A null move ends the scan; taking it back restores it.
	p = NewPosition()
	play(t, p, "g1f3", "g8f6", "f3g1", "f6g8")
	p.MakeNull()
	if p.HasUpcomingRepetition(10) {
		t.Error("found across a null move")
	}
	p.UnmakeNull()
	if !p.HasUpcomingRepetition(10) {
		t.Error("lost after the null move was taken back")
	}

	// 7 plies: the white rook went a5-b5-b1-a1 while the black king went
	// e8-d8-c8-d8-e8. White to move: Ra1-a5 returns to the position 7 plies
	// back (and no move to a later one), if nothing stands on a2-a4.
	moves := []string{"e8d8", "a5b5", "d8c8", "b5b1", "c8d8", "b1a1", "d8e8"}
	p = mustPos(t, "4k3/8/8/R7/8/8/8/4K3 b - - 0 1")
	play(t, p, moves...)
	if !p.HasUpcomingRepetition(8) {
		t.Error("Ra1-a5 repeats the position 7 plies back")
	}
	if p.HasUpcomingRepetition(7) {
		t.Error("the position 7 plies back is the root")
	}
	p = mustPos(t, "4k3/8/8/R7/8/N7/8/4K3 b - - 0 1")
	play(t, p, moves...)
	if p.HasUpcomingRepetition(8) {
		t.Error("Ra1-a5 found through the knight on a3")
	}

	// 5 plies: the black rook went a8-a6-a5-a4 while White's knight went
	// out and back. White to move: the position 5 plies back differs by
	// Black's rook alone, a move White cannot make.
	p = mustPos(t, "r3k3/8/8/8/8/8/8/4K1N1 b - - 0 1")
	play(t, p, "a8a6", "g1f3", "a6a5", "f3g1", "a5a4")
	if p.HasUpcomingRepetition(10) {
		t.Error("the move that repeats is the opponent's")
	}
}

// TestHasUpcomingRepetitionOracle compares the cuckoo lookup with a scan of
// every move of the side to move's pieces along random games of mostly
// reversible moves.
func TestHasUpcomingRepetitionOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	found := 0
	games := 200
	if testing.Short() {
		games = 40
	}
	for g := range games {
		p := mustPos(t, []string{
			"r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1",
			"4k3/2q5/8/8/3N4/8/1B6/4K3 w - - 0 1",
			StartFEN,
		}[g%3])
		for range 60 {
			var l MoveList
			p.GenerateLegal(&l)
			if l.N == 0 {
				break
			}
			for _, ply := range []int{2, 3, 5, 8, 200} {
				want := upcomingByScan(p, ply)
				if got := p.HasUpcomingRepetition(ply); got != want {
					t.Fatalf("%s at ply %d: %v, want %v", p.FEN(true), ply, got, want)
				}
				if want && ply == 200 {
					found++
				}
			}
			// Prefer quiet piece moves, so that positions come back.
			m := l.Moves[rng.IntN(l.N)].Move
			for try := 0; try < 8 && (p.PieceOn(m.To()) != NoPiece || p.PieceOn(m.From()).Type() == Pawn); try++ {
				m = l.Moves[rng.IntN(l.N)].Move
			}
			p.Make(m)
		}
	}
	if found < 50 {
		t.Errorf("only %d positions with an upcoming repetition: the games test too little", found)
	}
}

// upcomingByScan is HasUpcomingRepetition by brute force: some piece of the
// side to move (not a pawn) steps to an empty square it attacks, and the
// key, with the pieces alone changed, is that of a position an odd number of
// plies back, from 3 to the reach of the clock, within the search.
func upcomingByScan(p *Position, ply int) bool {
	end := min(p.rule50, p.sinceNull, ply-1)
	n := len(p.keys)
	occ := p.Occupied()
	for s1 := Square(0); s1 < 64; s1++ {
		pc := p.board[s1]
		if pc == NoPiece || pc.Color() != p.side || pc.Type() == Pawn {
			continue
		}
		for b := Attacks(pc.Type(), s1, occ) &^ occ; b != 0; {
			s2 := b.PopLSB()
			key := p.key ^ zobristPiece[pc][s1] ^ zobristPiece[pc][s2] ^ zobristSide
			for i := 3; i <= end; i += 2 {
				if p.keys[n-i] == key {
					return true
				}
			}
		}
	}
	return false
}
