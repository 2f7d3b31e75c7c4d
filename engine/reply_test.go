package engine

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// moves parses UCI moves played in sequence from pos (pos is unchanged).
func moves(t *testing.T, pos *movegen.Position, ss ...string) []movegen.Move {
	t.Helper()
	p := pos.Clone()
	var ms []movegen.Move
	for _, s := range ss {
		m, err := movegen.ParseMove(p, s, false)
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
		p.Make(m)
	}
	return ms
}

// TestReplyOnTime: the search's own result is sent once; overdue after it
// and reports after it send nothing.
func TestReplyOnTime(t *testing.T) {
	pos := movegen.NewPosition()
	rec := newRecorder()
	r := newReply(pos, nil, nil, rec.info, rec.result)
	pv := moves(t, pos, "e2e4", "e7e5")
	r.info(search.Info{Depth: 3, MultiPV: 1, PV: pv}, pos)
	own := search.Result{BestMove: pv[0], PonderMove: pv[1], Score: 17, Depth: 3}
	r.done(own)
	r.overdue()
	r.info(search.Info{Depth: 4, MultiPV: 1, PV: pv}, pos)
	r.done(own)
	if len(rec.results) != 1 || rec.results[0] != own {
		t.Fatalf("results %+v, want just %+v", rec.results, own)
	}
	if len(rec.infos) != 1 {
		t.Fatalf("%d infos reported, want 1 (none after the result)", len(rec.infos))
	}
}

// TestReplyOverdue: when the search is overdue, the first line of its last
// report is played at once, with the reply its PV expects; what the search
// reports or returns afterwards is dropped.
func TestReplyOverdue(t *testing.T) {
	pos := movegen.NewPosition()
	rec := newRecorder()
	r := newReply(pos, nil, nil, rec.info, rec.result)
	r.info(search.Info{Depth: 5, MultiPV: 1, Score: 30, Nodes: 9000, PV: moves(t, pos, "d2d4", "g8f6")}, pos)
	pv := moves(t, pos, "e2e4", "c7c5", "g1f3")
	r.info(search.Info{Depth: 6, MultiPV: 1, Score: 25, Nodes: 20000, PV: pv}, pos)
	r.info(search.Info{Depth: 6, MultiPV: 2, Score: 10, PV: moves(t, pos, "c2c4")}, pos) // not the first line
	r.overdue()
	r.info(search.Info{Depth: 7, MultiPV: 1, PV: moves(t, pos, "g1f3")}, pos)
	r.done(search.Result{BestMove: moves(t, pos, "g1f3")[0]})
	r.overdue()
	want := search.Result{BestMove: pv[0], PonderMove: pv[1], Score: 25, Depth: 6, Nodes: 20000}
	if len(rec.results) != 1 || rec.results[0] != want {
		t.Fatalf("results %+v, want just %+v", rec.results, want)
	}
	if len(rec.infos) != 3 {
		t.Fatalf("%d infos reported, want the 3 before the result", len(rec.infos))
	}
}

// TestReplyOverdueBeforeReport: overdue before the first report plays the
// table's move for the root, or else a legal move; with no legal move, none.
func TestReplyOverdueBeforeReport(t *testing.T) {
	pos := movegen.NewPosition()
	table := tt.New(1)
	want := moves(t, pos, "g1f3")[0]
	table.Store(pos.Key(), want, 0, 0, 5, tt.BoundExact, true)
	for _, c := range []struct {
		name  string
		table *tt.Table
		fen   string
		want  movegen.Move // NoMove: any legal move
	}{
		{"table move", table, movegen.StartFEN, want},
		{"no table", nil, movegen.StartFEN, movegen.NoMove},
		{"empty table", tt.New(1), movegen.StartFEN, movegen.NoMove},
		{"mated", nil, "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", movegen.NoMove},
	} {
		p := movegen.NewPosition()
		if err := p.SetFEN(c.fen); err != nil {
			t.Fatal(err)
		}
		rec := newRecorder()
		newReply(p, c.table, nil, rec.info, rec.result).overdue()
		if len(rec.results) != 1 {
			t.Fatalf("%s: %d results", c.name, len(rec.results))
		}
		got := rec.results[0].BestMove
		switch {
		case !p.HasLegalMove():
			if got != movegen.NoMove {
				t.Errorf("%s: move %v with no legal move", c.name, got)
			}
		case c.want != movegen.NoMove && got != c.want:
			t.Errorf("%s: move %v, want %v", c.name, got, c.want)
		case !p.IsLegal(got):
			t.Errorf("%s: illegal move %v", c.name, got)
		}
		// The move is reported as a line first: bestmove is the first
		// move of the last PV.
		switch {
		case got == movegen.NoMove && len(rec.infos) != 0:
			t.Errorf("%s: %d lines reported with no move", c.name, len(rec.infos))
		case got != movegen.NoMove && (len(rec.infos) != 1 || len(rec.infos[0].PV) == 0 || rec.infos[0].PV[0] != got ||
			rec.infos[0].Score != rec.results[0].Score || rec.infos[0].MultiPV != 1):
			t.Errorf("%s: lines %+v before the result %+v", c.name, rec.infos, rec.results[0])
		}
	}
}

