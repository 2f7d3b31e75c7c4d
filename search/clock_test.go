package search

import (
	"context"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// watchGuard bounds how long these tests wait for the clock's watch before
// failing instead of hanging; the limits they set are 100 ms, so it is no
// speed requirement.
const watchGuard = 5 * time.Second

// blockedSearch starts a search on two threads whose main worker blocks in
// its first report until release is closed: a main worker that never looks
// at the clock, as one that gets no processor. It returns the channels that
// receive each Overdue call and the result.
func blockedSearch(t *testing.T, p *Pool, lim Limits) (blocked, overdue <-chan struct{}, release chan struct{}, result <-chan Result) {
	t.Helper()
	bl, od, rel, res := make(chan struct{}), make(chan struct{}, 4), make(chan struct{}), make(chan Result, 1)
	var once sync.Once
	opt := Options{Threads: 2, MoveOverhead: 10 * time.Millisecond, Overdue: func() { od <- struct{}{} }}
	pos := mustPos(t, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8")
	go func() {
		res <- p.Search(context.Background(), pos, lim, opt, func(Info) {
			once.Do(func() {
				close(bl)
				<-rel
			})
		})
	}()
	return bl, od, rel, res
}

// wait fails the test when ch gets nothing within watchGuard.
func wait[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(watchGuard):
		t.Fatalf("no %s within %v", what, watchGuard)
		var zero T
		return zero
	}
}

// helpersDone tells when the helper threads of p's search have ended.
func helpersDone(p *Pool) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		p.helpers.Wait()
		close(ch)
	}()
	return ch
}

// TestStopAtHardLimitWithoutPolling: under a clock, the time-up flag is set
// at the hard limit and Options.Overdue is called while the main worker never
// looks at the clock; the helper sees the flag and ends. Once the main
// worker goes on, Search returns a legal move, and Overdue was called once.
func TestStopAtHardLimitWithoutPolling(t *testing.T) {
	p := NewPool(tt.New(16))
	lim := Limits{HasClock: true, WTime: 100 * time.Millisecond, BTime: 100 * time.Millisecond}
	blocked, overdue, release, result := blockedSearch(t, p, lim)
	wait(t, blocked, "first report")
	wait(t, overdue, "overdue call with the main worker blocked")
	if !p.timeUp.Load() {
		t.Error("overdue called before the time-up flag was set")
	}
	wait(t, helpersDone(p), "end of the helper with the main worker blocked")
	close(release)
	res := wait(t, result, "result")
	if res.BestMove == movegen.NoMove || !p.workers[0].pos.IsLegal(res.BestMove) {
		t.Errorf("bad move %v", res.BestMove)
	}
	if n := len(overdue); n != 0 {
		t.Errorf("overdue called %d more times", n)
	}
}

// TestNoAlarmWhilePondering: a pondering search is not stopped nor overdue
// however long it ponders; the clock starts at ponderhit.
func TestNoAlarmWhilePondering(t *testing.T) {
	p := NewPool(tt.New(16))
	lim := Limits{Ponder: true, HasClock: true, WTime: 100 * time.Millisecond, BTime: 100 * time.Millisecond}
	blocked, overdue, release, result := blockedSearch(t, p, lim)
	wait(t, blocked, "first report")
	// Three times the clock given: no alarm may ring before ponderhit.
	time.Sleep(300 * time.Millisecond)
	select {
	case <-overdue:
		t.Fatal("overdue called while pondering")
	default:
	}
	if p.stop.Load() || p.timeUp.Load() {
		t.Fatal("stopped while pondering")
	}
	p.PonderHit()
	wait(t, overdue, "overdue call after ponderhit with the main worker blocked")
	if !p.timeUp.Load() {
		t.Error("overdue called before the time-up flag was set")
	}
	close(release)
	if res := wait(t, result, "result"); res.BestMove == movegen.NoMove {
		t.Error("no move")
	}
}

// TestOverdueTime: the overdue time lies after the hard limit and before the
// clock runs out (or at the hard limit when that is the end), at most
// tmOverdueMillis after the hard limit.
func TestOverdueTime(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		lim Limits
		end time.Duration // when the clock runs out
	}{
		{Limits{HasClock: true, WTime: 60 * time.Second, WInc: 600 * ms}, 60 * time.Second},
		{Limits{HasClock: true, WTime: time.Second, WInc: 100 * ms}, time.Second},
		{Limits{HasClock: true, WTime: 100 * ms, WInc: 20 * ms}, 100 * ms},
		{Limits{HasClock: true, WTime: 30 * ms}, 30 * ms},
		{Limits{HasClock: true, WTime: 5 * ms}, 5 * ms},
		{Limits{HasClock: true, WTime: 0}, 0},
		{Limits{HasClock: true, WTime: 2 * time.Second, MovesToGo: 1}, 2 * time.Second},
		{Limits{MoveTime: 500 * ms}, 500 * ms},
		{Limits{MoveTime: ms}, ms},
	} {
		p := NewPool(tt.New(1))
		p.limits = c.lim
		p.opts.MoveOverhead = 10 * ms
		p.setTimeLimits(movegen.White)
		if !p.timed || p.overdue < p.hard || p.overdue > max(p.hard, c.end) ||
			p.overdue-p.hard > time.Duration(tmOverdueMillis)*ms {
			t.Errorf("%+v: hard %v, overdue %v, clock ends at %v", c.lim, p.hard, p.overdue, c.end)
		}
	}
}

