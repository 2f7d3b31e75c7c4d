package search

import (
	"context"
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

// TestStopAtHardLimitWithoutPolling: under a clock, the stop flag is set at
// the hard limit and Options.Overdue is called while the main worker never
// looks at the clock; the helper sees the flag and ends. Once the main
// worker goes on, Search returns a legal move, and Overdue was called once.
func TestStopAtHardLimitWithoutPolling(t *testing.T) {
	p := NewPool(tt.New(16))
	lim := Limits{HasClock: true, WTime: 100 * time.Millisecond, BTime: 100 * time.Millisecond}
	blocked, overdue, release, result := blockedSearch(t, p, lim)
	wait(t, blocked, "first report")
	wait(t, overdue, "overdue call with the main worker blocked")
	if !p.stop.Load() {
		t.Error("overdue called before the stop flag was set")
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
	if p.stop.Load() {
		t.Fatal("stopped while pondering")
	}
	p.PonderHit()
	wait(t, overdue, "overdue call after ponderhit with the main worker blocked")
	if !p.stop.Load() {
		t.Error("overdue called before the stop flag was set")
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
