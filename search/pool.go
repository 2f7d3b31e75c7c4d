package search

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// The pool and the lifecycle of its threads: a search starts the helpers,
// runs the main worker, holds back the result of an infinite or pondering
// search, and stops and joins the helpers before the result is chosen
// (result.go).

// Pool runs a search over one or more Lazy SMP workers sharing a table.
// One search runs at a time; Search is not reentrant. Make one with
// NewPool and a table: the zero Pool is not usable.
type Pool struct {
	table   *tt.Table
	workers []*worker

	// per search
	stop       atomic.Bool // stop: every thread stops, the main one once depth 1 is complete
	timeUp     atomic.Bool // the hard time limit passed: every thread stops, the main one once depth 1 is complete
	ponder     atomic.Bool // pondering and no ponderhit yet
	limits     Limits
	opts       Options
	start      time.Time
	startNanos atomic.Int64 // start as UnixNano, moved forward on ponderhit
	soft, hard time.Duration
	overdue    time.Duration // when Options.Overdue is called (time.go)
	timed      bool
	forced     bool         // one legal move under a clock: a short search only
	deepest    atomic.Int32 // deepest depth completed by any worker
	tbProbe    bool         // probe the tablebases in the tree (tb.go)
	tbRootHits uint64       // tablebase probes made at the root
	tbRoot     tbRoot       // what the tables say of the root
	rootDraw   leafDraw     // the root is dead or KNN v K (draw.go)
	// The side to move at the root may claim a draw (draw.go).
	rootClaimable bool
	shownPV       int       // PV lines reported: the MultiPV asked for, fewer than a weakened search searches
	weak          weakState // the plan and root lines of a weakened search (strength.go)

	mu        sync.Mutex    // guards ponderHit against PonderHit racing Search
	ponderHit chan struct{} // closed on the ponderhit of a pondering search, nil when not pondering

	helpers sync.WaitGroup // the helper threads of the running search
	root    []movegen.Move // the root moves of the last search (a buffer kept to save allocations)
}

// NewPool returns a pool that searches with table.
func NewPool(table *tt.Table) *Pool {
	return &Pool{table: table}
}

// NewGame clears the move-ordering histories of all workers.
func (p *Pool) NewGame() {
	for _, w := range p.workers {
		w.hist.clear()
	}
}

// Warm readies the pool, between searches, for searches on threads threads
// evaluating with net (nil: the hand-written evaluation): the workers are
// made, with their accumulators, and their memory written once, so that the
// first search of a process does not spend its first milliseconds (more
// than a tiny clock allows) on it. Search does the same for what is still
// missing.
func (p *Pool) Warm(threads int, net *nnue.Net) {
	made := len(p.workers)
	p.growWorkers(max(1, min(MaxThreads, threads)))
	for _, w := range p.workers[made:] {
		w.hist.clear()
		for i := range w.stack {
			w.stack[i] = frame{}
		}
		w.allocNet(net)
	}
}

// growWorkers makes workers until the pool has n.
func (p *Pool) growWorkers(n int) {
	for len(p.workers) < n {
		p.workers = append(p.workers, newWorker(len(p.workers), p))
	}
}

// PonderHit switches a pondering search to the clock: from now on the time
// limits of its Limits apply. With no pondering search running it does
// nothing; a caller that starts Search on another goroutine passes
// Limits.PonderHit instead, which cannot arrive too early.
func (p *Pool) PonderHit() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ponder.Load() {
		p.startNanos.Store(time.Now().UnixNano())
		p.ponder.Store(false)
		close(p.ponderHit)
	}
}

// beginPonder sets the ponder state of a search starting under lim and
// returns the channel that PonderHit closes (nil when not pondering).
func (p *Pool) beginPonder(lim Limits) chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ponderHit = nil
	if lim.Ponder {
		p.ponderHit = make(chan struct{})
	}
	p.ponder.Store(lim.Ponder)
	return p.ponderHit
}

