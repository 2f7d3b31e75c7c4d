package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// gamePositions plays short games of node-limited searches from a few
// openings (with random plies) and calls visit with each search's result
// and reports. It stops after n searches.
func gamePositions(t *testing.T, n int, nodes uint64, visit func(pos *movegen.Position, res Result, infos []Info)) {
	t.Helper()
	starts := []string{
		movegen.StartFEN,
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	}
	rng := rand.New(rand.NewPCG(13, 1))
	p := NewPool(tt.New(16))
	done := 0
	for g := 0; done < n; g++ {
		pos := mustPos(t, starts[g%len(starts)])
		for range 4 {
			var l movegen.MoveList
			pos.GenerateLegal(&l)
			if l.N == 0 {
				break
			}
			pos.Make(l.At(rng.IntN(l.N)))
		}
		p.NewGame()
		for ply := 0; ply < 60 && done < n && pos.HasLegalMove() && !pos.IsDrawByRule(); ply++ {
			var infos []Info
			res := p.Search(context.Background(), pos, Limits{Nodes: nodes}, Options{Threads: 1},
				func(i Info) { infos = append(infos, i) })
			done++
			visit(pos, res, infos)
			pos.Make(res.BestMove)
		}
	}
}

// TestNodeLimitedScoreIsExact: a search stopped by its node limit returns
// an exact score, never an aspiration bound: the last completed depth's
// score, or a line of the aborted depth that the final report shows as exact.
// A bound in the final report is marked as one.
func TestNodeLimitedScoreIsExact(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 40
	}
	fromAborted := 0
	gamePositions(t, n, 5000, func(pos *movegen.Position, res Result, infos []Info) {
		if len(infos) == 0 {
			t.Fatalf("%s: no info", pos.FEN(true))
		}
		ref, found := 0, false
		for _, in := range infos {
			if in.Depth == res.Depth && in.Bound == Exact {
				ref, found = in.Score, true
				break
			}
		}
		if !found {
			t.Fatalf("%s: no exact report at the completed depth %d", pos.FEN(true), res.Depth)
		}
		final := infos[len(infos)-1]
		if final.Score != res.Score && final.Bound == Exact {
			t.Errorf("%s: final info shows %d as exact, result %d", pos.FEN(true), final.Score, res.Score)
		}
		if res.Score == ref {
			return
		}
		fromAborted++
		if final.Bound != Exact || final.Score != res.Score {
			t.Errorf("%s: score %d is neither depth %d's %d nor an exact line of the aborted depth (final info %d, bound %d)",
				pos.FEN(true), res.Score, res.Depth, ref, final.Score, final.Bound)
		}
	})
	t.Logf("%d searches, %d scores from a line of the aborted depth", n, fromAborted)
}

// TestSingleReplyAnswersAtOnce: with one legal move under a clock the
// search stops after a short search that still gives a ponder move.
func TestSingleReplyAnswersAtOnce(t *testing.T) {
	fen := "6k1/8/8/8/8/7N/6PP/r6K w - - 0 1" // only Ng1 meets the check
	// An hour on the clock: the soft limit cannot cut the short search even
	// on a starved machine, so only the single-reply rule can end it.
	res, _ := run(t, fen, Limits{HasClock: true, WTime: time.Hour, BTime: time.Hour}, Options{})
	if got := res.BestMove.UCI(false); got != "h3g1" {
		t.Fatalf("best %s, want h3g1", got)
	}
	if res.Depth != tmSingleReplyDepth {
		t.Errorf("searched to depth %d with one legal move, want %d", res.Depth, tmSingleReplyDepth)
	}
	if res.PonderMove == movegen.NoMove {
		t.Error("no ponder move")
	}
	// Without a clock (depth, movetime, infinite) the limits are the caller's.
	res, _ = run(t, fen, Limits{Depth: tmSingleReplyDepth + 2}, Options{})
	if res.Depth != tmSingleReplyDepth+2 {
		t.Errorf("depth-limited search with one legal move reached depth %d, want %d", res.Depth, tmSingleReplyDepth+2)
	}
}

