// Package search finds the best move: iterative deepening alpha-beta with a
// shared transposition table over a pool of Lazy SMP workers.
package search

import (
	"time"

	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/eval/syzygy"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// Limits says when a search stops. Zero values mean "no limit": a search
// with no limit at all runs until stopped or until it has nothing left to
// search (its maximum depth, a forced mate it has proven); Infinite (like
// "go infinite") waits for the stop even then. The clock fields count only
// with HasClock.
type Limits struct {
	Depth    int           // plies; 0 = none
	Nodes    uint64        // 0 = none
	Mate     int           // find a mate in this many moves; 0 = none
	MoveTime time.Duration // exact time for this move; 0 = none
	Infinite bool          // run until Stop, never report bestmove early
	Ponder   bool          // pondering: like Infinite until PonderHit, then on the clock
	// SoftNodes: start no new depth once this many nodes are searched (all
	// threads' together); the depth under way finishes unless Nodes or
	// another limit cuts it. A search that stops here ends on a completed
	// depth, so none of its nodes go to a depth it abandons (self-play
	// data: cmd/datagen --soft-nodes). 0 = none.
	SoftNodes uint64
	// PonderHit, when not nil, is closed on the ponderhit of a pondering
	// search: the same as calling Pool.PonderHit, but also when it comes
	// before Search has begun.
	PonderHit   <-chan struct{}
	WTime       time.Duration // clocks; HasClock tells whether any was given
	BTime       time.Duration
	WInc        time.Duration
	BInc        time.Duration
	HasClock    bool // wtime or btime was given
	MovesToGo   int
	SearchMoves []movegen.Move // restrict the root to these moves; empty = all
	// Start is when the GUI's go arrived; the clock of this move runs from
	// it, so that waiting for a previous search or resizing the table is
	// charged to the move. Zero (or a time in the future) means when Search
	// starts.
	Start time.Time

	// Which clocks were given, when HasClock is set; a caller that sets
	// neither gives both. When only the opponent's is given, the engine
	// budgets as if its own clock were the same.
	WTimeGiven, BTimeGiven bool
}

// The largest thread count and number of PV lines a search takes; larger
// values are clamped.
const (
	MaxThreads = 256
	MaxMultiPV = 256
)

// Options are the engine options the search reads.
type Options struct {
	Threads      int           // 1..MaxThreads
	MultiPV      int           // 1..MaxMultiPV
	MoveOverhead time.Duration // subtracted from every time budget
	// Syzygy tablebases (nil: none) and how to use them: the zero values
	// probe nothing (ProbeLimit 0) and count cursed wins and blessed losses
	// as wins and losses; UCI's defaults are ProbeLimit 7 (the tables' own
	// bound applies too), ProbeDepth 1, Rule50 true.
	Tablebases *syzygy.Tables
	ProbeDepth int  // least depth of a probe in the tree
	Rule50     bool // cursed wins and blessed losses count as draws
	ProbeLimit int  // most pieces probed (0 or 1: none)
	// Net is the evaluation network; nil selects the hand-written evaluation.
	Net *nnue.Net
	// Strength weakens the search (strength.go); the zero value is full
	// strength. A weakened search runs on one thread.
	Strength Strength
	// Overdue, when not nil, is called at most once, from another
	// goroutine, when a search under a clock or a move time is still
	// running a little after its hard limit: the machine is so busy that
	// the search threads did not get to stop and answer. The caller can
	// then play the best move reported so far, before the clock runs out;
	// Search still returns as usual, later.
	Overdue func()
}

// Bound tells whether a reported score is exact or a bound. It is the
// table's type: the zero value, tt.BoundNone, reads as exact.
type Bound = tt.Bound

// Score bounds of a reported line.
const (
	Exact = tt.BoundExact
	Lower = tt.BoundLower // fail high: the score is at least this
	Upper = tt.BoundUpper // fail low: the score is at most this
)

// Info is one progress report of the main thread (one per PV line).
type Info struct {
	Depth    int
	SelDepth int
	MultiPV  int // 1-based line number
	Score    int // the search's units, or a mate score (see eval.IsMate, eval.MateMoves)
	Bound    Bound
	WDL      [3]int // win/draw/loss per mille from the side to move's view (eval.WDL)
	// Material is the root's material count (eval.Material): with Score it
	// gives the reported centipawns, eval.NormalizeCP(Score, Material).
	Material int
	Nodes    uint64
	NPS      uint64
	Time     time.Duration
	HashFull int    // per mille
	TBHits   uint64 // tablebase probes
	PV       []movegen.Move
}

// Result is the outcome of a search: the best move and the expected reply
// (NoMove when unknown). BestMove is NoMove only when there is no move to
// search: no legal move, or none of Limits.SearchMoves legal. Score is the
// last exact score reported (a stopped depth's bound is not taken), with
// the tablebase result for a root the tables cover, as Info.Score.
type Result struct {
	BestMove   movegen.Move
	PonderMove movegen.Move
	Score      int
	Depth      int
	Nodes      uint64
}
