package engine

import (
	"context"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
)

// guard bounds how long a test waits for the engine before failing instead
// of hanging; it is not a speed requirement.
const guard = 60 * time.Second

// recorder collects the callbacks of one Go.
type recorder struct {
	mu      sync.Mutex
	infos   []search.Info
	results []search.Result
	done    chan search.Result
	// infosAtResult: how many infos had come when the result came
	infosAtResult int
}

func newRecorder() *recorder { return &recorder{done: make(chan search.Result, 4)} }

func (r *recorder) info(i search.Info) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.infos = append(r.infos, i)
}

func (r *recorder) result(res search.Result) {
	r.mu.Lock()
	r.results = append(r.results, res)
	r.mu.Unlock()
	r.done <- res
}

func (r *recorder) wait(t *testing.T) search.Result {
	t.Helper()
	select {
	case res := <-r.done:
		return res
	case <-time.After(guard):
		t.Fatal("no result")
		return search.Result{}
	}
}

// waitInfo waits until the search reported at least one line.
func (r *recorder) waitInfo(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for time.Now().Before(deadline) {
		r.mu.Lock()
		n := len(r.infos)
		r.mu.Unlock()
		if n > 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatal("no info")
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.results)
}

func newEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Stop(); e.Wait() })
	return e
}

func mustLegal(t *testing.T, pos *movegen.Position, m movegen.Move) {
	t.Helper()
	if !pos.IsLegal(m) {
		t.Fatalf("move %v is not legal in %s", m, pos.FEN(true))
	}
}

func TestTableIsLazy(t *testing.T) {
	e := newEngine(t)
	if err := e.SetOption("Hash", "2"); err != nil {
		t.Fatal(err)
	}
	if e.table != nil {
		t.Fatal("table allocated before it is needed")
	}
	e.Prepare()
	if e.table == nil || e.table.SizeMB() != 2 {
		t.Fatalf("after Prepare: table %v", e.table)
	}
	if err := e.SetOption("Hash", "3"); err != nil {
		t.Fatal(err)
	}
	if e.table.SizeMB() != 3 {
		t.Fatalf("idle resize: %d MiB, want 3", e.table.SizeMB())
	}
}

func TestSetPosition(t *testing.T) {
	e := newEngine(t)
	if err := e.SetPosition(movegen.StartFEN, "e2e4", "e7e5", "g1f3"); err != nil {
		t.Fatal(err)
	}
	good := e.Position().FEN(false)
	bad := []struct {
		fen   string
		moves []string
	}{
		{"not a fen", nil},
		{"8/8/8/8/8/8/8/8 w - - 0 1", nil},
		{movegen.StartFEN, []string{"e2e4", "e2e4"}},
		{movegen.StartFEN, []string{"e2e4", "zz"}},
		{movegen.StartFEN, []string{"e1g1"}},
		{"startpos moves e2e4", nil},
		{"fen " + movegen.StartFEN, nil},
	}
	for _, b := range bad {
		if err := e.SetPosition(b.fen, b.moves...); err == nil {
			t.Errorf("SetPosition(%q, %v) accepted", b.fen, b.moves)
		}
		if got := e.Position().FEN(false); got != good {
			t.Errorf("after a rejected position: %s, want %s", got, good)
		}
	}
	// A UCI position command given as the FEN is named as such.
	if err := e.SetPosition("startpos moves e2e4"); err == nil || !strings.Contains(err.Error(), "separate arguments") {
		t.Errorf("SetPosition of a position command: %v", err)
	}
}