// TestReplyUnreportedResult: a search's own result whose move no line
// reported (stopped by its limit before depth 1 was complete) is reported
// as a line before it is sent; one that follows a line is not.
func TestReplyUnreportedResult(t *testing.T) {
	pos := movegen.NewPosition()
	pv := moves(t, pos, "e2e4", "e7e5")
	rec := newRecorder()
	r := newReply(pos, nil, nil, rec.info, rec.result)
	res := search.Result{BestMove: pv[0], PonderMove: pv[1], Score: 12, Nodes: 15}
	r.done(res)
	if len(rec.infos) != 1 || !slices.Equal(rec.infos[0].PV, pv) || rec.infos[0].Score != 12 || rec.infos[0].Nodes != 15 || rec.infos[0].Depth != 0 {
		t.Fatalf("lines %+v, want one of the result's moves", rec.infos)
	}
	if w := rec.infos[0].WDL; w[0]+w[1]+w[2] != 1000 {
		t.Errorf("wdl %v", w)
	}
	rec = newRecorder()
	r = newReply(pos, nil, nil, rec.info, rec.result)
	r.info(search.Info{Depth: 1, MultiPV: 1, PV: pv}, pos)
	r.done(search.Result{BestMove: pv[0], PonderMove: pv[1], Depth: 1})
	if len(rec.infos) != 1 {
		t.Fatalf("%d lines, want the search's one", len(rec.infos))
	}
	// A nil onDone is allowed, as a nil onInfo is.
	newReply(pos, nil, nil, nil, nil).done(res)
}

// TestGoOverdueAnswersOnce: searches on a clock far too short, each go
// sent as soon as the last answered (its threads may still be finishing),
// answer once each, with a legal move, whichever of the search and the
// clock's watch answers first, and report nothing after their result.
func TestGoOverdueAnswersOnce(t *testing.T) {
	e := newEngine(t)
	var recs []*recorder
	for range 20 {
		rec := newRecorder()
		recs = append(recs, rec)
		e.Go(search.Limits{HasClock: true, WTime: 1, BTime: 1}, rec.info, func(res search.Result) {
			rec.mu.Lock()
			rec.infosAtResult = len(rec.infos)
			rec.mu.Unlock()
			rec.result(res)
		})
		mustLegal(t, e.Position(), rec.wait(t).BestMove)
	}
	e.Wait()
	for i, rec := range recs {
		rec.mu.Lock()
		if len(rec.results) != 1 || len(rec.infos) != rec.infosAtResult {
			t.Errorf("go %d: %d results, %d infos after the result", i, len(rec.results), len(rec.infos)-rec.infosAtResult)
		}
		rec.mu.Unlock()
	}
}

