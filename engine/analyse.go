package engine

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
)

// The blocking analysis API: Analyse searches the current position and
// returns its result; Analysis does the same and yields the reports as they
// come. Both drive the same search as Go, with the same callbacks inside.

// Limits says when a search stops, as UCI's go command does: Depth, Nodes,
// Mate (a mate in that many moves found, or no other limit reached),
// MoveTime, the clocks (WTime, BTime, WInc, BInc, MovesToGo; Analyse and
// Analysis take a non-zero WTime or BTime as given, HasClock or not),
// SearchMoves. Zero values mean no limit; a search with no limit at all
// runs until it is stopped, as Infinite does. Infinite and Ponder hold the
// result until ctx is cancelled or Stop (or PonderHit) is called, even after
// a Depth or Nodes limit is reached, as UCI's go infinite holds bestmove.
// Start, PonderHit and WTimeGiven/BTimeGiven serve the UCI front end; a
// library caller leaves them zero.
type Limits = search.Limits

// Score is a search's value of its position, from the side to move's
// point of view, as UCI reports it ("score cp 35", "score mate -3",
// "wdl 210 760 30").
type Score struct {
	// CP is the score in centipawns, scaled so that +100 is a 50% chance
	// of winning at the position's material (eval.NormalizeCP); 0 when
	// IsMate.
	CP int
	// IsMate is set for a mate score; Mate then counts the moves to mate:
	// positive when the side to move mates, negative when it is mated,
	// 0 when it is checkmated now.
	IsMate bool
	Mate   int
	// WDL is the chance of a win, a draw and a loss for the side to move,
	// per mille (eval.WDL), adding up to 1000.
	WDL [3]int
}

// String writes s as UCI does: "cp 35" or "mate -3".
func (s Score) String() string {
	if s.IsMate {
		return "mate " + strconv.Itoa(s.Mate)
	}
	return "cp " + strconv.Itoa(s.CP)
}

// scoreOf converts a score in the search's units at the root's material.
func scoreOf(score, material int) Score {
	w, d, l := eval.WDL(score, material)
	s := Score{WDL: [3]int{w, d, l}}
	if eval.IsMate(score) {
		s.IsMate, s.Mate = true, eval.MateMoves(score)
	} else {
		s.CP = eval.NormalizeCP(score, material)
	}
	return s
}

// Info is one progress report of a search, one line of UCI's info: the
// best line found so far at a depth, for one of the MultiPV lines.
type Info struct {
	Depth    int // the depth the line's score comes from
	SelDepth int // the deepest ply reached
	MultiPV  int // the line's rank, 1 for the best
	Score    Score
	// A line searched outside its window gives a bound on its score:
	// LowerBound (a move that failed high: at least Score) or UpperBound
	// (at most Score). Neither: the score is exact.
	LowerBound, UpperBound bool
	Nodes                  uint64        // nodes searched so far, all threads
	NPS                    uint64        // nodes per second
	Time                   time.Duration // since the search began
	HashFull               int           // the transposition table's fill, per mille
	TBHits                 uint64        // tablebase probes
	PV                     []movegen.Move
}

// infoOf converts a report of the search.
func infoOf(i search.Info) Info {
	return Info{
		Depth: i.Depth, SelDepth: i.SelDepth, MultiPV: max(i.MultiPV, 1), Score: scoreOf(i.Score, i.Material),
		LowerBound: i.Bound == search.Lower, UpperBound: i.Bound == search.Upper,
		Nodes: i.Nodes, NPS: i.NPS, Time: i.Time, HashFull: i.HashFull, TBHits: i.TBHits, PV: i.PV,
	}
}

// Result is the outcome of Analyse, what UCI's bestmove answers and the
// last info lines before it.
type Result struct {
	// BestMove is the move to play: the first move of the best line last
	// reported, always legal. It is movegen.NoMove only when the position
	// has no legal move (Score then says checkmate, mate 0, or stalemate,
	// cp 0).
	BestMove movegen.Move
	// PonderMove is the expected reply, legal after BestMove, or
	// movegen.NoMove when none is known.
	PonderMove movegen.Move
	// Score is the search's exact value of the position: the best line's
	// score when it was searched to the end of its window, else the score
	// of the last depth completed.
	Score Score
	Depth int    // the last depth completed
	Nodes uint64 // nodes searched, all threads
	// Lines are the last report of each line, best first: one line, or as
	// many as the MultiPV option asks for (fewer when the position has
	// fewer moves, or when a node or time limit ended the search before
	// the first depth had searched them all). Lines[i].PV is the principal
	// variation of line i+1. A line's Depth may exceed Depth above when the
	// search stopped during the depth that line reports.
	Lines []Info
}

// errNegativeLimit refuses a limit below zero.
var errNegativeLimit = errors.New("engine: Depth, Mate, MovesToGo, MoveTime, the clocks and increments must not be negative")