// TestCastlingInput: king takes rook is always castling; the king's
// two-square move only in standard mode.
func TestCastlingInput(t *testing.T) {
	const fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
	e := newEngine(t)
	if err := e.SetPosition(fen, "e1g1"); err != nil {
		t.Fatalf("standard e1g1: %v", err)
	}
	viaKing := e.Position().FEN(true)
	if err := e.SetPosition(fen, "e1h1"); err != nil {
		t.Fatalf("standard e1h1: %v", err)
	}
	if got := e.Position().FEN(true); got != viaKing || !strings.HasPrefix(got, "r3k2r/8/8/8/8/8/8/R4RK1 b") {
		t.Fatalf("e1h1 gives %s, e1g1 gives %s", got, viaKing)
	}
	if err := e.SetOption("UCI_Chess960", "true"); err != nil {
		t.Fatal(err)
	}
	if err := e.SetPosition(fen, "e1g1"); err == nil {
		t.Fatal("960 mode accepted e1g1 as castling")
	}
	if err := e.SetPosition(fen, "e1h1"); err != nil {
		t.Fatalf("960 e1h1: %v", err)
	}
	// King already on g1: g1h1 castles, g1f1 is a plain king move.
	const g1 = "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1"
	if err := e.SetPosition(g1, "g1h1"); err != nil {
		t.Fatal(err)
	}
	if got := e.Position().FEN(true); !strings.HasPrefix(got, "1r4kr/8/8/8/8/8/8/1R3RK1 b") {
		t.Fatalf("g1h1 gives %s", got)
	}
	if err := e.SetPosition(g1, "g1f1"); err != nil {
		t.Fatal(err)
	}
	if got := e.Position().FEN(true); !strings.HasPrefix(got, "1r4kr/8/8/8/8/8/8/1R3K1R b") {
		t.Fatalf("g1f1 gives %s", got)
	}
}

func TestGoDepth(t *testing.T) {
	e := newEngine(t)
	r := newRecorder()
	e.Go(search.Limits{Depth: 3}, r.info, r.result)
	res := r.wait(t)
	e.Wait()
	pos := e.Position()
	mustLegal(t, pos, res.BestMove)
	var last search.Info
	for _, i := range r.infos {
		if i.MultiPV <= 1 && len(i.PV) > 0 {
			last = i
		}
	}
	if len(last.PV) == 0 || last.PV[0] != res.BestMove {
		t.Fatalf("bestmove %v is not the first move of the last PV %v", res.BestMove, last.PV)
	}
	if len(last.PV) > 1 && res.PonderMove != last.PV[1] {
		t.Fatalf("ponder %v, PV %v", res.PonderMove, last.PV)
	}
	if e.Searching() {
		t.Fatal("still searching after the result")
	}
}

func TestStopWhenIdleDoesNotSpoilNextGo(t *testing.T) {
	e := newEngine(t)
	e.Stop()
	e.Stop()
	e.PonderHit()
	r := newRecorder()
	e.Go(search.Limits{Depth: 4}, r.info, r.result)
	res := r.wait(t)
	e.Wait()
	mustLegal(t, e.Position(), res.BestMove)
	// A depth-4 search that finished on its own reached depth 4.
	if res.Depth < 4 {
		t.Fatalf("search stopped early at depth %d: a stale stop leaked", res.Depth)
	}
	e.Stop()
	if r.count() != 1 {
		t.Fatalf("%d results, want 1", r.count())
	}
}

func TestInfiniteWaitsForStop(t *testing.T) {
	e := newEngine(t)
	r := newRecorder()
	e.Go(search.Limits{Infinite: true, Depth: 1}, r.info, r.result)
	r.waitInfo(t)
	// The depth-1 search is over; the result must wait for stop.
	for range 50 {
		if r.count() != 0 {
			t.Fatal("result before stop under infinite")
		}
		time.Sleep(time.Millisecond)
	}
	e.Stop()
	res := r.wait(t)
	e.Wait()
	mustLegal(t, e.Position(), res.BestMove)
	if r.count() != 1 {
		t.Fatalf("%d results", r.count())
	}
}

func TestPonderHit(t *testing.T) {
	e := newEngine(t)
	r := newRecorder()
	lim := search.Limits{Ponder: true, HasClock: true, WTime: time.Second, BTime: time.Second}
	e.Go(lim, r.info, r.result)
	r.waitInfo(t)
	if r.count() != 0 {
		t.Fatal("result while pondering")
	}
	e.PonderHit()
	res := r.wait(t)
	mustLegal(t, e.Position(), res.BestMove)
}

// TestPonderHitAtOnce: a ponderhit sent right after go must not be lost,
// even before the search threads have started.
func TestPonderHitAtOnce(t *testing.T) {
	e := newEngine(t)
	for range 20 {
		r := newRecorder()
		lim := search.Limits{Ponder: true, HasClock: true, WTime: 200 * time.Millisecond, BTime: 200 * time.Millisecond}
		e.Go(lim, r.info, r.result)
		e.PonderHit()
		res := r.wait(t)
		mustLegal(t, e.Position(), res.BestMove)
	}
}