// TestSoftLimitScales: the soft limit shrinks when the best move took most
// of the root's nodes and grows when it took few, and grows when the score
// falls below its trend; both stay within their bounds, and a search gives
// the score trend a start.
func TestSoftLimitScales(t *testing.T) {
	share := func(best, rest uint64) float64 {
		return nodeShareScale([]rootMove{{nodes: best}, {nodes: rest / 2}, {nodes: rest - rest/2}})
	}
	if hi, lo := share(95, 5), share(30, 70); !(hi < 1 && lo > 1 && hi < lo) {
		t.Errorf("node-share scale %.2f at 95%% and %.2f at 30%%: want below 1, then above 1", hi, lo)
	}
	if s := nodeShareScale([]rootMove{{}, {}}); s != 1 {
		t.Errorf("node-share scale %.2f with no nodes counted, want 1", s)
	}
	w := &worker{scoreTrend: 50}
	for _, c := range []struct {
		score    int
		min, max float64
	}{
		{50, 1, 1},
		{20, 1.01, tmFallMax},
		{-900, tmFallMax, tmFallMax},
		{80, tmFallMin, 0.99},
		{30000, tmFallMin, tmFallMin},
	} {
		w.completedScore = c.score
		if s := fallScale(w); s < c.min || s > c.max {
			t.Errorf("score %d against trend 50: scale %.3f, want in [%.3f, %.3f]", c.score, s, c.min, c.max)
		}
	}
	// The trend starts at the first depth's score and moves toward each
	// later one; mate scores count as tmTrendClamp.
	w = &worker{}
	for i, c := range []struct {
		score int
		trend float64
	}{
		{40, 40},
		{80, 40 + tmTrendWeight*40},
		{30000, 40 + tmTrendWeight*40 + tmTrendWeight*(tmTrendClamp-40-tmTrendWeight*40)},
	} {
		w.completed, w.completedScore = i+1, c.score
		w.trackScore()
		if math.Abs(w.scoreTrend-c.trend) > 1e-9 {
			t.Errorf("depth %d, score %d: trend %.2f, want %.2f", i+1, c.score, w.scoreTrend, c.trend)
		}
	}
}

// TestNodeShareOn: the node-share and score-fall scaling acts from depth
// tmNodeShareDepth with one line at full strength, the top UCI_Elo settings
// (the full search) included, and not for a weakened plan, a single root
// move or MultiPV.
func TestNodeShareOn(t *testing.T) {
	pos := mustPos(t, movegen.StartFEN)
	for _, c := range []struct {
		elo, multiPV, depth, moves int
		want                       bool
	}{
		{0, 1, tmNodeShareDepth, 20, true},
		{0, 1, tmNodeShareDepth - 1, 20, false},
		{0, 2, tmNodeShareDepth, 20, false},
		{0, 1, tmNodeShareDepth, 1, false},
		{MaxElo, 1, tmNodeShareDepth, 20, true},
		{2800, 1, tmNodeShareDepth, 20, true},
		{2600, 1, tmNodeShareDepth, 20, false},
		{2200, 1, tmNodeShareDepth, 20, false},
		{MinElo, 1, tmNodeShareDepth, 20, false},
	} {
		p := NewPool(tt.New(1))
		p.opts.MultiPV = c.multiPV
		p.planWeak(pos, Strength{Elo: c.elo})
		w := &worker{completed: c.depth, rootMoves: make([]rootMove, c.moves)}
		if got := p.nodeShareOn(w); got != c.want {
			t.Errorf("UCI_Elo %d, MultiPV %d, depth %d, %d root moves: %v, want %v", c.elo, c.multiPV, c.depth, c.moves, got, c.want)
		}
	}
}

// TestWeakSoftStop: below full strength a weakened search starts no depth
// after the smallest soft-limit scale of the full search, however unstable
// its best move, so it never starts one later than the full search could
// stop on the same clock; at full strength (2800 up in standard chess) the
// scale still grows with the best move's changes.
func TestWeakSoftStop(t *testing.T) {
	pos := mustPos(t, movegen.StartFEN)
	// An hour's soft limit: the margins are minutes, so that a slow machine
	// (or the race detector) does not move a case across the limit.
	const soft = time.Hour
	lo := time.Duration(float64(soft) * minSoftScale())
	for _, c := range []struct {
		elo     int
		elapsed time.Duration
		want    bool
	}{
		{MinElo, lo - time.Minute, false},
		{MinElo, lo + time.Minute, true},
		{2200, lo + time.Minute, true},
		{2799, lo + time.Minute, true},
		{2800, lo + time.Minute, false},
		{0, lo + time.Minute, false},
		{0, 3 * soft, true},
	} {
		p := NewPool(tt.New(1))
		p.opts.MultiPV = 1
		p.planWeak(pos, Strength{Elo: c.elo})
		p.timed, p.soft, p.hard = true, soft, 5*soft
		p.startNanos.Store(time.Now().Add(-c.elapsed).UnixNano())
		w := &worker{completed: 3, bestChange: 1, rootMoves: make([]rootMove, 20)}
		if got := p.softStop(w); got != c.want {
			t.Errorf("UCI_Elo %d, %v of a %v soft limit, unstable best move: stop %v, want %v", c.elo, c.elapsed, soft, got, c.want)
		}
	}
	if s := minSoftScale(); s <= 0 || s > tmStabilityMin {
		t.Errorf("minSoftScale %v: want within (0, %v]", s, tmStabilityMin)
	}
}
