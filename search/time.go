package search

import (
	"math"
	"time"

	"github.com/kingrook/kingrook/movegen"
)

// Time management and the limit checks: the soft and hard budget of a
// move, whether to start another iteration, the polling of the stop flag and
// the time and node limits during the search. (The pool's watch, in
// pool.go, also stops the search at the hard limit by a timer.)

// budget is the time a move may take: the soft limit (start no new
// iteration after it), the hard limit (stop), and when the search is
// overdue (Options.Overdue); all from the search's start. timed is false
// when neither a clock nor a move time was given.
type budget struct {
	soft, hard, overdue time.Duration
	timed               bool
}

// setTimeLimits sets the time limits of this move.
func (p *Pool) setTimeLimits(us movegen.Color) {
	b := timeBudget(p.limits, p.opts.MoveOverhead, us)
	p.soft, p.hard, p.overdue, p.timed = b.soft, b.hard, b.overdue, b.timed
}

// OverdueAfter tells how long after its start (Limits.Start) a search under
// lim, with the move overhead given and us to move, is overdue, and whether
// it has a time limit at all. A caller that must wait before it can start
// the search keeps the move's clock with it.
func OverdueAfter(lim Limits, overhead time.Duration, us movegen.Color) (time.Duration, bool) {
	b := timeBudget(lim, overhead, us)
	return b.overdue, b.timed
}

// timeBudget computes the budget of a move under lim.
func timeBudget(lim Limits, overhead time.Duration, us movegen.Color) budget {
	switch {
	case lim.MoveTime > 0:
		t := max(time.Duration(tmMinMillis)*time.Millisecond, lim.MoveTime-overhead)
		return budget{soft: t, hard: t, overdue: overdueAt(t, lim.MoveTime), timed: true}
	case lim.HasClock:
		left, inc, given := lim.WTime, lim.WInc, lim.WTimeGiven
		theirLeft, theirInc := lim.BTime, lim.BInc
		if us == movegen.Black {
			left, inc, given = lim.BTime, lim.BInc, lim.BTimeGiven
			theirLeft, theirInc = lim.WTime, lim.WInc
		}
		if !given && (lim.WTimeGiven || lim.BTimeGiven) {
			// Only the opponent's clock was given: assume ours is the same
			// rather than think for a millisecond.
			left, inc = theirLeft, theirInc
		}
		avail := left - overhead - time.Duration(tmSafetyMillis)*time.Millisecond
		avail = max(time.Duration(tmMinMillis)*time.Millisecond, avail)
		mtg := tmDefaultMovesToGo
		if lim.MovesToGo > 0 {
			mtg = min(lim.MovesToGo, tmDefaultMovesToGo)
		}
		soft := avail/time.Duration(mtg) + inc*tmIncNum/tmIncDen
		hardCap := avail * tmHardCapNum / tmHardCapDen
		if lim.MovesToGo == 1 {
			hardCap = avail * tmLastMoveNum / tmLastMoveDen
		}
		hardCap = max(time.Duration(tmMinMillis)*time.Millisecond, hardCap)
		hard := min(soft*tmHardMul, hardCap)
		return budget{soft: min(soft, hard), hard: hard, overdue: overdueAt(hard, left), timed: true}
	}
	return budget{}
}

// overdueAt returns when a search with the hard limit hard, on a clock
// that runs out at end, is overdue: tmOverdueMillis after the hard limit, or
// sooner when the clock is short, so that the move played then still has
// time to reach the GUI; but when the clock allows, not sooner than
// tmOverdueMinMillis after it, so that a search that is merely slow to stop
// still answers itself (with Move Overhead 10, a movetime search is overdue
// when the movetime is up).
func overdueAt(hard, end time.Duration) time.Duration {
	left := max(0, end-hard)
	margin := min(time.Duration(tmOverdueMillis)*time.Millisecond, left/tmOverdueDiv)
	return hard + max(margin, min(time.Duration(tmOverdueMinMillis)*time.Millisecond, left))
}

