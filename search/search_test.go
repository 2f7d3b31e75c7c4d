package search

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

func mustPos(t testing.TB, fen string) *movegen.Position {
	t.Helper()
	var p movegen.Position
	if err := p.SetFEN(fen); err != nil {
		t.Fatal(err)
	}
	return &p
}

func mustMove(t testing.TB, p *movegen.Position, s string) movegen.Move {
	t.Helper()
	m, err := movegen.ParseMove(p, s, true)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// run searches fen with lim and returns the result and every info.
func run(t testing.TB, fen string, lim Limits, opt Options) (Result, []Info) {
	t.Helper()
	if opt.Threads == 0 {
		opt.Threads = 1
	}
	p := NewPool(tt.New(16))
	var infos []Info
	res := p.Search(context.Background(), mustPos(t, fen), lim, opt, func(i Info) { infos = append(infos, i) })
	return res, infos
}

func TestFindsMates(t *testing.T) {
	cases := []struct {
		name, fen, best string
		mate            int
	}{
		{"back rank", "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8", 1},
		{"scholar", "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "f3f7", 1},
		{"queen and knight", "6rk/6pp/8/6N1/8/8/8/1Q4K1 w - - 0 1", "b1h7", 1},
		{"legal trap in two", "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", "d5f6", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, infos := run(t, c.fen, Limits{Depth: 8}, Options{MultiPV: 1})
			if len(infos) == 0 {
				t.Fatal("no info")
			}
			last := infos[len(infos)-1]
			if !eval.IsMate(last.Score) || eval.MateMoves(last.Score) > c.mate {
				t.Fatalf("score %d (mate %d), want mate in %d", last.Score, eval.MateMoves(last.Score), c.mate)
			}
			if res.BestMove.UCI(false) != c.best {
				t.Errorf("best %v, want %s", res.BestMove, c.best)
			}
			if last.PV[0] != res.BestMove {
				t.Errorf("bestmove %v != pv[0] %v", res.BestMove, last.PV[0])
			}
		})
	}
}

func TestMatedAndStalemate(t *testing.T) {
	// Checkmated: no legal move, no best move.
	res, _ := run(t, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", Limits{Depth: 5}, Options{})
	if res.BestMove != movegen.NoMove {
		t.Errorf("mated side got best move %v", res.BestMove)
	}
	res, _ = run(t, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", Limits{Depth: 5}, Options{})
	if res.BestMove != movegen.NoMove {
		t.Errorf("stalemated side got best move %v", res.BestMove)
	}
	// The side to move must avoid stalemating: KQ v K with the easy stalemate trap.
	res, infos := run(t, "7k/8/5KQ1/8/8/8/8/8 w - - 0 1", Limits{Depth: 6}, Options{})
	pos := mustPos(t, "7k/8/5KQ1/8/8/8/8/8 w - - 0 1")
	pos.Make(res.BestMove)
	if !pos.HasLegalMove() && !pos.InCheck() {
		t.Errorf("%v stalemates", res.BestMove)
	}
	if last := infos[len(infos)-1]; !eval.IsMate(last.Score) {
		t.Errorf("KQK score %d, want a mate", last.Score)
	}
}

func TestDeterministicSingleThread(t *testing.T) {
	fen := "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
	a, _ := run(t, fen, Limits{Depth: 9}, Options{})
	b, _ := run(t, fen, Limits{Depth: 9}, Options{})
	if a.Nodes != b.Nodes || a.BestMove != b.BestMove || a.Score != b.Score {
		t.Fatalf("runs differ: %+v vs %+v", a, b)
	}
	if a.Depth != 9 {
		t.Errorf("completed depth %d, want 9", a.Depth)
	}
}

func TestInfoAndPV(t *testing.T) {
	fen := "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	res, infos := run(t, fen, Limits{Depth: 7}, Options{})
	depth := 0
	for _, in := range infos {
		if in.Depth < depth {
			t.Errorf("depth went back from %d to %d", depth, in.Depth)
		}
		depth = in.Depth
		if in.Nodes == 0 || len(in.PV) == 0 || in.MultiPV != 1 {
			t.Errorf("bad info %+v", in)
		}
		if in.WDL[0]+in.WDL[1]+in.WDL[2] != 1000 {
			t.Errorf("wdl %v does not sum to 1000", in.WDL)
		}
		// Every PV is a legal sequence.
		pos := mustPos(t, fen)
		for _, m := range in.PV {
			if !pos.IsLegal(m) {
				t.Fatalf("illegal PV move %v in %v", m, in.PV)
			}
			pos.Make(m)
		}
	}
	if depth != 7 {
		t.Errorf("last depth %d, want 7", depth)
	}
	if last := infos[len(infos)-1]; last.PV[0] != res.BestMove {
		t.Errorf("bestmove %v != pv[0] %v", res.BestMove, last.PV[0])
	}
	if res.PonderMove == movegen.NoMove {
		t.Error("no ponder move")
	}
}

func TestMultiPV(t *testing.T) {
	fen := movegen.StartFEN
	_, infos := run(t, fen, Limits{Depth: 6}, Options{MultiPV: 3})
	seen := map[int]map[int]movegen.Move{}
	for _, in := range infos {
		if seen[in.Depth] == nil {
			seen[in.Depth] = map[int]movegen.Move{}
		}
		seen[in.Depth][in.MultiPV] = in.PV[0]
	}
	lines := seen[6]
	if len(lines) != 3 {
		t.Fatalf("depth 6 has %d lines, want 3", len(lines))
	}
	if lines[1] == lines[2] || lines[2] == lines[3] || lines[1] == lines[3] {
		t.Errorf("MultiPV lines share a first move: %v", lines)
	}
	// More lines than legal moves: as many lines as moves.
	_, infos = run(t, "7k/8/8/8/8/8/6PP/7K w - - 0 1", Limits{Depth: 4}, Options{MultiPV: 50})
	maxPV := 0
	for _, in := range infos {
		maxPV = max(maxPV, in.MultiPV)
	}
	if maxPV != 5 {
		t.Errorf("got %d lines, want 5 (all legal moves)", maxPV)
	}
}

// TestMultiPVOrder: the lines of a finished depth come out best first.
func TestMultiPVOrder(t *testing.T) {
	for _, fen := range []string{
		movegen.StartFEN,
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	} {
		const depth, lines = 7, 12
		_, infos := run(t, fen, Limits{Depth: depth}, Options{MultiPV: lines})
		var last []Info
		for _, in := range infos {
			if in.MultiPV == 1 {
				last = last[:0]
			}
			last = append(last, in)
		}
		if len(last) != lines {
			t.Fatalf("%s: last report has %d lines, want %d", fen, len(last), lines)
		}
		for i := 1; i < len(last); i++ {
			if last[i].Depth != depth || last[i].Score > last[i-1].Score {
				t.Errorf("%s: line %d (depth %d, %d) after line %d (depth %d, %d)", fen, i+1, last[i].Depth,
					last[i].Score, i, last[i-1].Depth, last[i-1].Score)
			}
		}
	}
}

func TestSearchMoves(t *testing.T) {
	pos := mustPos(t, movegen.StartFEN)
	only := []movegen.Move{mustMove(t, pos, "a2a3"), mustMove(t, pos, "h2h3")}
	res, infos := run(t, movegen.StartFEN, Limits{Depth: 6, SearchMoves: only}, Options{})
	if res.BestMove != only[0] && res.BestMove != only[1] {
		t.Fatalf("best %v outside searchmoves", res.BestMove)
	}
	for _, in := range infos {
		if in.PV[0] != only[0] && in.PV[0] != only[1] {
			t.Fatalf("pv %v outside searchmoves", in.PV)
		}
	}
}

func TestNodeLimit(t *testing.T) {
	res, _ := run(t, movegen.StartFEN, Limits{Nodes: 20000}, Options{})
	if res.BestMove == movegen.NoMove {
		t.Fatal("no move")
	}
	if res.Nodes > 20000+2000 {
		t.Errorf("searched %d nodes with a 20000 limit", res.Nodes)
	}
}

// TestSoftNodes: a search with SoftNodes starts no depth once that many
// nodes are searched and finishes the one under way: it is the search to
// that depth (same move, score and nodes), whose depth before the last
// ended below the limit. With a hard Nodes limit below the depth's needs,
// that limit still cuts it.
func TestSoftNodes(t *testing.T) {
	fens := []string{
		movegen.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", // Chess960
	}
	for _, fen := range fens {
		for _, soft := range []uint64{3000, 20000, 100000} {
			res, infos := run(t, fen, Limits{SoftNodes: soft}, Options{})
			if res.Nodes < soft {
				t.Errorf("%s, soft %d: stopped after %d nodes", fen, soft, res.Nodes)
			}
			// The completed depths as reported: the one before the last
			// ended below the limit.
			doneAt := map[int]uint64{}
			for _, in := range infos {
				if in.Bound == Exact && in.MultiPV == 1 {
					doneAt[in.Depth] = in.Nodes
				}
			}
			if n, ok := doneAt[res.Depth-1]; !ok || n >= soft {
				t.Errorf("%s, soft %d: depth %d reported at %d nodes (%v), yet depth %d was started", fen, soft, res.Depth-1, n, ok, res.Depth)
			}
			ref, _ := run(t, fen, Limits{Depth: res.Depth}, Options{})
			if ref.BestMove != res.BestMove || ref.Score != res.Score || ref.Nodes != res.Nodes || ref.Depth != res.Depth {
				t.Errorf("%s, soft %d: %v %d at depth %d in %d nodes; to depth %d: %v %d in %d nodes",
					fen, soft, res.BestMove, res.Score, res.Depth, res.Nodes, res.Depth, ref.BestMove, ref.Score, ref.Nodes)
			}
		}
	}
	res, _ := run(t, movegen.StartFEN, Limits{SoftNodes: 50000, Nodes: 20000}, Options{})
	if res.Nodes > 20000+2000 || res.BestMove == movegen.NoMove {
		t.Errorf("soft 50000, hard 20000: %v after %d nodes", res.BestMove, res.Nodes)
	}
	// With helpers too the search ends by itself (no other limit is set),
	// past the limit.
	res, _ = run(t, movegen.StartFEN, Limits{SoftNodes: 200000}, Options{Threads: 3})
	if res.BestMove == movegen.NoMove || res.Nodes < 200000 || res.Depth < 1 {
		t.Errorf("soft 200000, 3 threads: %v after %d nodes, depth %d", res.BestMove, res.Nodes, res.Depth)
	}
}

// TestNodeLimitThreads: the node limit counts the helpers' nodes too.
func TestNodeLimitThreads(t *testing.T) {
	const limit = 60000
	res, _ := run(t, movegen.StartFEN, Limits{Nodes: limit}, Options{Threads: 3})
	if res.BestMove == movegen.NoMove {
		t.Fatal("no move")
	}
	// Each thread publishes its count every 1024 nodes: allow that much per
	// thread beyond the limit, far less than three threads' full share.
	if res.Nodes > limit+3*2*(tmCheckNodes+1) {
		t.Errorf("searched %d nodes with a %d limit and 3 threads", res.Nodes, limit)
	}
}

// TestStartTime: the clock runs from Limits.Start, the moment go arrived.
func TestStartTime(t *testing.T) {
	start := time.Now().Add(-5 * time.Second)
	res, infos := run(t, movegen.StartFEN, Limits{MoveTime: 6 * time.Second, Start: start}, Options{})
	if res.BestMove == movegen.NoMove || len(infos) == 0 {
		t.Fatal("no move")
	}
	if first := infos[0].Time; first < 5*time.Second {
		t.Errorf("first info time %v, want at least the 5 s since go", first)
	}
}

func TestStopInfinite(t *testing.T) {
	p := NewPool(tt.New(16))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result)
	go func() {
		done <- p.Search(ctx, mustPos(t, "7k/8/8/8/8/8/6PP/7K w - - 0 1"), Limits{Infinite: true}, Options{Threads: 1}, nil)
	}()
	// A tiny position is searched to the maximum depth quickly; the search
	// must still wait for stop.
	select {
	case r := <-done:
		t.Fatalf("infinite search returned %v before stop", r.BestMove)
	case <-time.After(300 * time.Millisecond):
	}
	cancel()
	r := <-done
	if r.BestMove == movegen.NoMove {
		t.Fatal("no best move after stop")
	}
}

// TestPoolStop checks that Stop alone, with the context never cancelled,
// ends a search that would otherwise run for hours, on every thread.
func TestPoolStop(t *testing.T) {
	p := NewPool(tt.New(16))
	done := make(chan Result)
	started := make(chan struct{})
	var once sync.Once
	pos := mustPos(t, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8")
	go func() {
		done <- p.Search(context.Background(), pos, Limits{}, Options{Threads: 2},
			func(Info) { once.Do(func() { close(started) }) })
	}()
	<-started // a Stop before Search has begun would be lost
	p.Stop()
	select {
	case r := <-done:
		if r.BestMove == movegen.NoMove {
			t.Fatal("no best move after Stop")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("search still running 30 s after Stop")
	}
}

// TestCancelledAtOnce: a search whose context is cancelled before it
// begins still completes depth 1 on the main thread, on one thread and on
// several: its result and last line are those of a search to depth 1 (the
// move and exact score it finds), not the first move generated with the
// root's static score.
func TestCancelledAtOnce(t *testing.T) {
	fen := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	want, wantInfos := run(t, fen, Limits{Depth: 1}, Options{MultiPV: 1})
	wantLast := wantInfos[len(wantInfos)-1]
	for _, threads := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var infos []Info
		res := NewPool(tt.New(16)).Search(ctx, mustPos(t, fen), Limits{Infinite: true}, Options{Threads: threads, MultiPV: 1},
			func(i Info) { infos = append(infos, i) })
		if len(infos) == 0 {
			t.Fatalf("threads %d: no info", threads)
		}
		last := infos[len(infos)-1]
		if res.Depth != 1 || res.BestMove != want.BestMove || res.Score != want.Score {
			t.Errorf("threads %d: depth %d move %v score %d, want depth 1 move %v score %d",
				threads, res.Depth, res.BestMove, res.Score, want.BestMove, want.Score)
		}
		if last.Depth != 1 || last.Bound != Exact || last.Score != wantLast.Score || last.PV[0] != wantLast.PV[0] {
			t.Errorf("threads %d: last line depth %d bound %v score %d pv %v, want depth 1 exact %d pv %v",
				threads, last.Depth, last.Bound, last.Score, last.PV, wantLast.Score, wantLast.PV)
		}
	}
}

// TestLateCancelSparesNextSearch: cancelling a search's context just as
// the search ends does not stop the next search (the context's watcher
// ends with its search).
func TestLateCancelSparesNextSearch(t *testing.T) {
	p := NewPool(tt.New(16))
	pos := mustPos(t, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8")
	for i := range 200 {
		ctx, cancel := context.WithCancel(context.Background())
		p.Search(ctx, pos, Limits{Depth: 1}, Options{Threads: 1}, nil)
		cancel()
		if res := p.Search(context.Background(), pos, Limits{Depth: 3}, Options{Threads: 1}, nil); res.Depth != 3 {
			t.Fatalf("round %d: the search after a late cancel stopped at depth %d of 3", i, res.Depth)
		}
	}
}

func TestPonderHit(t *testing.T) {
	p := NewPool(tt.New(16))
	done := make(chan Result)
	lim := Limits{Ponder: true, HasClock: true, WTime: 200 * time.Millisecond, BTime: 200 * time.Millisecond}
	go func() {
		done <- p.Search(context.Background(), mustPos(t, movegen.StartFEN), lim, Options{Threads: 1}, nil)
	}()
	select {
	case r := <-done:
		t.Fatalf("ponder search returned %v before ponderhit", r.BestMove)
	case <-time.After(300 * time.Millisecond):
	}
	p.PonderHit()
	if r := <-done; r.BestMove == movegen.NoMove {
		t.Fatal("no best move after ponderhit")
	}
}

// TestPonderHitInfoTime: reported time counts from go, so it never goes
// back when ponderhit switches the search to the clock.
func TestPonderHitInfoTime(t *testing.T) {
	p := NewPool(tt.New(16))
	var mu sync.Mutex
	var times []time.Duration
	done := make(chan Result)
	lim := Limits{Ponder: true, HasClock: true, WTime: 2 * time.Second, BTime: 2 * time.Second}
	go func() {
		done <- p.Search(context.Background(), mustPos(t, movegen.StartFEN), lim, Options{Threads: 1}, func(i Info) {
			mu.Lock()
			times = append(times, i.Time)
			mu.Unlock()
		})
	}()
	time.Sleep(400 * time.Millisecond)
	p.PonderHit()
	<-done
	mu.Lock()
	defer mu.Unlock()
	for i := 1; i < len(times); i++ {
		if times[i] < times[i-1] {
			t.Fatalf("info time went back from %v to %v", times[i-1], times[i])
		}
	}
	if n := len(times); n == 0 || times[n-1] < 400*time.Millisecond {
		t.Fatalf("last info time %v, want at least the 400 ms pondered (%d infos)", times, n)
	}
}

func TestTinyClocks(t *testing.T) {
	for _, lim := range []Limits{
		{HasClock: true, WTime: time.Millisecond, BTime: time.Millisecond},
		{HasClock: true, WTime: 100 * time.Millisecond},
		{HasClock: true, WTime: 2 * time.Second, MovesToGo: 1},
		{MoveTime: time.Millisecond},
	} {
		res, infos := run(t, movegen.StartFEN, lim, Options{MoveOverhead: 10 * time.Millisecond})
		if res.BestMove == movegen.NoMove || !mustPos(t, movegen.StartFEN).IsLegal(res.BestMove) {
			t.Errorf("%+v: bad move %v", lim, res.BestMove)
		}
		// However short the clock, depth 1 is completed: the move is a
		// searched line's, as the reports say.
		if res.Depth < 1 || len(infos) == 0 || infos[0].Depth != 1 || infos[0].Nodes < 20 || infos[len(infos)-1].PV[0] != res.BestMove {
			t.Errorf("%+v: depth %d, %d reports (first %+v)", lim, res.Depth, len(infos), infos)
		}
	}
}

// TestRepetitionIsDraw: White, a queen down, can repeat a position of the
// game a third time with Rf8+. The search, which is given the game history,
// must take that draw and report it as exactly 0 (its PV ends in the
// repetition); from the same position without history it cannot.
func TestRepetitionIsDraw(t *testing.T) {
	const fen = "6k1/6p1/8/8/8/8/q7/5RK1 w - - 0 1"
	pos := mustPos(t, fen)
	for _, s := range []string{"f1f8", "g8h7", "f8f5", "h7g8", "f5f8", "g8h7", "f8f5", "h7g8"} {
		pos.Make(mustMove(t, pos, s))
	}
	if !pos.IsRepetition() {
		t.Fatal("test setup: no repetition")
	}
	p := NewPool(tt.New(16))
	var last Info
	res := p.Search(context.Background(), pos, Limits{Depth: 6}, Options{Threads: 1}, func(i Info) { last = i })
	if res.BestMove.UCI(true) != "f5f8" || last.Score != 0 || res.Score != 0 {
		t.Errorf("with the game history: best %v, score %d (result %d); want the draw f5f8, score 0", res.BestMove, last.Score, res.Score)
	}
	// The same position with no history: Rf8+ repeats nothing.
	_, infos := run(t, pos.FEN(true), Limits{Depth: 6}, Options{})
	if s := infos[len(infos)-1].Score; s > -300 {
		t.Errorf("without history: score %d, want a lost position (below -300)", s)
	}
}

// TestThreads: with three threads every thread searches, the nodes of all
// of them are counted, and the result is a legal move at the asked depth.
func TestThreads(t *testing.T) {
	const fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
	p := NewPool(tt.New(16))
	res := p.Search(context.Background(), mustPos(t, fen), Limits{Depth: 8}, Options{Threads: 3}, nil)
	if !mustPos(t, fen).IsLegal(res.BestMove) || res.Depth != 8 {
		t.Fatalf("best move %v at depth %d, want a legal move at depth 8", res.BestMove, res.Depth)
	}
	if len(p.workers) != 3 {
		t.Fatalf("%d workers, want 3", len(p.workers))
	}
	var sum uint64
	for _, w := range p.workers {
		n := w.nodesPub.Load()
		if n == 0 {
			t.Errorf("thread %d searched no node", w.id)
		}
		sum += n
	}
	if res.Nodes != sum {
		t.Errorf("Result.Nodes %d, threads searched %d", res.Nodes, sum)
	}
}

// TestChess960Castling: castling queen side (king b1 takes rook a1: king to
// c1, rook to d1) is the only mate in one. The search must find it and
// carry it as king takes rook.
func TestChess960Castling(t *testing.T) {
	const fen = "2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1"
	res, infos := run(t, fen, Limits{Depth: 4}, Options{})
	if !res.BestMove.IsCastling() || res.BestMove.UCI(true) != "b1a1" || res.BestMove.UCI(false) != "b1c1" {
		t.Fatalf("best move %v (%s), want castling b1a1", res.BestMove, res.BestMove.UCI(true))
	}
	if s := infos[len(infos)-1].Score; !eval.IsMate(s) || eval.MateMoves(s) != 1 {
		t.Errorf("score %d, want mate in 1", s)
	}
}

func TestSEE(t *testing.T) {
	cases := []struct {
		fen, move string
		value     int // exact exchange value
	}{
		{"1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5", 100},
		{"1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5", 100 - 320},
		{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 100},
		{"4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0},
		{"4k3/8/2p5/3r4/4P3/8/8/4K3 w - - 0 1", "e4d5", 500 - 100 + 0},
		{"4k3/8/8/3q4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 950},
		{"3rk3/8/8/3q4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 950 - 500 + 500},
	}
	for _, c := range cases {
		checkSEE(t, c.fen, c.move, c.value)
	}
}

// checkSEE asserts that the exchange on move gains exactly value: see passes
// at value and fails at value+1.
func checkSEE(t *testing.T, fen, move string, value int) {
	t.Helper()
	pos := mustPos(t, fen)
	m := mustMove(t, pos, move)
	if !see(pos, m, value) {
		t.Errorf("%s %s: see < %d", fen, move, value)
	}
	if see(pos, m, value+1) {
		t.Errorf("%s %s: see > %d", fen, move, value)
	}
}

// TestStoppedReportDepth: the report sent when a node limit stops a search
// mid-depth labels each line with the depth its score comes from: a line
// that the stopped depth finished carries that depth, and a line kept from
// the last completed depth carries that depth and the score it reported.
func TestStoppedReportDepth(t *testing.T) {
	fens := []string{
		movegen.StartFEN,
		"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	}
	maxNodes := uint64(300000)
	if testing.Short() {
		fens, maxNodes = fens[:2], 60000
	}
	fresh := 0
	for _, fen := range fens {
		for nodes := uint64(3000); nodes < maxNodes; nodes = nodes*5/4 + 17 {
			_, infos := run(t, fen, Limits{Nodes: nodes}, Options{MultiPV: 1})
			last := infos[len(infos)-1]
			// The deepest depth completed before, and its score: on a slow
			// machine the search also reports the bounds of a depth not
			// yet completed, which do not count.
			completed, score := 0, 0
			for _, i := range infos[:len(infos)-1] {
				if i.Bound == Exact && i.Depth >= completed {
					completed, score = i.Depth, i.Score
				}
			}
			switch {
			case last.Depth == completed+1:
				// A line of the stopped depth: finished inside the window,
				// or a move that failed high there, played on its bound.
				if last.Bound != Exact && last.Bound != Lower {
					t.Errorf("%s, %d nodes: last line of the stopped depth %d has bound %v", fen, nodes, last.Depth, last.Bound)
				}
				fresh++
			case last.Depth != completed || last.Score != score:
				t.Errorf("%s, %d nodes: last line depth %d score %d after depth %d reported score %d",
					fen, nodes, last.Depth, last.Score, completed, score)
			}
		}
	}
	if fresh == 0 {
		t.Errorf("no stop fell after a line of the next depth was finished: the test tests nothing")
	}
}

// TestWarm: Warm makes the workers a search on that many threads needs,
// with the network's accumulators, and a search after it is the same as
// one without it.
func TestWarm(t *testing.T) {
	p := NewPool(tt.New(16))
	net := nnue.Default()
	p.Warm(3, net)
	if len(p.workers) != 3 {
		t.Fatalf("%d workers after Warm(3)", len(p.workers))
	}
	for i, w := range p.workers {
		if w.id != i || w.net != net || len(w.accs) != eval.MaxPly+1 {
			t.Errorf("worker %d: id %d, net set %v, %d accumulators", i, w.id, w.net != nil, len(w.accs))
		}
	}
	const fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
	opt := Options{Threads: 1, MultiPV: 1, Net: net}
	a := p.Search(context.Background(), mustPos(t, fen), Limits{Depth: 8}, opt, nil)
	b := NewPool(tt.New(16)).Search(context.Background(), mustPos(t, fen), Limits{Depth: 8}, opt, nil)
	if a.BestMove != b.BestMove || a.Score != b.Score || a.Nodes != b.Nodes {
		t.Errorf("after Warm %+v, without %+v", a, b)
	}
}