// endPonder clears the ponder state when a search ends, so that a late
// PonderHit finds nothing to switch.
func (p *Pool) endPonder() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ponder.Store(false)
}

// Stop makes the running search stop as soon as its workers next look at
// the flag, the main worker once depth 1 is complete (shouldStop), so that
// even a search stopped at once answers with a searched line. Cancelling the context given to Search does the same, but through
// one more goroutine, which may have to wait for a processor. A Stop that
// comes before Search has begun is lost: the context is what always holds.
func (p *Pool) Stop() {
	p.stop.Store(true)
}

// Search runs a search on pos and returns the best move. It blocks until
// the search ends: a limit is reached, ctx is cancelled (stop; depth 1 is
// completed first, a few hundred nodes at most), or, under Infinite or
// Ponder, never before ctx is cancelled or (for Ponder) the ponderhit has
// come and the clock runs out; this holds also when there is no move to
// search (it then returns a zero Result). Under a clock or a move time a
// timer stops it at the hard limit, and calls Options.Overdue if it still
// runs a little later. It clones pos (the game history included, for
// repetitions) and never modifies it. onInfo (nil: no reports) is called
// from the searching goroutine, never concurrently. A Pool runs one search
// at a time: Search must not be called again before it returns.
func (p *Pool) Search(ctx context.Context, pos *movegen.Position, lim Limits, opt Options, onInfo func(Info)) Result {
	p.start = time.Now()
	if !lim.Start.IsZero() && lim.Start.Before(p.start) {
		p.start = lim.Start
	}
	p.startNanos.Store(p.start.UnixNano())
	// A context already cancelled stops the helpers before their first
	// node, not when the watcher runs (on a busy machine they could search
	// several depths first); the main thread still completes depth 1.
	p.stop.Store(ctx.Err() != nil)
	p.timeUp.Store(false)
	p.deepest.Store(0)
	p.limits = lim
	p.opts = opt
	p.opts.Threads = max(1, min(MaxThreads, opt.Threads))
	p.opts.MultiPV = max(1, min(MaxMultiPV, opt.MultiPV))
	p.shownPV = p.opts.MultiPV
	p.planWeak(pos, opt.Strength)
	if p.weak.on {
		p.opts.Threads = 1
		if !p.weak.full() {
			// A weaker player knows no tablebases: the endings are
			// played by the weakened search like the rest of the game.
			p.opts.Tablebases = nil
		}
		p.opts.MultiPV = max(p.opts.MultiPV, p.weak.lines)
	}
	p.setTimeLimits(pos.SideToMove())
	hitCh := p.beginPonder(lim)
	defer p.endPonder()
	if ctx.Done() != nil || lim.PonderHit != nil || p.timed {
		// The watcher is joined before Search returns: a cancel or a timer
		// that comes as this search ends must not stop the next one.
		done, exited := make(chan struct{}), make(chan struct{})
		defer func() { close(done); <-exited }()
		go func() {
			defer close(exited)
			p.watch(ctx, lim.PonderHit, hitCh, done)
		}()
	}

	p.growWorkers(p.opts.Threads)
	p.workers = p.workers[:p.opts.Threads]
	p.table.NewSearch()

	root := p.rootMovesFor(pos, lim.SearchMoves)
	root, tbr, hits := p.tbFilterRoot(pos, root)
	p.tbProbe, p.tbRootHits, p.tbRoot = p.tbInTree(tbr), hits, tbr
	p.rootDraw, p.rootClaimable = rootDraw(pos)
	if len(root) == 0 {
		p.waitIfInfinite(ctx, lim, hitCh)
		return Result{}
	}
	p.weak.fitSearch(pos, min(p.shownPV, len(root))) // the lines shown that the root has
	// Under a clock, a forced move is played at once: time spent on it is
	// lost. (Ponder waits for ponderhit as usual, then answers.)
	p.forced = len(root) == 1 && lim.HasClock && lim.MoveTime == 0 && !lim.Infinite

	for _, w := range p.workers {
		w.prepare(pos, root)
		if w.id > 0 {
			p.helpers.Add(1)
			go func(w *worker) {
				defer p.helpers.Done()
				w.iterateOnThread(nil)
			}(w)
		}
	}
	main := p.workers[0]
	main.iterateOnThread(onInfo)

	// Infinite and ponder searches never end before stop (or ponderhit).
	p.waitIfInfinite(ctx, lim, hitCh)
	p.stop.Store(true)
	p.helpers.Wait()

	return p.result(onInfo)
}