func TestGoStopsRunningSearch(t *testing.T) {
	e := newEngine(t)
	r1 := newRecorder()
	e.Go(search.Limits{Infinite: true}, r1.info, r1.result)
	r1.waitInfo(t)
	r2 := newRecorder()
	e.Go(search.Limits{Depth: 2}, r2.info, r2.result)
	if r1.count() != 1 {
		t.Fatalf("first search: %d results when the second started", r1.count())
	}
	r2.wait(t)
	e.Wait()
	if r1.count() != 1 || r2.count() != 1 {
		t.Fatalf("results: %d and %d, want 1 each", r1.count(), r2.count())
	}
}

func TestSetPositionAndNewGameStopSearch(t *testing.T) {
	e := newEngine(t)
	r := newRecorder()
	e.Go(search.Limits{Infinite: true}, r.info, r.result)
	r.waitInfo(t)
	start := e.Position()
	if err := e.SetPosition(movegen.StartFEN, "e2e4"); err != nil {
		t.Fatal(err)
	}
	if r.count() != 1 {
		t.Fatal("SetPosition did not stop the search first")
	}
	mustLegal(t, start, r.results[0].BestMove)

	r2 := newRecorder()
	e.Go(search.Limits{Ponder: true}, r2.info, r2.result)
	r2.waitInfo(t)
	e.NewGame()
	if r2.count() != 1 {
		t.Fatal("NewGame did not stop the search first")
	}
	mustLegal(t, e.Position(), r2.results[0].BestMove)
}

func TestOptionsDuringSearch(t *testing.T) {
	e := newEngine(t)
	r := newRecorder()
	e.Go(search.Limits{Infinite: true}, r.info, r.result)
	r.waitInfo(t)
	for _, o := range [][2]string{{"Hash", "2"}, {"Clear Hash", ""}, {"Threads", "2"}, {"MultiPV", "2"}} {
		if err := e.SetOption(o[0], o[1]); err != nil {
			t.Fatal(err)
		}
	}
	e.Prepare() // does nothing while searching
	if e.table.SizeMB() != DefaultSettings().Hash {
		t.Fatal("table resized under a running search")
	}
	e.Stop()
	r.wait(t)
	e.Wait()
	r2 := newRecorder()
	e.Go(search.Limits{Depth: 2}, r2.info, r2.result)
	r2.wait(t)
	if e.table.SizeMB() != 2 {
		t.Fatalf("Hash not applied at the next search: %d MiB", e.table.SizeMB())
	}
	lines := map[int]bool{}
	for _, i := range r2.infos {
		lines[i.MultiPV] = true
	}
	if !lines[2] {
		t.Fatal("MultiPV 2 not applied")
	}
}

func TestNoLegalMove(t *testing.T) {
	tests := []struct {
		fen   string
		score int
	}{
		{"7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", eval.MatedIn(0)}, // checkmate
		{"7k/8/6QK/8/8/8/8/8 b - - 0 1", eval.Draw},         // stalemate
	}
	for _, tc := range tests {
		e := newEngine(t)
		if err := e.SetPosition(tc.fen); err != nil {
			t.Fatal(err)
		}
		r := newRecorder()
		e.Go(search.Limits{Depth: 5}, r.info, r.result)
		res := r.wait(t)
		if res.BestMove != movegen.NoMove || res.Score != tc.score {
			t.Errorf("%s: result %+v", tc.fen, res)
		}
		// Under infinite, even with no move, the result waits for stop.
		r = newRecorder()
		e.Go(search.Limits{Infinite: true}, r.info, r.result)
		r.waitInfo(t)
		if r.count() != 0 {
			t.Errorf("%s: result before stop", tc.fen)
		}
		e.Stop()
		if res := r.wait(t); res.BestMove != movegen.NoMove {
			t.Errorf("%s: bestmove %v", tc.fen, res.BestMove)
		}
	}
}