// softStop tells whether to start no new iteration: the soft limit scaled
// by how often the best move changed and, from depth tmNodeShareDepth with
// one line at full strength (the top UCI_Elo settings included), by the best
// move's share of the root's nodes and by how far the score fell below its
// trend. A weakened search below full strength stops at the smallest of
// these scales (minSoftScale): it never starts a depth later than the full
// search could stop on the same clock.
func (p *Pool) softStop(w *worker) bool {
	if !p.timed || p.ponder.Load() || p.limits.MoveTime > 0 {
		return false
	}
	var scale float64
	switch {
	case p.weak.on && !p.weak.full():
		scale = minSoftScale()
	default:
		scale = tmStabilityMin + (tmStabilityMax-tmStabilityMin)*math.Min(1, w.bestChange)
		if p.nodeShareOn(w) {
			scale *= nodeShareScale(w.rootMoves) * fallScale(w)
		}
	}
	return float64(p.elapsed()) > float64(p.soft)*scale
}

// softNodesStop tells the main worker w whether Limits.SoftNodes are
// spent: its own exact count (published first) and the helpers' published
// ones.
func (p *Pool) softNodesStop(w *worker) bool {
	if p.limits.SoftNodes == 0 {
		return false
	}
	w.nodesPub.Store(w.nodes)
	return p.totalNodes() >= p.limits.SoftNodes
}

// minSoftScale is the smallest scale of the soft limit the full search
// uses: a stable best move that took all the root's nodes, with a rising
// score.
func minSoftScale() float64 {
	return tmStabilityMin * (tmNodeShareBase - 1) * tmNodeShareMul * tmFallMin
}

// nodeShareOn tells whether softStop also scales by the node share and the
// score's fall: from depth tmNodeShareDepth, with more than one root move,
// one line and the full search (a weakened plan keeps to its node budget).
func (p *Pool) nodeShareOn(w *worker) bool {
	return w.completed >= tmNodeShareDepth && len(w.rootMoves) > 1 && p.opts.MultiPV <= 1 &&
		(!p.weak.on || p.weak.full())
}

// nodeShareScale scales the soft limit by the best move's share of the
// nodes spent on the root moves: a move that took nearly all of them is
// unlikely to change, one that took few may still.
func nodeShareScale(rms []rootMove) float64 {
	var total uint64
	for i := range rms {
		total += rms[i].nodes
	}
	if total == 0 {
		return 1
	}
	share := float64(rms[0].nodes) / float64(total)
	return (tmNodeShareBase - share) * tmNodeShareMul
}

// fallScale scales the soft limit up when the score of the depth just
// completed fell below the trend of the earlier depths, and a little down
// when it rose.
func fallScale(w *worker) float64 {
	return min(tmFallMax, max(tmFallMin, 1+(w.scoreTrend-trendScore(w.completedScore))*tmFallPerCp))
}

// trendScore is a score as the score trend counts it: within ±tmTrendClamp.
func trendScore(score int) float64 {
	return float64(min(max(score, -tmTrendClamp), tmTrendClamp))
}

func (p *Pool) elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - p.startNanos.Load())
}

// checkLimits stops the search when the hard time limit is reached.
func (p *Pool) checkLimits() {
	if p.timed && !p.ponder.Load() && p.elapsed() >= p.hard {
		p.timeUp.Store(true)
	}
}

// shouldStop polls the shared stop flag and, on the main thread, the limits.
func (w *worker) shouldStop() bool {
	if w.stopped {
		return true
	}
	if w.nodes&tmCheckNodes == 0 {
		w.nodesPub.Store(w.nodes)
		if w.id == 0 {
			w.pool.checkLimits()
		}
		// With helpers, the node limit counts every thread's nodes; each
		// thread checks the sum when it publishes its own count.
		if lim := w.pool.limits.Nodes; lim > 0 && len(w.pool.workers) > 1 && w.pool.totalNodes() >= lim {
			w.pool.stop.Store(true)
		}
	}
	// Neither a stop nor the clock stops the main thread before depth 1 is
	// complete (a few hundred nodes at most): its move and report are then
	// a searched line's, however soon the stop comes. A machine too busy to
	// finish even that is answered for by Options.Overdue; only a node
	// limit (below) cuts depth 1 short.
	if (w.pool.stop.Load() || w.pool.timeUp.Load()) && (w.id != 0 || w.completed > 0) {
		w.stopped = true
	}
	if lim := w.pool.limits.Nodes; lim > 0 && w.id == 0 && w.nodes >= lim {
		w.pool.stop.Store(true)
		w.stopped = true
	}
	// A weakened search stops at its node budget once a depth is complete.
	if st := &w.pool.weak; st.on && w.nodes >= st.nodes && w.completed > 0 {
		w.pool.stop.Store(true)
		w.stopped = true
	}
	return w.stopped
}
