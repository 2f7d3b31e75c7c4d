package engine

import (
	"slices"
	"sync"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// reply hands one search's reports to the front end: its infos, then
// exactly one result, and nothing after the result.
//
// The result is normally the search's own, sent when the search returns.
// When the search overruns its time (search.Options.Overdue: the machine is
// so busy that the search threads have not got to stop and answer), overdue
// sends at once, from the timer's goroutine, the first move of the last
// reported PV; whatever the search reports after that is dropped. Playing
// the move of the last complete report a little early costs little; losing
// on time costs the game.
type reply struct {
	mu       sync.Mutex // held while onInfo or onDone runs: nothing is reported after the result
	onInfo   func(search.Info)
	onDone   func(search.Result)
	sent     bool
	early    bool          // the result sent is overdue's pick: the search may still run
	answered chan struct{} // closed once the result is sent
	// The result overdue sends: the first two moves of the last reported
	// PV, checked legal (chooseMoves), with that line's score, depth and
	// nodes. Before the first report, the table's move for the root, or
	// quickMove's when the table has none.
	pick search.Result
	// reported tells whether a first line (a PV) was reported; material
	// and start serve the line send reports when none was.
	reported bool
	material int
	start    time.Time
}

// newReply returns the reply of a search of pos; table (nil when none) gives
// the move to play should the search be overdue before its first report,
// one of allowed when given (go searchmoves).
func newReply(pos *movegen.Position, table *tt.Table, allowed []movegen.Move, onInfo func(search.Info), onDone func(search.Result)) *reply {
	if onInfo == nil {
		onInfo = func(search.Info) {}
	}
	if onDone == nil {
		onDone = func(search.Result) {}
	}
	r := &reply{onInfo: onInfo, onDone: onDone, answered: make(chan struct{}), material: eval.Material(pos), start: time.Now()}
	if pos.HasLegalMove() {
		var first movegen.Move
		if table != nil {
			if e, ok := table.Probe(pos.Key()); ok {
				first = e.Move
			}
		}
		if !pos.IsLegal(first) || (len(allowed) > 0 && !slices.Contains(allowed, first)) {
			first = quickMove(pos, allowed)
		}
		r.pick.BestMove, r.pick.PonderMove = chooseMoves(pos, search.Result{BestMove: first}, nil)
		r.pick.Score = scoreAfter(pos, r.pick.BestMove)
	}
	return r
}

// scoreAfter returns the static evaluation of the position after m, from
// the side to move's view (mate in one, or 0 for a stalemate, when m ends
// the game). pos is left as it was.
func scoreAfter(pos *movegen.Position, m movegen.Move) int {
	pos.Make(m)
	defer pos.Unmake()
	switch {
	case pos.HasLegalMove():
		return -eval.Evaluate(pos)
	case pos.InCheck():
		return eval.MateIn(1)
	}
	return 0 // stalemate
}

// quickMove is the move overdue plays when the search is overdue before its
// first report and the table knows no move (a clock of a few milliseconds
// on a busy machine): a mate in one if there is one, else the move whose
// position the static evaluation likes best, not merely the first move
// generated; among allowed when given. pos has a legal move; it is left as
// it was.
func quickMove(pos *movegen.Position, allowed []movegen.Move) movegen.Move {
	var l movegen.MoveList
	pos.GenerateLegal(&l)
	best, bestScore := movegen.NoMove, 0
	for i := 0; i < l.N; i++ {
		m := l.At(i)
		if len(allowed) > 0 && !slices.Contains(allowed, m) {
			continue
		}
		score := scoreAfter(pos, m)
		if best == movegen.NoMove || score > bestScore {
			best, bestScore = m, score
		}
	}
	return best
}

// info reports i, unless the result was sent; a first line updates the
// pick. pos is the searched position (the search's goroutine owns it).
func (r *reply) info(i search.Info, pos *movegen.Position) {
	var best, ponder movegen.Move
	line := i.MultiPV <= 1 && len(i.PV) > 0
	if line {
		best, ponder = chooseMoves(pos, search.Result{}, i.PV)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sent {
		return
	}
	if line {
		r.pick = search.Result{BestMove: best, PonderMove: ponder, Score: i.Score, Depth: i.Depth, Nodes: i.Nodes}
		r.reported = true
	}
	r.onInfo(i)
}

// overdueSent tells whether the result sent was overdue's pick.
func (r *reply) overdueSent() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.early
}

// done sends the search's result, unless overdue sent one.
func (r *reply) done(res search.Result) {
	r.send(&res)
}

// overdue sends the pick as the result, unless the search's own was sent.
func (r *reply) overdue() {
	r.send(nil)
}

// send sends res (nil: the pick) unless a result was sent.
func (r *reply) send(res *search.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sent {
		return
	}
	r.sent = true
	if res == nil {
		res, r.early = &r.pick, true
	}
	if !r.reported && res.BestMove != movegen.NoMove {
		// The move comes from no reported line (a search stopped by its
		// limit or overdue before depth 1 was complete): report it first,
		// so that bestmove is the first move of the last PV, as always.
		r.onInfo(r.lineOf(*res))
	}
	r.onDone(*res)
	close(r.answered)
}

// lineOf returns the report of res's move as a line of its own: its depth
// (0 when depth 1 was not completed), score and nodes, and the PV of its
// best and ponder moves.
func (r *reply) lineOf(res search.Result) search.Info {
	pv := []movegen.Move{res.BestMove}
	if res.PonderMove != movegen.NoMove {
		pv = append(pv, res.PonderMove)
	}
	i := search.Info{Depth: res.Depth, SelDepth: res.Depth, MultiPV: 1, Score: res.Score, Material: r.material,
		Nodes: res.Nodes, Time: time.Since(r.start), PV: pv}
	i.WDL[0], i.WDL[1], i.WDL[2] = eval.WDL(res.Score, r.material)
	if i.Time > 0 {
		i.NPS = uint64(float64(res.Nodes) / i.Time.Seconds())
	}
	return i
}
