// Package bench runs Kingrook's fixed benchmark: a fixed-depth search of a
// fixed list of positions with one thread and a cleared table for each, so
// that the total node count is a signature of the search, identical on
// every run and machine. The last line printed is "<N> nodes <M> nps", the
// form OpenBench reads.
package bench

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// Defaults of Config.
const (
	DefaultDepth   = 13
	DefaultHash    = 16 // MiB
	DefaultThreads = 1
)

// Signature is the node count of the default run (every position, the
// defaults above, the embedded net): what `kingrook bench` prints, a
// fingerprint of the search and the net. A change that alters it says
// "Bench: N" in its commit message; TestSignature asserts it.
const Signature = 3730506

// Config says how to run the benchmark. Zero fields take the defaults.
type Config struct {
	Depth     int           // plies per position, when neither Nodes nor MoveTime is set (0 or less: DefaultDepth)
	Nodes     uint64        // nodes per position instead of a depth
	MoveTime  time.Duration // time per position instead of a depth (not deterministic)
	Hash      int           // MiB
	Threads   int           // more than one makes the node count vary
	Positions []string      // FENs; nil means Positions()
	Verbose   bool          // print a line per position
	Net       *nnue.Net     // the evaluation network; nil: the hand-written evaluation
}

// Result sums up a run.
type Result struct {
	Positions int
	Nodes     uint64
	Elapsed   time.Duration
	NPS       uint64
	Errors    int // positions skipped because their FEN was rejected
}

// Run searches every position to the configured depth and prints the
// totals to out (nil: nowhere), "<N> nodes <M> nps" last.
func Run(cfg Config, out io.Writer) Result {
	if out == nil {
		out = io.Discard
	}
	cfg = withDefaults(cfg)
	table := tt.New(cfg.Hash)
	pool := search.NewPool(table)
	opt := search.Options{Threads: cfg.Threads, MultiPV: 1, Net: cfg.Net}
	var res Result
	start := time.Now()
	for i, fen := range cfg.Positions {
		pos := movegen.NewPosition()
		if err := pos.SetFEN(fen); err != nil {
			res.Errors++
			fmt.Fprintf(out, "position %d: %v\n", i+1, err)
			continue
		}
		table.Clear()
		pool.NewGame()
		t0 := time.Now()
		// Result.Nodes is exact: every thread publishes its final count
		// before Search returns.
		r := pool.Search(context.Background(), pos, cfg.limits(), opt, nil)
		res.Positions++
		res.Nodes += r.Nodes
		if cfg.Verbose {
			fmt.Fprintf(out, "position %2d/%d: bestmove %-5s score %6d  %9d nodes  %6d ms  %s\n",
				i+1, len(cfg.Positions), r.BestMove.UCI(true), r.Score, r.Nodes,
				time.Since(t0).Milliseconds(), fen)
		}
	}
	res.Elapsed = time.Since(start)
	if s := res.Elapsed.Seconds(); s > 0 {
		res.NPS = uint64(float64(res.Nodes) / s)
	}
	fmt.Fprintf(out, "Positions: %d, %s, hash %d MiB, threads %d\n", res.Positions, cfg.limitText(), cfg.Hash, cfg.Threads)
	fmt.Fprintf(out, "Total time (ms): %d\n", res.Elapsed.Milliseconds())
	fmt.Fprintf(out, "%d nodes %d nps\n", res.Nodes, res.NPS)
	return res
}

// limits is the search limit of each position.
func (cfg Config) limits() search.Limits {
	switch {
	case cfg.Nodes > 0:
		return search.Limits{Nodes: cfg.Nodes}
	case cfg.MoveTime > 0:
		return search.Limits{MoveTime: cfg.MoveTime}
	}
	return search.Limits{Depth: cfg.Depth}
}

func (cfg Config) limitText() string {
	switch {
	case cfg.Nodes > 0:
		return fmt.Sprintf("nodes %d", cfg.Nodes)
	case cfg.MoveTime > 0:
		return fmt.Sprintf("movetime %d ms", cfg.MoveTime.Milliseconds())
	}
	return fmt.Sprintf("depth %d", cfg.Depth)
}

func withDefaults(cfg Config) Config {
	if cfg.Depth <= 0 {
		cfg.Depth = DefaultDepth
	}
	if cfg.Hash <= 0 {
		cfg.Hash = DefaultHash
	}
	if cfg.Threads <= 0 {
		cfg.Threads = DefaultThreads
	}
	if cfg.Positions == nil {
		cfg.Positions = Positions()
	}
	return cfg
}
