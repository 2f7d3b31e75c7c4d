package eval

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// netCount returns how many more times term i counts for white than for
// black in pos.
func netCount(t *testing.T, e *Evaluator, fen string, i int) int {
	t.Helper()
	for _, f := range e.Features(mustPos(t, fen), nil).Terms {
		if int(f.Index) == i {
			return int(f.Count)
		}
	}
	return 0
}

// TestTermDetection checks each feature's detection on small positions.
func TestTermDetection(t *testing.T) {
	cases := []struct {
		name string
		fen  string
		term int
		want int
	}{
		{"doubled c-pawns", "4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", iDoubled, 1},
		{"both doubled pawns isolated", "4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", iIsolated, 2},
		{"only the front doubled pawn passed", "4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", iPassed + 2, 1},
		{"rear doubled pawn not passed", "4k3/8/8/8/8/2P5/2P5/4K3 w - - 0 1", iPassed + 1, 0},
		{"backward d3", "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1", iBackward, 1},
		{"isolated e5", "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1", iIsolated, -1},
		{"c4 supported by d3", "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1", iSupported + 3, 1},
		{"not backward when stop is free", "4k3/8/8/8/2P5/3P4/8/4K3 w - - 0 1", iBackward, 0},
		{"phalanx d4 e4", "4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1", iPhalanx + 3, 2},
		{"blocked pawns not passed", "4k3/8/8/3p4/3P4/8/8/4K3 w - - 0 1", iPassed + 3, 0},
		{"adjacent enemy pawn stops a passer", "4k3/4p3/8/8/3P4/8/8/4K3 w - - 0 1", iPassed + 3, 0},
		{"passer free path", "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", iPassedFree + 4, 1},
		{"passer blocked path", "3nk3/8/8/3P4/8/8/8/4K3 w - - 0 1", iPassedFree + 4, 0},
		{"passer own king distance", "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", iPassedKingOwn, 2 * 5},
		{"passer enemy king distance", "4k3/8/8/3P4/8/8/8/4K3 w - - 0 1", iPassedKingOpp, 2 * 2},
		{"rook open file", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", iRookOpen, 1},
		{"rook semi-open file", "4k3/p7/8/8/8/8/8/R3K3 w - - 0 1", iRookSemiOpen, 1},
		{"rook closed file", "4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1", iRookSemiOpen, 0},
		{"rook on seventh", "4k3/R7/8/8/8/8/8/4K3 w - - 0 1", iRookSeventh, 1},
		{"pawn attacks knight", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", iThreatPawn + 0, 1},
		{"knight hangs", "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", iHanging, 1},
		{"defended knight does not hang", "4k3/8/4p3/3n4/4P3/8/8/4K3 w - - 0 1", iHanging, 0},
		{"knight attacks rook", "4k3/8/8/3r4/8/2N5/8/4K3 w - - 0 1", iThreatMinor + 2, 1},
		{"rook attacks queen", "4k3/8/8/8/8/8/8/q2RK3 w - - 0 1", iThreatRook + 3, 1},
		{"knight outpost", "4k3/8/8/4N3/3P4/8/8/4K3 w - - 0 1", iKnightOutpost, 1},
		{"no outpost when a pawn can chase", "4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1", iKnightOutpost, 0},
		{"bishop pair", "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", iBishopPair, 1},
		{"bad bishop pawns", "4k3/8/8/8/8/8/P1P5/2B1K3 w - - 0 1", iBadBishop, 0},
		{"bad bishop pawns on its colour", "4k3/8/8/8/8/8/1P1P4/2B1K3 w - - 0 1", iBadBishop, 2},
		{"safe knight check", "6k1/8/8/8/4N3/8/P7/4K3 w - - 0 1", iSafeCheck + 0, 1},
		{"guarded check square is not safe", "6k1/4p3/8/8/4N3/8/P7/4K3 w - - 0 1", iSafeCheck + 0, 0},
		{"two zone attackers", "6k1/8/8/8/8/8/8/4KQ1R w - - 0 1", iKingAttackers + 2, 1},
		{"queen zone hits with two attackers", "6k1/8/8/8/8/8/8/4KQ1R w - - 0 1", iKingAttack + 3, 2},
		{"lone attacker's hits not counted", "6k1/8/8/8/8/8/8/4K2R w - - 0 1", iKingAttack + 2, 0},
		{"corner bishop h8/g7 for black", "6kb/6p1/8/8/8/8/8/4K3 w - - 0 1", iCornerBishop, -1},
		{"corner bishop a8/b7 blocked by b6", "bk6/1p6/1p6/8/8/8/8/4K3 w - - 0 1", iCornerBlocked, -1},
		{"tempo", "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", iTempo, -1},
	}
	e := NewEvaluator(nil)
	for _, c := range cases {
		if got := netCount(t, e, c.fen, c.term); got != c.want {
			t.Errorf("%s (%s): net count %d, want %d", c.name, c.fen, got, c.want)
		}
	}
}

// groupMG returns white's minus black's middlegame sum of one term group.
func groupMG(t *testing.T, e *Evaluator, p *Params, fen, name string) int {
	t.Helper()
	for _, g := range TermGroups() {
		if g.Name != name {
			continue
		}
		v := 0
		for _, f := range e.Features(mustPos(t, fen), nil).Terms {
			if i := int(f.Index); i >= g.Start && i < g.Start+g.Len {
				v += int(f.Count) * p[i].MG
			}
		}
		return v
	}
	t.Fatalf("no group %q", name)
	return 0
}

// TestShelterAnyFile puts the white king on every file of the first rank
// with a pawn shield in front: it must beat the same king without the
// shield, and a king on file f must get what the king on the mirrored file
// gets (960 kings sit anywhere).
func TestShelterAnyFile(t *testing.T) {
	p := DefaultParams()
	e := NewEvaluator(&p)
	pos := func(kfile int, shield bool, pawnRank int) string {
		var b [8][8]byte // b[r][f]: rank r+1, file f
		b[7][4] = 'k'
		b[0][kfile] = 'K'
		if shield {
			c := min(max(kfile, 1), 6)
			for f := c - 1; f <= c+1; f++ {
				b[pawnRank][f] = 'P'
			}
		}
		s := ""
		for r := 7; r >= 0; r-- {
			empty := 0
			for f := 0; f < 8; f++ {
				if b[r][f] == 0 {
					empty++
					continue
				}
				if empty > 0 {
					s += fmt.Sprint(empty)
					empty = 0
				}
				s += string(b[r][f])
			}
			if empty > 0 {
				s += fmt.Sprint(empty)
			}
			if r > 0 {
				s += "/"
			}
		}
		return s + " w - - 0 1"
	}
	for f := 0; f < 8; f++ {
		// The black king's own shelter is the same in each pair below.
		with := groupMG(t, e, &p, pos(f, true, 1), "King shelter")
		without := groupMG(t, e, &p, pos(f, false, 1), "King shelter")
		advanced := groupMG(t, e, &p, pos(f, true, 4), "King shelter")
		if with <= without || with <= advanced {
			t.Errorf("king on file %c: shield on 2nd %d, none %d, on 5th %d", 'a'+f, with, without, advanced)
		}
		if mirror := groupMG(t, e, &p, pos(7-f, true, 1), "King shelter"); mirror != with {
			t.Errorf("king on file %c: shelter %d, mirrored file %d", 'a'+f, with, mirror)
		}
	}
}

// TestClamp: huge weights never produce a mate-range score.
func TestClamp(t *testing.T) {
	p := DefaultParams()
	p[iTempo] = Pair{32000, 32000}
	e := NewEvaluator(&p)
	pos := mustPos(t, movegen.StartFEN)
	if v := e.Evaluate(pos); v != MateInMaxPly-1 {
		t.Fatalf("got %d, want the clamp %d", v, MateInMaxPly-1)
	}
	pos = mustPos(t, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1")
	if v := e.Evaluate(pos); v != MateInMaxPly-1 || IsMate(v) {
		t.Fatalf("got %d, want the clamp %d", v, MateInMaxPly-1)
	}
}

// TestPawnCacheAlongGames walks seeded random games with make/unmake and
// compares the cached evaluator with the plain function at every node,
// before and after the entry is certainly cached.
func TestPawnCacheAlongGames(t *testing.T) {
	e := NewEvaluator(nil)
	rng := rand.New(rand.NewPCG(5, 9))
	var ml movegen.MoveList
	nodes := 0
	for g := 0; g < 40; g++ {
		fen, err := movegen.Chess960FEN(rng.IntN(960))
		if err != nil {
			t.Fatal(err)
		}
		p := mustPos(t, fen)
		for ply := 0; ply < 150; ply++ {
			ml.Clear()
			p.GenerateLegal(&ml)
			if ml.Len() == 0 {
				break
			}
			// Look at every reply, then play one.
			for i := 0; i < ml.Len(); i++ {
				p.Make(ml.At(i))
				want := Evaluate(p)
				if a, b := e.Evaluate(p), e.Evaluate(p); a != want || b != want {
					t.Fatalf("%s: cached %d then %d, plain %d", p.FEN(true), a, b, want)
				}
				p.Unmake()
				nodes++
			}
			p.Make(ml.At(rng.IntN(ml.Len())))
		}
	}
	t.Logf("%d nodes", nodes)
}
