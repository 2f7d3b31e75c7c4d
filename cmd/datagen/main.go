// Command datagen plays fast self-play games with Kingrook's search and
// writes quiet positions labelled with the game result, one per line as
// `FEN [result]` (1.0 white won, 0.5 draw, 0.0 black won): the training data
// of the evaluation tuner in eval/tune.
//
//	go run ./cmd/datagen --games 2000 --nodes 6000 --out /tmp/data.epd
package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sync"

	"github.com/spf13/pflag"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// Adjudication and sampling settings.
const (
	randomPlies     = 8    // random moves after the start position
	maxOpeningScore = 300  // openings more unbalanced than this are dropped
	winScore        = 1500 // adjudicate a win after winPlies plies beyond this
	winPlies        = 6
	drawScore       = 15 // adjudicate a draw after drawPlies plies within this, past drawFromPly
	drawPlies       = 12
	drawFromPly     = 80
	maxGamePlies    = 400
	minSamplePly    = 12
	maxSampleScore  = 2000
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("datagen", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	games := fs.Int("games", 100, "number of games")
	nodes := fs.Uint64("nodes", 6000, "nodes per move")
	threads := fs.Int("concurrency", 2, "games played at once")
	seed := fs.Uint64("seed", 1, "random seed")
	frc := fs.Float64("frc", 0.5, "fraction of games from Double Fischer Random (DFRC) start positions")
	out := fs.String("out", "", "output file (default stdout)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 2
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := 0
	positions := 0
	for t := 0; t < max(1, *threads); t++ {
		wg.Add(1)
		go func(t int) {
			defer wg.Done()
			pool := search.NewPool(tt.New(8))
			for {
				mu.Lock()
				g := next
				next++
				mu.Unlock()
				if g >= *games {
					return
				}
				rng := rand.New(rand.NewPCG(*seed, uint64(g)))
				lines := playGame(pool, rng, *nodes, rng.Float64() < *frc)
				mu.Lock()
				for _, l := range lines {
					bw.WriteString(l)
					bw.WriteByte('\n')
				}
				positions += len(lines)
				if (g+1)%50 == 0 {
					fmt.Fprintf(stderr, "games %d positions %d\n", g+1, positions)
				}
				mu.Unlock()
			}
		}(t)
	}
	wg.Wait()
	fmt.Fprintf(stderr, "done: %d games, %d positions\n", *games, positions)
	return 0
}

// playGame plays one game and returns its sampled positions with the result.
func playGame(pool *search.Pool, rng *rand.Rand, nodes uint64, frc bool) []string {
	var pos movegen.Position
	for {
		fen := movegen.StartFEN
		if frc {
			fen, _ = movegen.DFRCFEN(rng.IntN(960), rng.IntN(960))
		}
		if err := pos.SetFEN(fen); err != nil {
			panic(err) // unreachable: generated FENs are valid
		}
		ok := true
		for i := 0; i < randomPlies && ok; i++ {
			var l movegen.MoveList
			pos.GenerateLegal(&l)
			if l.N == 0 {
				ok = false
				break
			}
			pos.Make(l.At(rng.IntN(l.N)))
		}
		if !ok || !pos.HasLegalMove() {
			continue
		}
		res := pool.Search(context.Background(), &pos, search.Limits{Depth: 6}, search.Options{Threads: 1, MultiPV: 1}, nil)
		if abs(res.Score) <= maxOpeningScore {
			break
		}
	}
	pool.NewGame()
	var samples []string
	result := 0.5
	winRun, drawRun := 0, 0
	for ply := 0; ; ply++ {
		if !pos.HasLegalMove() {
			if pos.InCheck() {
				result = float64(pos.SideToMove()) // side to move is mated: 0 if white
			}
			break
		}
		if pos.IsDrawByRule() || ply >= maxGamePlies {
			break
		}
		res := pool.Search(context.Background(), &pos, search.Limits{Nodes: nodes}, search.Options{Threads: 1, MultiPV: 1}, nil)
		score := res.Score
		whiteScore := score
		if pos.SideToMove() == movegen.Black {
			whiteScore = -score
		}
		if abs(score) >= winScore {
			winRun++
		} else {
			winRun = 0
		}
		if ply >= drawFromPly && abs(score) <= drawScore {
			drawRun++
		} else {
			drawRun = 0
		}
		if winRun >= winPlies {
			if whiteScore > 0 {
				result = 1
			} else {
				result = 0
			}
			break
		}
		if drawRun >= drawPlies {
			break
		}
		m := res.BestMove
		quiet := !pos.InCheck() && pos.CapturedType(m) == movegen.NoPieceType && !m.IsPromotion()
		if quiet && ply >= minSamplePly && abs(score) < maxSampleScore && !eval.IsMate(score) {
			samples = append(samples, pos.FEN(true))
		}
		pos.Make(m)
	}
	out := make([]string, len(samples))
	for i, s := range samples {
		out[i] = fmt.Sprintf("%s [%.1f]", s, result)
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