// TestWaitPrevious: a search that must wait for the threads of a search
// that answered when overdue keeps its own clock: overdue before it could
// start, it answers at once with the table's move and is not run; a
// previous search that ends in time leaves it to search; pondering and
// infinite searches wait without a clock, and answer at once when stopped.
func TestWaitPrevious(t *testing.T) {
	pos := movegen.NewPosition()
	table := tt.New(1)
	tableMove := moves(t, pos, "g1f3")[0]
	table.Store(pos.Key(), tableMove, 0, 0, 5, tt.BoundExact, true)
	late := time.Now().Add(-time.Hour) // the go came an hour ago: overdue at once
	clock := search.Limits{HasClock: true, WTime: time.Minute, BTime: time.Minute, Start: late}

	// Overdue while the previous search runs: answered at once, then waits.
	prev := &run{done: make(chan struct{})}
	rec := newRecorder()
	rep := newReply(pos, table, nil, rec.info, rec.result)
	answered := make(chan bool)
	go func() {
		answered <- waitPrevious(context.Background(), prev, rep, clock, 10*time.Millisecond, movegen.White)
	}()
	if res := rec.wait(t); res.BestMove != tableMove {
		t.Errorf("overdue answer %v, want the table's move %v", res.BestMove, tableMove)
	}
	select {
	case <-answered:
		t.Fatal("returned before the previous search ended")
	default:
	}
	close(prev.done)
	if !<-answered {
		t.Error("overdue: reported not answered")
	}

	// The previous search has ended: no answer, the search runs.
	rec = newRecorder()
	rep = newReply(pos, table, nil, rec.info, rec.result)
	if waitPrevious(context.Background(), prev, rep, search.Limits{HasClock: true, WTime: time.Minute}, 0, movegen.White) || rec.count() != 0 {
		t.Error("answered although the previous search had ended in time")
	}

	// Pondering or infinite: no clock while waiting.
	for _, lim := range []search.Limits{
		{Ponder: true, HasClock: true, WTime: time.Minute, Start: late},
		{Infinite: true, Start: late},
	} {
		prev := &run{done: make(chan struct{})}
		rec := newRecorder()
		rep := newReply(pos, table, nil, rec.info, rec.result)
		answered := make(chan bool)
		go func() { answered <- waitPrevious(context.Background(), prev, rep, lim, 0, movegen.White) }()
		time.Sleep(50 * time.Millisecond) // time for a wrong answer to come
		close(prev.done)
		if <-answered || rec.count() != 0 {
			t.Errorf("%+v: answered while waiting", lim)
		}

		// Stopped while waiting: answered at once with the table's move.
		prev = &run{done: make(chan struct{})}
		rec = newRecorder()
		rep = newReply(pos, table, nil, rec.info, rec.result)
		ctx, cancel := context.WithCancel(context.Background())
		go func() { answered <- waitPrevious(ctx, prev, rep, lim, 0, movegen.White) }()
		cancel()
		if res := rec.wait(t); res.BestMove != tableMove {
			t.Errorf("%+v: stopped, answered %v, want the table's move %v", lim, res.BestMove, tableMove)
		}
		close(prev.done)
		if !<-answered {
			t.Errorf("%+v: stopped: reported not answered", lim)
		}
	}
}

// TestOverduePickWithoutReport: overdue before the first report and with no
// table move, the reply plays a mate in one when there is one, and takes a
// queen left hanging, rather than the first move generated.
func TestOverduePickWithoutReport(t *testing.T) {
	for _, c := range []struct{ fen, want string }{
		{"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"},                    // back-rank mate
		{"4k3/8/8/3q4/8/8/8/3QK3 w - - 0 1", "d1d5"},                     // the queen hangs
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ""}, // any legal move
	} {
		pos := movegen.NewPosition()
		if err := pos.SetFEN(c.fen); err != nil {
			t.Fatal(err)
		}
		before := pos.FEN(true)
		var got search.Result
		r := newReply(pos, nil, nil, nil, func(res search.Result) { got = res })
		r.overdue()
		if pos.FEN(true) != before {
			t.Fatalf("%s: the pick changed the position to %s", c.fen, pos.FEN(true))
		}
		if !pos.IsLegal(got.BestMove) {
			t.Fatalf("%s: overdue played %v, not a legal move", c.fen, got.BestMove)
		}
		if c.want != "" && got.BestMove.UCI(false) != c.want {
			t.Errorf("%s: overdue played %s, want %s", c.fen, got.BestMove.UCI(false), c.want)
		}
	}
	// Under go searchmoves the pick is one of the moves given, the mate
	// outside them notwithstanding.
	pos := movegen.NewPosition()
	if err := pos.SetFEN("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"); err != nil {
		t.Fatal(err)
	}
	allowed := []movegen.Move{movegen.NewMove(movegen.G1, movegen.F1), movegen.NewMove(movegen.A1, movegen.A2)}
	var got search.Result
	newReply(pos, nil, allowed, nil, func(res search.Result) { got = res }).overdue()
	if !slices.Contains(allowed, got.BestMove) {
		t.Errorf("searchmoves g1f1 a1a2: overdue played %s", got.BestMove.UCI(false))
	}
}
