package search

import (
	"context"
	"fmt"
	"testing"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// checkScores fails unless every info and the result score want, and there
// is at least one info.
func checkScores(t *testing.T, name string, res Result, infos []Info, want int) {
	t.Helper()
	if len(infos) == 0 {
		t.Fatalf("%s: no info", name)
	}
	for _, i := range infos {
		if i.Score != want {
			t.Errorf("%s: info depth %d multipv %d score %d, want %d", name, i.Depth, i.MultiPV, i.Score, want)
		}
	}
	if res.Score != want {
		t.Errorf("%s: result score %d, want %d", name, res.Score, want)
	}
}

func TestDeadMaterial(t *testing.T) {
	for _, tc := range []struct {
		name, fen string
		dead, knn bool
	}{
		{"KvK", "8/8/4k3/8/8/3K4/8/8 w - - 0 1", true, false},
		{"KNvK", "8/8/4k3/8/8/3K4/5N2/8 w - - 0 1", true, false},
		{"KvKB", "8/8/4k3/3b4/8/3K4/8/8 w - - 0 1", true, false},
		{"KBvKB same colour", "5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1", true, false},
		{"KBBvKB one colour", "5b2/8/4k3/8/8/3KB3/8/2B5 w - - 0 1", true, false},
		{"KBvKB opposite colours", "4b3/8/4k3/8/8/3K4/8/2B5 w - - 0 1", false, false},
		{"KBvKN", "8/8/4k3/3n4/8/3K4/8/2B5 w - - 0 1", false, false},
		{"KNvKN", "8/8/4k3/3n4/8/3K4/5N2/8 w - - 0 1", false, false},
		{"KNNvK", "8/8/4k3/8/8/3K4/3NN3/8 w - - 0 1", false, true},
		{"KvKNN", "8/8/2n1k3/3n4/8/3K4/8/8 w - - 0 1", false, true},
		{"KNvKN is not KNNvK", "8/8/4k3/3n4/8/3K4/5N2/8 b - - 0 1", false, false},
		{"KNNNvK", "8/8/4k3/8/8/3K4/2NNN3/8 w - - 0 1", false, false},
		{"KBBvK two colours", "8/8/4k3/8/8/3K4/8/2BB4 w - - 0 1", false, false},
		{"KPvK", "8/8/4k3/8/8/3K4/4P3/8 w - - 0 1", false, false},
	} {
		pos := mustPos(t, tc.fen)
		if got := deadMaterial(pos); got != tc.dead {
			t.Errorf("%s: deadMaterial %v, want %v", tc.name, got, tc.dead)
		}
		if got := twoKnightsVsKing(pos); got != tc.knn {
			t.Errorf("%s: twoKnightsVsKing %v, want %v", tc.name, got, tc.knn)
		}
	}
}

// TestDeadPositionsReportZero: a dead position, and KNN v K where no mate
// is forced, report exactly 0 in every info and the result, with either
// evaluation, while the search inside scores its draws a point either side
// of 0 and evaluates the positions it does not know as drawn.
func TestDeadPositionsReportZero(t *testing.T) {
	for _, tc := range []struct{ name, fen string }{
		{"KvK", "8/8/4k3/8/8/3K4/8/8 w - - 0 1"},
		{"KNvK", "8/8/4k3/8/8/3K4/5N2/8 b - - 0 1"},
		{"KBvK", "8/8/4k3/8/8/3K4/5B2/8 w - - 0 1"},
		{"KvKB", "8/8/4k3/3b4/8/3K4/8/8 w - - 0 1"},
		{"KBvKB same colour", "5b2/8/4k3/8/8/3K4/8/2B5 w - - 0 1"},
		{"KBBvKB one colour", "5b2/8/4k3/8/8/3KB3/8/2B5 b - - 0 1"},
		{"KNNvK", "8/8/4k3/8/8/3K4/3NN3/8 w - - 0 1"},
		{"KNNvK defending", "8/8/4k3/8/8/3K4/3NN3/8 b - - 0 1"},
	} {
		for _, net := range []*nnue.Net{nil, nnue.Default()} {
			for _, multiPV := range []int{1, 3} {
				res, infos := run(t, tc.fen, Limits{Depth: 8}, Options{MultiPV: multiPV, Net: net})
				checkScores(t, fmt.Sprintf("%s (net %v, multipv %d)", tc.name, net != nil, multiPV), res, infos, 0)
			}
		}
	}
}

// TestKNNForcedMateReported: KNN v K with the defender already caught is a
// mate, and reported as one.
func TestKNNForcedMateReported(t *testing.T) {
	// Nb6 mates: the king c7 covers b7 and b8, the knight c6 covers a7.
	const fen = "k7/2K5/2N5/3N4/8/8/8/8 w - - 0 1"
	res, infos := run(t, fen, Limits{Depth: 4}, Options{})
	if len(infos) == 0 || !eval.IsMate(res.Score) || res.Score < 0 {
		t.Fatalf("result score %d, want a mate", res.Score)
	}
	if last := infos[len(infos)-1]; last.Score != res.Score {
		t.Errorf("last info score %d, want the result's %d", last.Score, res.Score)
	}
}

// TestFiftyMoveRootReportsZero: at 100 half-moves without a capture or pawn
// move the side to move may claim a draw; a lost or level root reports 0,
// one that wins by a capture that resets the count reports the win.
func TestFiftyMoveRootReportsZero(t *testing.T) {
	for _, tc := range []struct{ name, fen string }{
		{"lost, to move", "8/8/4k3/8/8/3K4/8/R7 b - - 100 80"},
		{"winning, no reset", "8/8/4k3/8/8/3K4/8/R7 w - - 100 80"},
	} {
		res, infos := run(t, tc.fen, Limits{Depth: 8}, Options{})
		checkScores(t, tc.name, res, infos, 0)
	}
	res, _ := run(t, "8/8/4k3/8/8/3K4/8/R7 b - - 0 80", Limits{Depth: 8}, Options{})
	if res.Score > -300 {
		t.Errorf("no claim: score %d, want a lost position (below -300)", res.Score)
	}
	res, _ = run(t, "8/8/4k3/8/3q4/4P3/3K4/7R w - - 100 80", Limits{Depth: 8}, Options{})
	if res.Score < 300 {
		t.Errorf("winning capture exd4: score %d, want a won position (above 300)", res.Score)
	}
}

// TestThreefoldRootReportsZero: Black, a queen down, stands in a position
// for the third time (left by a different king move each time, so no move
// repeats a position twice); it may claim the draw and reports 0. The same
// position without its history is lost.
func TestThreefoldRootReportsZero(t *testing.T) {
	const fen = "6k1/8/8/8/8/8/8/2Q1K3 b - - 0 1"
	pos := mustPos(t, fen)
	for _, s := range []string{"g8h8", "c1d1", "h8g8", "d1c1", "g8f8", "c1d1", "f8g8", "d1c1"} {
		pos.Make(mustMove(t, pos, s))
	}
	if pos.RepetitionCount() != 2 {
		t.Fatalf("test setup: the root stands %d times, want 3", pos.RepetitionCount()+1)
	}
	p := NewPool(tt.New(16))
	var infos []Info
	res := p.Search(context.Background(), pos, Limits{Depth: 8}, Options{Threads: 1}, func(i Info) { infos = append(infos, i) })
	checkScores(t, "threefold", res, infos, 0)

	res, _ = run(t, fen, Limits{Depth: 8}, Options{})
	if res.Score > -300 {
		t.Errorf("no history: score %d, want a lost position (below -300)", res.Score)
	}
}

// TestNonDrawNotZero: an ordinary position reports its own score, and the
// reported score is the search's when no draw rule applies.
func TestNonDrawNotZero(t *testing.T) {
	res, infos := run(t, "4k3/8/8/8/8/8/4P3/4K2R w K - 0 1", Limits{Depth: 8}, Options{})
	if len(infos) == 0 || res.Score < 200 {
		t.Errorf("KRP v K: score %d, want a won position (above 200)", res.Score)
	}
	var pos movegen.Position
	if err := pos.SetFEN(movegen.StartFEN); err != nil {
		t.Fatal(err)
	}
	if kind, claimable := rootDraw(&pos); kind != leafNotDrawn || claimable {
		t.Errorf("start position: rootDraw %v %v, want not drawn", kind, claimable)
	}
}