func TestSearchMovesRestrictRoot(t *testing.T) {
	e := newEngine(t)
	m, err := e.ParseMove("a2a3")
	if err != nil {
		t.Fatal(err)
	}
	r := newRecorder()
	e.Go(search.Limits{Depth: 3, SearchMoves: []movegen.Move{m}}, r.info, r.result)
	if res := r.wait(t); res.BestMove != m {
		t.Fatalf("bestmove %v, want a2a3", res.BestMove)
	}
}

func TestChooseMoves(t *testing.T) {
	pos := movegen.NewPosition()
	mv := func(s string) movegen.Move {
		m, err := movegen.ParseMove(pos, s, false)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	e2e4, d2d4 := mv("e2e4"), mv("d2d4")
	pos.Make(e2e4)
	e7e5 := mv("e7e5")
	pos.Unmake()
	illegal := movegen.NewMove(movegen.E2, movegen.E2+24) // e2e5

	tests := []struct {
		name         string
		res          search.Result
		pv           []movegen.Move
		best, ponder movegen.Move
	}{
		{"result agrees with PV", search.Result{BestMove: e2e4, PonderMove: e7e5}, []movegen.Move{e2e4, e7e5}, e2e4, e7e5},
		{"PV wins", search.Result{BestMove: d2d4, PonderMove: e7e5}, []movegen.Move{e2e4}, e2e4, movegen.NoMove},
		{"no PV", search.Result{BestMove: d2d4}, nil, d2d4, movegen.NoMove},
		{"illegal ponder dropped", search.Result{BestMove: e2e4, PonderMove: d2d4}, nil, e2e4, movegen.NoMove},
		{"illegal everything", search.Result{BestMove: illegal}, []movegen.Move{illegal}, 0, movegen.NoMove},
	}
	for _, tc := range tests {
		best, ponder := chooseMoves(pos, tc.res, tc.pv)
		if tc.best == 0 {
			if !pos.IsLegal(best) {
				t.Errorf("%s: fallback %v is not legal", tc.name, best)
			}
		} else if best != tc.best {
			t.Errorf("%s: best %v, want %v", tc.name, best, tc.best)
		}
		if ponder != tc.ponder {
			t.Errorf("%s: ponder %v, want %v", tc.name, ponder, tc.ponder)
		}
	}
	if pos.FEN(false) != movegen.StartFEN {
		t.Fatal("chooseMoves changed the position")
	}
}

// TestRepetitionHistoryKept: the game's moves reach the search, which needs
// them to see repetitions.
func TestRepetitionHistoryKept(t *testing.T) {
	e := newEngine(t)
	moves := strings.Fields("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8")
	if err := e.SetPosition(movegen.StartFEN, moves...); err != nil {
		t.Fatal(err)
	}
	pos := e.Position()
	if pos.Ply() != len(moves) || pos.RepetitionCount() != 2 {
		t.Fatalf("ply %d, repetitions %d", pos.Ply(), pos.RepetitionCount())
	}
}

func TestHashThatDoesNotFitIsRefused(t *testing.T) {
	avail, ok := availableMB()
	if !ok {
		t.Skip("no /proc/meminfo: the memory check is off on this system")
	}
	e := newEngine(t)
	tooBig := min(avail+1024, 65536)
	if avail+1024 > 65536 {
		t.Skipf("%d MB available: every Hash value fits", avail)
	}
	if err := e.SetOption("Hash", strconv.Itoa(tooBig)); err == nil {
		t.Fatalf("Hash %d accepted with %d MB available", tooBig, avail)
	}
	if got := e.Settings().Hash; got != 16 {
		t.Errorf("Hash changed to %d after a refused value", got)
	}
	if err := e.SetOption("Hash", "32"); err != nil {
		t.Errorf("Hash 32 refused: %v", err)
	}
}

// TestGoLeavesSpareProcessors checks that an engine made with
// Config.RaiseProcs (the binary's) gives the runtime two processors beyond
// the search threads once Threads is set, for the goroutines that deliver
// stop, and that a search does not change the setting (each change stops
// the world, and a search that raised and restored it per search hung once
// in about 100,000).
func TestGoLeavesSpareProcessors(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	e, err := New(&Config{RaiseProcs: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Stop(); e.Wait() })
	threads := before + 1 // more than the runtime has now
	if err := e.SetOption("Threads", strconv.Itoa(threads)); err != nil {
		t.Fatal(err)
	}
	set := runtime.GOMAXPROCS(0)
	if set < threads+2 {
		t.Errorf("GOMAXPROCS = %d after Threads = %d, want at least %d", set, threads, threads+2)
	}
	r := newRecorder()
	e.Go(search.Limits{Infinite: true}, r.info, r.result)
	r.waitInfo(t)
	during := runtime.GOMAXPROCS(0)
	e.Stop()
	r.wait(t)
	e.Wait()
	if after := runtime.GOMAXPROCS(0); during != set || after != set {
		t.Errorf("GOMAXPROCS %d before the search, %d during it, %d after: a search changed it", set, during, after)
	}
	// Fewer threads never lower it.
	if err := e.SetOption("Threads", "1"); err != nil {
		t.Fatal(err)
	}
	if now := runtime.GOMAXPROCS(0); now != set {
		t.Errorf("GOMAXPROCS %d after Threads = 1, want it kept at %d", now, set)
	}
}

// TestLibraryLeavesProcsAlone: an engine made without Config.RaiseProcs,
// as a program that imports the package makes it, never changes the
// program's GOMAXPROCS, whatever Threads is.
func TestLibraryLeavesProcsAlone(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Cleanup(func() { runtime.GOMAXPROCS(before) })
	set := DefaultSettings()
	set.Threads = before + 3
	e, err := New(&Config{Settings: &set})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.SetOption("Threads", strconv.Itoa(before+5)); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Analyse(context.Background(), Limits{Depth: 2}); err != nil {
		t.Fatal(err)
	}
	if now := runtime.GOMAXPROCS(0); now != before {
		t.Errorf("GOMAXPROCS %d, was %d: the engine changed it", now, before)
	}
}

// TestNewSettings: New sets Config.Settings as SetSettings does, refuses
// a value out of range, and SetSettings leaves unchanged options alone.
func TestNewSettings(t *testing.T) {
	set := DefaultSettings()
	set.Hash, set.MultiPV, set.Chess960, set.MoveOverhead, set.Seed = 2, 3, true, 25*time.Millisecond, 9
	set.EvalFile = "" // the embedded net, as the option reads an empty value
	e, err := New(&Config{Settings: &set})
	if err != nil {
		t.Fatal(err)
	}
	want := set
	want.EvalFile = DefaultSettings().EvalFile
	if got := e.Settings(); got != want {
		t.Errorf("Settings() = %+v, want %+v", got, want)
	}
	if e.seed != gameSeed(9) {
		t.Errorf("seed %#x, want the Seed option's %#x", e.seed, gameSeed(9))
	}
	bad := DefaultSettings()
	bad.MultiPV = 0
	if _, err := New(&Config{Settings: &bad}); err == nil || !strings.Contains(err.Error(), "MultiPV") {
		t.Errorf("MultiPV 0: error %v, want one naming MultiPV", err)
	}
	if err := e.SetSettings(bad); err == nil {
		t.Error("SetSettings took MultiPV 0")
	}
	if got := e.Settings(); got != want {
		t.Errorf("a refused SetSettings changed the options to %+v", got)
	}
	missing := want
	missing.EvalFile = t.TempDir() + "/missing.nnue"
	if err := e.SetSettings(missing); err == nil {
		t.Error("SetSettings took an EvalFile that does not exist")
	}
	if got := e.Settings().EvalFile; got != want.EvalFile {
		t.Errorf("EvalFile %q after a refused file", got)
	}
	// Move Overhead is whole milliseconds, rounded down: any negative
	// duration is out of range.
	for _, c := range []struct {
		d    time.Duration
		want time.Duration // -1: refused
	}{{-time.Second, -1}, {-500 * time.Microsecond, -1}, {0, 0}, {1500 * time.Microsecond, time.Millisecond}, {5 * time.Second, 5 * time.Second}, {5001 * time.Millisecond, -1}} {
		s := want
		s.MoveOverhead = c.d
		err := e.SetSettings(s)
		got := e.Settings().MoveOverhead
		if (err != nil) != (c.want < 0) || (c.want >= 0 && got != c.want) {
			t.Errorf("MoveOverhead %v: now %v, error %v; want %v", c.d, got, err, c.want)
		}
	}
}

// TestSyzygyPathNotice checks the info the front end prints after
// SyzygyPath: how many tables were found, also for a path without any.
func TestSyzygyPathNotice(t *testing.T) {
	e := newEngine(t)
	for _, c := range []struct{ path, want string }{
		{"../eval/syzygy/testdata", "Found 8 tablebases"}, // the syzygy package's test tables
		{t.TempDir(), "Found 0 tablebases"},
		{"/nonexistent/tables", "Found 0 tablebases; open /nonexistent/tables: no such file or directory"},
		{"<empty>", "Found 0 tablebases"},
	} {
		if err := e.SetOption("SyzygyPath", c.path); err != nil {
			t.Fatalf("SyzygyPath %q: %v", c.path, err)
		}
		if got := e.TakeNotice(); got != c.want {
			t.Errorf("SyzygyPath %q: notice %q, want %q", c.path, got, c.want)
		}
		if got := e.TakeNotice(); got != "" {
			t.Errorf("second TakeNotice = %q, want empty", got)
		}
	}
}

// TestStrengthCalibrationFollowsTheGame: under UCI_LimitStrength the
// Chess960 calibration is used when UCI_Chess960 is on and the position
// command does not start from standard chess (the standard start, or
// standard castling rights); a standard game keeps standard chess's, also
// from a GUI that leaves UCI_Chess960 on.
func TestStrengthCalibrationFollowsTheGame(t *testing.T) {
	frc, _ := movegen.Chess960FEN(3)
	dfrc, _ := movegen.DFRCFEN(100, 700)
	shredderStart := "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
	for _, c := range []struct {
		chess960 bool
		fen      string
		moves    []string
		want     bool
	}{
		{false, movegen.StartFEN, nil, false},
		{false, frc, nil, false},
		{true, movegen.StartFEN, nil, false},
		{true, movegen.StartFEN, []string{"e2e4", "e7e5"}, false},
		{true, shredderStart, []string{"g1f3"}, false},
		{true, frc, nil, true},
		{true, frc, []string{"a2a3"}, true},
		{true, dfrc, nil, true},
		// A FEN sent each move: standard castling rights mark a standard
		// game, Chess960 ones (or none left) leave it to the option.
		{true, "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w KQkq - 0 1", nil, false},
		{true, "r3k2r/pp3ppp/8/8/8/8/PP3PPP/R3K2R w Q - 0 1", nil, false},
		{true, "1r3kr1/pp3ppp/8/8/8/8/PP3PPP/1R3KR1 w GBgb - 0 1", nil, true},
		{true, "r3k1r1/pp3ppp/8/8/8/8/PP3PPP/R3K2R w HAga - 0 1", nil, true},
		{true, "4k3/pp3ppp/8/8/8/8/PP3PPP/4K3 w - - 0 1", nil, true},
		{false, "1r3kr1/pp3ppp/8/8/8/8/PP3PPP/1R3KR1 w GBgb - 0 1", nil, false},
	} {
		e := newEngine(t)
		for name, v := range map[string]string{"UCI_Chess960": strconv.FormatBool(c.chess960),
			"UCI_LimitStrength": "true", "UCI_Elo": "2000"} {
			if err := e.SetOption(name, v); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.SetPosition(c.fen, c.moves...); err != nil {
			t.Fatalf("%s %v: %v", c.fen, c.moves, err)
		}
		e.mu.Lock()
		got := e.strengthLocked()
		e.mu.Unlock()
		if got.Chess960 != c.want || got.Elo != 2000 {
			t.Errorf("UCI_Chess960 %v, %s %v: strength %+v, want the Chess960 calibration %v", c.chess960, c.fen, c.moves, got, c.want)
		}
	}
	// A position command that is refused keeps the game, and its start.
	e := newEngine(t)
	for name, v := range map[string]string{"UCI_Chess960": "true", "UCI_LimitStrength": "true"} {
		if err := e.SetOption(name, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.SetPosition(frc); err != nil {
		t.Fatal(err)
	}
	if e.SetPosition(movegen.StartFEN, "e2e5") == nil {
		t.Fatal("an illegal move was accepted")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.strengthLocked().Chess960 {
		t.Errorf("a refused position command changed the game's calibration")
	}
}