// TestBestChangeResetPerSearch: best-move instability from one search does
// not stretch the next one's time.
func TestBestChangeResetPerSearch(t *testing.T) {
	p := NewPool(tt.New(1))
	pos := mustPos(t, movegen.StartFEN)
	p.Search(context.Background(), pos, Limits{Depth: 1}, Options{Threads: 1}, nil)
	p.workers[0].bestChange = 8
	p.Search(context.Background(), pos, Limits{Depth: 1}, Options{Threads: 1}, nil)
	if bc := p.workers[0].bestChange; bc != 0 {
		t.Errorf("bestChange %v after a depth-1 search, want 0", bc)
	}
}

// TestOpponentClockOnly: a go command that gives only the opponent's clock
// budgets as if ours were the same; our own clock at zero still means hurry.
func TestOpponentClockOnly(t *testing.T) {
	budget := func(lim Limits, us movegen.Color) (soft, hard time.Duration) {
		p := NewPool(tt.New(1))
		p.limits = lim
		p.setTimeLimits(us)
		return p.soft, p.hard
	}
	oneMinute := Limits{HasClock: true, WTime: time.Minute, BTime: time.Minute}
	wantSoft, wantHard := budget(oneMinute, movegen.White)
	for _, c := range []struct {
		name string
		lim  Limits
		us   movegen.Color
	}{
		{"btime only, white to move", Limits{HasClock: true, BTimeGiven: true, BTime: time.Minute}, movegen.White},
		{"wtime only, black to move", Limits{HasClock: true, WTimeGiven: true, WTime: time.Minute}, movegen.Black},
		{"both given", Limits{HasClock: true, WTimeGiven: true, BTimeGiven: true, WTime: time.Minute, BTime: time.Minute}, movegen.Black},
	} {
		if soft, hard := budget(c.lim, c.us); soft != wantSoft || hard != wantHard {
			t.Errorf("%s: budget %v/%v, want %v/%v as with both clocks at a minute", c.name, soft, hard, wantSoft, wantHard)
		}
	}
	own0 := Limits{HasClock: true, WTimeGiven: true, BTimeGiven: true, BTime: time.Minute}
	if _, hard := budget(own0, movegen.White); hard > time.Duration(tmMinMillis)*time.Millisecond {
		t.Errorf("own clock given as 0: hard limit %v, want at most the minimum budget", hard)
	}
}

// TestHelperSkipsCompletedDepths: a helper skips a depth that another worker
// completed, or that half of the workers already search, so that with two
// threads it runs one ply ahead of the main thread.
func TestHelperSkipsCompletedDepths(t *testing.T) {
	p := NewPool(tt.New(1))
	main, helper := newWorker(0, p), newWorker(1, p)
	p.workers = []*worker{main, helper}
	p.deepest.Store(5)
	main.searching.Store(6)
	helper.completed = 3 // the helper itself is behind
	for _, c := range []struct {
		w     *worker
		depth int
		skip  bool
	}{
		{helper, 5, true},  // completed by the main thread
		{helper, 6, true},  // the main thread (half of the workers) searches it
		{helper, 7, false}, // nobody is there yet: the helper goes ahead
		{helper, 1, false}, // depth 1 is never skipped
		{main, 6, false},   // the main thread never skips
	} {
		if got := c.w.skipDepth(c.depth); got != c.skip {
			t.Errorf("2 workers, worker %d at depth %d: skip %v, want %v", c.w.id, c.depth, got, c.skip)
		}
	}
	// Four workers: one other at the depth is a quarter, two are half.
	h2, h3 := newWorker(2, p), newWorker(3, p)
	p.workers = []*worker{main, helper, h2, h3}
	if helper.skipDepth(6) {
		t.Error("4 workers, one of them at depth 6: the helper skips it, want not")
	}
	h2.searching.Store(7)
	if !helper.skipDepth(6) {
		t.Error("4 workers, two of them at depth 6 or deeper: the helper searches it, want skip")
	}
	for _, threads := range []int{2, 3} {
		res, _ := run(t, movegen.StartFEN, Limits{Depth: 7}, Options{Threads: threads})
		if res.Depth != 7 {
			t.Errorf("%d threads: depth %d, want 7", threads, res.Depth)
		}
	}
}