// watch stops the search when ctx is cancelled and hands on a ponderhit
// from hit (nil when none can come), until done is closed.
//
// It also keeps the clock of a timed search, from the start or from the
// ponderhit (closed when PonderHit switches a pondering search to the
// clock; nil when not pondering): at the hard limit a timer sets the stop
// flag, so that the stop does not wait for the main worker to look at the
// clock (the helpers see the flag at their next node, the main worker when
// it next runs), and at the overdue time (time.go) it calls
// Options.Overdue. On a machine with more busy threads than cores a thread
// can go without a processor for tens or hundreds of milliseconds; a timer
// wakes a sleeping thread, which the scheduler serves sooner than threads
// that have used their share.
func (p *Pool) watch(ctx context.Context, hit, ponderhit <-chan struct{}, done <-chan struct{}) {
	c := clockWatch{p: p}
	defer c.stop()
	c.arm()
	for {
		select {
		case <-ctx.Done():
			p.stop.Store(true)
			return
		case <-hit:
			p.PonderHit()
			hit = nil
		case <-ponderhit:
			ponderhit = nil
			c.arm()
		case <-c.alarm:
			c.ring()
		case <-done:
			return
		}
	}
}

// clockWatch is the timer of watch: it rings first at the hard limit, then
// at the overdue time.
type clockWatch struct {
	p       *Pool
	timer   *time.Timer
	alarm   <-chan time.Time // nil while no alarm is set
	overdue bool             // the hard limit has rung: the next alarm is the overdue one
	rung    bool             // both have rung
}

// arm sets the next alarm of a timed search that is on the clock (not
// pondering).
func (c *clockWatch) arm() {
	p := c.p
	c.alarm = nil
	if !p.timed || p.ponder.Load() || c.rung {
		return
	}
	at := p.hard
	if c.overdue {
		if p.limits.Infinite {
			return // no answer before stop, however long the search waits
		}
		at = p.overdue
	}
	d := max(0, at-p.elapsed())
	if c.timer == nil {
		c.timer = time.NewTimer(d)
	} else {
		c.timer.Reset(d)
	}
	c.alarm = c.timer.C
}

// ring acts on an alarm and sets the next one.
func (c *clockWatch) ring() {
	p := c.p
	if !c.overdue {
		p.timeUp.Store(true)
		c.overdue = true
	} else {
		if p.opts.Overdue != nil {
			p.opts.Overdue()
		}
		c.rung = true
	}
	c.arm()
}

func (c *clockWatch) stop() {
	if c.timer != nil {
		c.timer.Stop()
	}
}

// waitIfInfinite blocks an infinite or ponder search that finished early
// until stop (or, for ponder, ponderhit): the one place that holds back the
// result of such a search, also when there is no move to search.
func (p *Pool) waitIfInfinite(ctx context.Context, lim Limits, hitCh chan struct{}) {
	if p.stop.Load() && ctx.Err() != nil {
		return
	}
	if lim.Infinite {
		<-ctx.Done()
		return
	}
	if lim.Ponder {
		select {
		case <-ctx.Done():
		case <-hitCh:
		}
	}
}

func (p *Pool) totalTBHits() uint64 {
	n := p.tbRootHits
	for _, w := range p.workers {
		n += w.tbHits.Load()
	}
	return n
}

func (p *Pool) totalNodes() uint64 {
	var n uint64
	for _, w := range p.workers {
		n += w.nodesPub.Load()
	}
	return n
}