// Analyse searches the current position (SetPosition) under lim with the
// current options and returns the result once the search ends: a limit is
// reached, ctx is cancelled, or Stop is called (a search on the clock that
// the machine holds up past its time answers at once, its threads ending
// later, as with Go). Cancelling ctx returns the
// best result found so far, with a nil error: depth 1 is always completed
// (it takes microseconds), so even a search cancelled at once answers with
// a searched move. With no limit (the zero Limits) only ctx or Stop ends
// the search.
//
// The error reports limits Analyse cannot search: a negative limit, or a
// SearchMoves move that is not legal in the position; and a nil ctx. An engine runs one
// search at a time: Analyse, Analysis and Go each stop the search already
// running, which then returns what it found. The transposition table and
// the move-ordering histories carry over from one search to the next, as
// in a game; NewGame clears them.
func (e *Engine) Analyse(ctx context.Context, lim Limits) (Result, error) {
	return e.analyse(ctx, lim, nil)
}

// Analysis is Analyse reporting as it goes: ranging over it runs the
// search and yields each report (one Info per MultiPV line, as UCI prints
// them), in order, on the ranging goroutine. The search does not wait for
// the loop's body (reports queue up meanwhile), and the body may call the
// engine's methods: one that starts another search or changes the game
// (Go, Analyse, SetPosition, NewGame) stops this one first. The loop ends
// when the search has ended and its reports are yielded; *res (unless res
// is nil) then holds Analyse's result. Leaving the loop early stops the
// search, as cancelling ctx does, and still sets *res. An error Analyse
// would return is yielded once, with a zero Info, and the loop ends.
func (e *Engine) Analysis(ctx context.Context, lim Limits, res *Result) iter.Seq2[Info, error] {
	return func(yield func(Info, error) bool) {
		if ctx == nil {
			yield(Info{}, errNilContext)
			return
		}
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		var (
			mu     sync.Mutex
			queue  []Info                   // reports not yet yielded
			notify = make(chan struct{}, 1) // a report was queued
		)
		type outcome struct {
			res Result
			err error
		}
		done := make(chan outcome, 1)
		go func() {
			r, err := e.analyse(ctx, lim, func(i Info) {
				mu.Lock()
				queue = append(queue, i)
				mu.Unlock()
				select {
				case notify <- struct{}{}:
				default:
				}
			})
			done <- outcome{r, err} // after every report was queued
		}()
		for {
			var o outcome
			ended := false
			select {
			case <-notify:
			case o = <-done:
				ended = true
			}
			mu.Lock()
			batch := queue
			queue = nil
			mu.Unlock()
			for _, i := range batch {
				if !yield(i, nil) {
					cancel()
					if !ended {
						o = <-done
					}
					if res != nil {
						*res = o.res
					}
					return
				}
			}
			if ended {
				if res != nil {
					*res = o.res
				}
				if o.err != nil {
					yield(Info{}, o.err)
				}
				return
			}
		}
	}
}

// errNilContext refuses a nil context, which the context package does not
// take.
var errNilContext = errors.New("engine: nil Context")

// analyse runs Analyse, calling onInfo (when not nil) with each report
// from the searching goroutine.
func (e *Engine) analyse(ctx context.Context, lim Limits, onInfo func(Info)) (Result, error) {
	if ctx == nil {
		return Result{}, errNilContext
	}
	if lim.Depth < 0 || lim.Mate < 0 || lim.MovesToGo < 0 || lim.MoveTime < 0 ||
		lim.WTime < 0 || lim.BTime < 0 || lim.WInc < 0 || lim.BInc < 0 {
		return Result{}, errNegativeLimit
	}
	if !lim.HasClock && (lim.WTime > 0 || lim.BTime > 0) {
		// The clocks given without HasClock: a library caller sets the
		// times alone, and would otherwise search without end.
		lim.HasClock = true
		lim.WTimeGiven, lim.BTimeGiven = lim.WTime > 0, lim.BTime > 0
	}
	var lines []Info // the reports since the last first line
	done := make(chan search.Result, 1)
	e.mu.Lock()
	if e.pos == nil {
		e.mu.Unlock()
		return Result{}, errZeroEngine
	}
	prev := e.readyLocked()
	for _, m := range lim.SearchMoves {
		if !e.pos.IsLegal(m) {
			e.mu.Unlock()
			return Result{}, fmt.Errorf("engine: search move %v is not legal in %s", m, e.pos.FEN(e.set.Chess960))
		}
	}
	material := eval.Material(e.pos)
	run := e.startLocked(ctx, prev, lim, func(si search.Info) {
		i := infoOf(si)
		if i.MultiPV == 1 {
			lines = lines[:0]
		}
		lines = append(lines, i)
		if onInfo != nil {
			onInfo(i)
		}
	}, func(r search.Result) { done <- r })
	e.mu.Unlock()
	r := <-done // after the last report: lines is the searching goroutine's no more
	if !run.rep.overdueSent() {
		<-run.done // ends at once: the engine is idle when Analyse returns
	}
	return Result{
		BestMove: r.BestMove, PonderMove: r.PonderMove, Score: scoreOf(r.Score, material),
		Depth: r.Depth, Nodes: r.Nodes, Lines: slices.Clone(lines),
	}, nil
}