// TestSEEPinnerExchanged: a pinned piece may recapture once its pinner has
// left for the target square, and not while the pinner stays.
func TestSEEPinnerExchanged(t *testing.T) {
	cases := []struct {
		fen, move string
		value     int // exact exchange value
	}{
		// Rxh6 frees the bishop e3 it pinned: Bxh6 wins the rook back.
		{"k7/8/4r2N/8/8/4B3/8/4K3 b - - 0 1", "e6h6", 320 - 500},
		// Nxh6 leaves the rook on e6: the bishop stays pinned.
		{"k5n1/8/4r2N/8/8/4B3/8/4K3 b - - 0 1", "g8h6", 320},
	}
	for _, c := range cases {
		checkSEE(t, c.fen, c.move, c.value)
	}
}

// gameFrom sets up fen and plays moves (UCI, standard notation).
func gameFrom(t *testing.T, fen string, moves ...string) *movegen.Position {
	t.Helper()
	pos := mustPos(t, fen)
	for _, s := range moves {
		pos.Make(mustMove(t, pos, s))
	}
	return pos
}

// TestRepetitionBeforeRootNotADraw: the winning line passes a position that
// occurred once in the game, before the root; it is no draw, and the engine
// takes it. When the position occurred twice before, it would be the third
// time: a draw, which the engine avoids while it is ahead.
func TestRepetitionBeforeRootNotADraw(t *testing.T) {
	// The fork Nc7+ wins the queen a8; white is ahead without it too.
	const forked = "q3k3/2N2ppp/8/8/8/3B4/PPP2PPP/2K4R b - - 0 1"
	cycle := []string{"e8d7", "c7b5", "d7e8"} // back to the fork's eve
	search := func(pos *movegen.Position) Result {
		p := NewPool(tt.New(16))
		return p.Search(context.Background(), pos, Limits{Depth: 8}, Options{Threads: 1}, nil)
	}

	once := gameFrom(t, forked, cycle...)
	res := search(once)
	if got := res.BestMove.UCI(false); got != "b5c7" || res.Score < 500 {
		t.Errorf("fork seen once before the root: best %s score %d, want b5c7 winning the queen", got, res.Score)
	}

	twice := gameFrom(t, forked, append(append(slices.Clone(cycle), "b5c7"), cycle...)...)
	res = search(twice)
	if got := res.BestMove.UCI(false); got == "b5c7" || res.Score <= 0 {
		t.Errorf("fork seen twice before the root: best %s score %d, want another move, still ahead", got, res.Score)
	}
}

// TestPerpetualInTreeIsDraw: a repetition inside the tree is a draw: a side
// far behind finds the perpetual check (Qg5+ Kh8 Qf6+ Kg8 Qg5+). Depth 12
// proves it with the hand-written evaluation; at 10 the search still sees
// escapes it has not refuted (a score of -41, near the test's bound).
func TestPerpetualInTreeIsDraw(t *testing.T) {
	fen := "rr4k1/pp3p1p/8/8/8/8/3Q2PP/7K w - - 0 1"
	res, _ := run(t, fen, Limits{Depth: 12}, Options{})
	if got := res.BestMove.UCI(false); got != "d2g5" || res.Score < -50 || res.Score > 50 {
		t.Errorf("best %s score %d, want the perpetual d2g5 and a draw", got, res.Score)
	}
}

