package engine

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/kingrook/kingrook/movegen"
)

// analyse runs Analyse on a fresh engine with set (nil: the defaults) at
// fen and moves, failing the test on an error.
func analyse(t *testing.T, set *Settings, lim Limits, fen string, moves ...string) Result {
	t.Helper()
	e, err := New(&Config{Settings: set})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetPosition(fen, moves...); err != nil {
		t.Fatal(err)
	}
	res, err := e.Analyse(context.Background(), lim)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// checkResult checks what every result of a position with legal moves
// holds: a legal best move that starts the first line, a ponder move legal
// after it, lines ranked 1, 2, ... and win/draw/loss chances adding up to
// 1000.
func checkResult(t *testing.T, fen string, res Result) {
	t.Helper()
	pos := movegen.NewPosition()
	if err := pos.SetFEN(fen); err != nil {
		t.Fatal(err)
	}
	if !pos.IsLegal(res.BestMove) {
		t.Fatalf("best move %v is not legal in %s", res.BestMove, fen)
	}
	if len(res.Lines) == 0 || res.Lines[0].PV[0] != res.BestMove {
		t.Fatalf("best move %v is not the first move of the first line %+v", res.BestMove, res.Lines)
	}
	if res.PonderMove != movegen.NoMove {
		pos.Make(res.BestMove)
		if !pos.IsLegal(res.PonderMove) {
			t.Fatalf("ponder move %v is not legal after %v", res.PonderMove, res.BestMove)
		}
		pos.Unmake()
	}
	for i, l := range res.Lines {
		if l.MultiPV != i+1 {
			t.Fatalf("line %d ranked %d", i+1, l.MultiPV)
		}
		if w := l.Score.WDL; w[0]+w[1]+w[2] != 1000 {
			t.Fatalf("line %d: wdl %v does not add up to 1000", i+1, w)
		}
	}
}

func TestAnalyseDepth(t *testing.T) {
	res := analyse(t, nil, Limits{Depth: 5}, "startpos", "e2e4", "e7e5")
	fen := "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
	checkResult(t, fen, res)
	if res.Depth != 5 || res.Lines[0].Depth != 5 || len(res.Lines) != 1 {
		t.Fatalf("depth %d, lines %+v: want depth 5, one line", res.Depth, res.Lines)
	}
	if res.Score != res.Lines[0].Score || res.Nodes != res.Lines[0].Nodes {
		t.Errorf("result score %v nodes %d, last line %v %d", res.Score, res.Nodes, res.Lines[0].Score, res.Lines[0].Nodes)
	}
}

func TestAnalyseMultiPV(t *testing.T) {
	set := DefaultSettings()
	set.MultiPV = 3
	res := analyse(t, &set, Limits{Depth: 4}, movegen.StartFEN)
	checkResult(t, movegen.StartFEN, res)
	if len(res.Lines) != 3 {
		t.Fatalf("%d lines, want 3", len(res.Lines))
	}
	seen := map[movegen.Move]bool{}
	for _, l := range res.Lines {
		if seen[l.PV[0]] {
			t.Fatalf("two lines begin with %v", l.PV[0])
		}
		seen[l.PV[0]] = true
	}
}

// TestAnalyseMates: a mate in one is found and scored as mate 1; a
// checkmated or stalemated position answers no move, mate 0 or cp 0.
func TestAnalyseMates(t *testing.T) {
	res := analyse(t, nil, Limits{Depth: 4}, "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
	if res.BestMove.UCI(false) != "a1a8" || !res.Score.IsMate || res.Score.Mate != 1 || res.Score.String() != "mate 1" {
		t.Errorf("mate in one: %v %v", res.BestMove, res.Score)
	}
	mated := analyse(t, nil, Limits{Depth: 4}, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 1 1")
	if mated.BestMove != movegen.NoMove || !mated.Score.IsMate || mated.Score.Mate != 0 || mated.Score.WDL != [3]int{0, 0, 1000} {
		t.Errorf("checkmated: %v %+v", mated.BestMove, mated.Score)
	}
	stalemate := analyse(t, nil, Limits{Depth: 4}, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
	if stalemate.BestMove != movegen.NoMove || stalemate.Score.IsMate || stalemate.Score.CP != 0 {
		t.Errorf("stalemate: %v %+v", stalemate.BestMove, stalemate.Score)
	}
}

// TestAnalyseCancel: an infinite analysis ends when its context does, with
// a searched move and no error; a context cancelled before Analyse begins
// still gets depth 1.
func TestAnalyseCancel(t *testing.T) {
	e := newEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res, err := e.Analyse(ctx, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, movegen.StartFEN, res)
	gone, cancelNow := context.WithCancel(context.Background())
	cancelNow()
	res, err = e.Analyse(gone, Limits{Infinite: true})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, movegen.StartFEN, res)
	if res.Depth < 1 {
		t.Fatalf("depth %d after a cancelled context, want at least 1", res.Depth)
	}
}

func TestAnalyseErrors(t *testing.T) {
	e := newEngine(t)
	for _, lim := range []Limits{{Depth: -1}, {Mate: -2}, {MoveTime: -time.Second}, {WTime: -time.Second}, {BInc: -1}} {
		if _, err := e.Analyse(context.Background(), lim); !errors.Is(err, errNegativeLimit) {
			t.Errorf("%+v: error %v", lim, err)
		}
	}
	illegal := movegen.NewMove(movegen.NewSquare(4, 1), movegen.NewSquare(4, 4)) // e2e5
	if _, err := e.Analyse(context.Background(), Limits{Depth: 1, SearchMoves: []movegen.Move{illegal}}); err == nil {
		t.Error("an illegal search move was accepted")
	}
	n := 0
	for info, err := range e.Analysis(context.Background(), Limits{Depth: -1}, nil) {
		n++
		if err == nil || !reflect.DeepEqual(info, Info{}) {
			t.Errorf("Analysis yielded %+v, %v for a negative depth", info, err)
		}
	}
	if n != 1 {
		t.Errorf("Analysis yielded %d values for a negative depth, want the error once", n)
	}
	// A nil context is an error, and the engine stays usable.
	var nilCtx context.Context
	if _, err := e.Analyse(nilCtx, Limits{Depth: 1}); !errors.Is(err, errNilContext) {
		t.Errorf("nil context: error %v", err)
	}
	for _, err := range e.Analysis(nilCtx, Limits{Depth: 1}, nil) {
		if !errors.Is(err, errNilContext) {
			t.Errorf("Analysis, nil context: error %v", err)
		}
	}
	if err := e.SetPosition("startpos", "e2e4"); err != nil {
		t.Fatal(err)
	}
	if res, err := e.Analyse(context.Background(), Limits{Depth: 2}); err != nil || res.BestMove == movegen.NoMove {
		t.Errorf("after a nil context: %+v, %v", res, err)
	}
}

// TestZeroEngine: the zero Engine's methods that return an error say that
// it is not usable, every time, and Go panics with that error.
func TestZeroEngine(t *testing.T) {
	var e Engine
	for i := range 2 {
		for name, err := range map[string]error{
			"SetPosition": e.SetPosition("startpos"),
			"SetOption":   e.SetOption("Hash", "16"),
			"SetSettings": e.SetSettings(DefaultSettings()),
		} {
			if !errors.Is(err, errZeroEngine) {
				t.Errorf("call %d: %s: %v", i, name, err)
			}
		}
		if _, err := e.ParseMove("e2e4"); !errors.Is(err, errZeroEngine) {
			t.Errorf("call %d: ParseMove: %v", i, err)
		}
		if _, err := e.Analyse(context.Background(), Limits{Depth: 1}); !errors.Is(err, errZeroEngine) {
			t.Errorf("call %d: Analyse: %v", i, err)
		}
	}
	for name, call := range map[string]func(){"Go": func() { e.Go(Limits{Depth: 1}, nil, nil) }, "Position": func() { e.Position() }} {
		func() {
			defer func() {
				if r := recover(); r != errZeroEngine {
					t.Errorf("%s on the zero Engine: recovered %v", name, r)
				}
			}()
			call()
		}()
	}
}

// TestAnalyseClocksAlone: clocks given without HasClock are a time limit,
// not ignored (a search that ignored them would run until the context's
// generous deadline).
func TestAnalyseClocksAlone(t *testing.T) {
	e := newEngine(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, lim := range []Limits{{WTime: 300 * time.Millisecond, BTime: 300 * time.Millisecond}, {WTime: 300 * time.Millisecond}} {
		res, err := e.Analyse(ctx, lim)
		if err != nil || res.BestMove == movegen.NoMove {
			t.Fatalf("%+v: %v, %v", lim, res.BestMove, err)
		}
		if ctx.Err() != nil {
			t.Fatalf("%+v: the search ran until the context's deadline: the clocks were ignored", lim)
		}
	}
}

// TestAnalysis: the stream yields the reports Analyse's lines come from,
// ends with the result, and leaving the loop stops the search, as does a
// SetPosition in the loop.
func TestAnalysis(t *testing.T) {
	e := newEngine(t)
	var res Result
	var last Info
	depths := 0
	for info, err := range e.Analysis(context.Background(), Limits{Depth: 6}, &res) {
		if err != nil {
			t.Fatal(err)
		}
		if info.Depth > last.Depth {
			depths++
		}
		last = info
	}
	checkResult(t, movegen.StartFEN, res)
	if depths < 6 || !reflect.DeepEqual(last, res.Lines[0]) {
		t.Fatalf("%d depths reported, last %+v, result's line %+v", depths, last, res.Lines[0])
	}
	// An infinite analysis, left after the first report.
	res = Result{}
	for info, err := range e.Analysis(context.Background(), Limits{Infinite: true}, &res) {
		if err != nil || len(info.PV) == 0 {
			t.Fatalf("%+v, %v", info, err)
		}
		break
	}
	checkResult(t, movegen.StartFEN, res)
	if e.Searching() {
		t.Fatal("still searching after the loop was left")
	}
	// The loop's body may change the game: that stops the search, which
	// does not wait for the body, and the loop ends.
	n := 0
	for _, err := range e.Analysis(context.Background(), Limits{Infinite: true}, &res) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 1 {
			if err := e.SetPosition("startpos", "d2d4"); err != nil {
				t.Fatal(err)
			}
		}
	}
	checkResult(t, movegen.StartFEN, res)
}

// TestEnginesInParallel: engines in one process share nothing a search
// writes. Two engines searching at once, with different positions and
// options (the network and the hand-written evaluation, one line and
// three), give at a fixed node count the same results as each alone; a
// third on two threads searches beside them. Run under -race (make test).
func TestEnginesInParallel(t *testing.T) {
	nodes := uint64(60000)
	if testing.Short() {
		nodes = 4000
	}
	hand := DefaultSettings()
	hand.UseNNUE, hand.MultiPV, hand.Hash = false, 3, 2
	jobs := []struct {
		set   *Settings
		fen   string
		moves []string
	}{
		{nil, "startpos", []string{"e2e4", "c7c5"}},
		{&hand, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8", nil},
	}
	lim := Limits{Nodes: nodes}
	alone := make([]Result, len(jobs))
	for i, j := range jobs {
		alone[i] = analyse(t, j.set, lim, j.fen, j.moves...)
	}
	together := make([]Result, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Go(func() { together[i] = analyse(t, j.set, lim, j.fen, j.moves...) })
	}
	threads := DefaultSettings()
	threads.Threads = 2
	wg.Go(func() { analyse(t, &threads, lim, "startpos") })
	wg.Wait()
	for i := range jobs {
		a, b := alone[i], together[i]
		if a.BestMove != b.BestMove || a.Score != b.Score || a.Nodes != b.Nodes || a.Depth != b.Depth || !sameLines(a.Lines, b.Lines) {
			t.Errorf("engine %d: alone %v %v %d nodes depth %d, beside another %v %v %d nodes depth %d",
				i, a.BestMove, a.Score, a.Nodes, a.Depth, b.BestMove, b.Score, b.Nodes, b.Depth)
		}
	}
	if len(together[1].Lines) != 3 {
		t.Errorf("MultiPV 3 gave %d lines", len(together[1].Lines))
	}
}

// sameLines compares the lines of two results but for time and speed.
func sameLines(a, b []Info) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		x.Time, x.NPS, y.Time, y.NPS = 0, 0, 0, 0
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}