// qsWorker returns a worker ready to call qsearch on fen, with its table.
func qsWorker(t *testing.T, fen string) *worker {
	t.Helper()
	p := NewPool(tt.New(1))
	w := newWorker(0, p)
	p.workers = []*worker{w}
	w.pos, w.table = mustPos(t, fen), p.table
	for i := range w.stack {
		w.stack[i] = frame{staticEval: -infinite}
		w.stack[i].cont = &w.hist.cont[0][0][0]
	}
	return w
}

// TestQsearchStandPatIgnoresTTMate: a mate score stored in the table is not
// taken as quiescence's stand-pat value (the main search keeps mate scores
// out of its pruning the same way).
func TestQsearchStandPatIgnoresTTMate(t *testing.T) {
	const fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1" // no capture for white
	const ply = 1
	for _, c := range []struct {
		name  string
		score int
		bound tt.Bound
	}{
		{"mate lower bound", eval.MateIn(9), tt.BoundLower},
		{"mate exact", eval.MateIn(9), tt.BoundExact},
		{"mated upper bound", eval.MatedIn(10), tt.BoundUpper},
	} {
		w := qsWorker(t, fen)
		static := w.eval.Evaluate(w.pos)
		w.ttRecord(w.pos.Key(), ply, movegen.NoMove, c.score, static, qsDepth, c.bound, true)
		if got := w.qsearch(-infinite, infinite, ply); got != static {
			t.Errorf("%s in the table: qsearch %d, want the static evaluation %d", c.name, got, static)
		}
	}
}

// TestQsearchTTCutoffRule50: near the 50-move limit quiescence takes no
// cutoff from the table (the stored score may miss the coming draw), as the
// main search; earlier it does.
func TestQsearchTTCutoffRule50(t *testing.T) {
	const ply = 1
	for _, c := range []struct {
		rule50 int
		cut    bool
	}{{10, true}, {ttCutoffMaxRule50 - 1, true}, {ttCutoffMaxRule50, false}, {95, false}} {
		w := qsWorker(t, fmt.Sprintf("4k3/8/8/8/8/8/4P3/4K3 w - - %d 80", c.rule50))
		static := w.eval.Evaluate(w.pos)
		// An upper bound above the static evaluation: it settles the null
		// window (static+100, static+101) but is no better stand-pat value.
		w.ttRecord(w.pos.Key(), ply, movegen.NoMove, static+50, static, qsDepth, tt.BoundUpper, false)
		want := static
		if c.cut {
			want = static + 50
		}
		if got := w.qsearch(static+100, static+101, ply); got != want {
			t.Errorf("50-move counter %d: qsearch %d, want %d (cutoff %v)", c.rule50, got, want, c.cut)
		}
	}
}

// TestThreadsBestMoveIsLastPV: with several threads the played move is the
// main thread's best move and the first move of the last reported PV, and
// the score is exact.
func TestThreadsBestMoveIsLastPV(t *testing.T) {
	p := NewPool(tt.New(16))
	for i, fen := range []string{
		movegen.StartFEN,
		"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
		"6k1/8/8/8/8/7N/6PP/r6K w - - 0 1",
	} {
		var infos []Info
		nodes := uint64(20000 + 7000*i)
		if testing.Short() {
			nodes /= 4
		}
		res := p.Search(context.Background(), mustPos(t, fen), Limits{Nodes: nodes}, Options{Threads: 3},
			func(in Info) { infos = append(infos, in) })
		last := infos[len(infos)-1]
		if last.PV[0] != res.BestMove {
			t.Errorf("%s: bestmove %v, last PV starts with %v", fen, res.BestMove, last.PV[0])
		}
		if last.Bound == Exact && last.Score != res.Score {
			t.Errorf("%s: score %d, last exact report %d", fen, res.Score, last.Score)
		}
		if main := p.workers[0].rootMoves[0].move; res.BestMove != main {
			t.Errorf("%s: bestmove %v, the main thread's %v", fen, res.BestMove, main)
		}
	}
}

// TestQsearchFailHighAverage: a fail high in quiescence returns halfway
// between the score found and beta, a mate score unchanged.
func TestQsearchFailHighAverage(t *testing.T) {
	const ply = 1
	w := qsWorker(t, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1") // no capture for white
	static := w.correction(w.eval.Evaluate(w.pos), ply)
	if got, want := w.qsearch(static-101, static-100, ply), static-50; got != want {
		t.Errorf("stand pat %d against beta %d: qsearch %d, want %d", static, static-100, got, want)
	}
	if got, want := failHighScore(eval.MateIn(5), 100), eval.MateIn(5); got != want {
		t.Errorf("a mate score above beta becomes %d, want it kept (%d)", got, want)
	}
}

// TestQsearchQuietEvasions: in check, quiescence searches evasions until one
// is found that is not mated, and after it only captures.
func TestQsearchQuietEvasions(t *testing.T) {
	const ply = 1
	for _, c := range []struct {
		fen   string
		nodes uint64
	}{
		{"k3r3/8/8/1B6/8/8/8/4K3 w - - 0 1", 1}, // Bxe8 first; Be2, Kd1, Kd2, Kf1, Kf2 left out
		{"k3r3/8/8/8/8/8/8/4K3 w - - 0 1", 1},   // no capture: one king move of four
	} {
		w := qsWorker(t, c.fen)
		w.qsearch(-infinite, infinite, ply)
		if w.nodes != c.nodes {
			t.Errorf("%s: qsearch searched %d moves, want %d", c.fen, w.nodes, c.nodes)
		}
	}
}

// TestSettleBestAfterFailLow: a stop that falls while the window is searched
// again after a fail low leaves in front the move searched first, with only
// an upper bound; the move played is then the last completed depth's best,
// with its exact score and PV. A move that failed high keeps its place and
// bound, and an exact line of the stopped depth stays as it is.
func TestSettleBestAfterFailLow(t *testing.T) {
	pos := mustPos(t, movegen.StartFEN)
	e4, d4, nf3 := mustMove(t, pos, "e2e4"), mustMove(t, pos, "d2d4"), mustMove(t, pos, "g1f3")
	setup := func(front Bound) *worker {
		w := newWorker(0, NewPool(tt.New(1)))
		w.setRootMoves([]movegen.Move{d4, nf3, e4})
		w.rootMoves[0].score, w.rootMoves[0].bound, w.rootMoves[0].depth = -40, front, 9
		w.completed, w.completedScore = 8, 25
		w.completedPV = []movegen.Move{e4, d4} // the second move only gives the PV a length
		return w
	}

	w := setup(Upper)
	w.settleBest()
	rm := w.rootMoves[0]
	if rm.move != e4 || rm.score != 25 || rm.bound != Exact || rm.depth != 8 || len(rm.pv) != 2 {
		t.Errorf("front move failed low: settled %v score %d bound %v depth %d pv %v, want e2e4 25 exact at depth 8 with the completed PV",
			rm.move, rm.score, rm.bound, rm.depth, rm.pv)
	}
	if got := []movegen.Move{w.rootMoves[1].move, w.rootMoves[2].move}; got[0] != d4 || got[1] != nf3 {
		t.Errorf("the other moves after the settle: %v, want d2d4 g1f3 in their order", got)
	}
	for _, b := range []Bound{Lower, Exact} {
		w := setup(b)
		w.settleBest()
		if rm := w.rootMoves[0]; rm.move != d4 || rm.score != -40 || rm.bound != b || rm.depth != 9 {
			t.Errorf("front move with bound %v: settled %v score %d bound %v depth %d, want it kept", b, rm.move, rm.score, rm.bound, rm.depth)
		}
	}
}
