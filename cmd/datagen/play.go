package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kingrook/kingrook/cmd/internal/cli"
	"github.com/kingrook/kingrook/cmd/internal/selfplay"
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// Adjudication and opening settings.
const (
	openingDepth    = 6    // the depth of the search that vets an opening
	maxOpeningScore = 300  // openings more unbalanced than this are redrawn
	winScore        = 1500 // adjudicate a win after winPlies plies beyond this
	winPlies        = 6
	drawScore       = 15 // adjudicate a draw after drawPlies plies within this, past drawFromPly
	drawPlies       = 12
	drawFromPly     = 80
	maxGamePlies    = 400
)

// manifestEvery is the longest a running file's manifest row goes without
// an update (it is also written at every progress line).
const manifestEvery = time.Minute

// Output formats.
const (
	formatBinary = "binary"
	formatText   = "text"
	formatEPD    = "epd"
)

// playConfig holds the settings of a self-play run.
type playConfig struct {
	games       int           // 0: no limit
	duration    time.Duration // 0: no limit
	nodes       uint64
	softNodes   uint64 // 0: none
	threads     int
	hash        int
	seed        uint64
	mix         movegen.VariantMix
	randomPlies int
	format      string
	out         string
	progress    time.Duration
	net         string         // --net: "" hand-written evaluation, "embedded" or a .nnue file
	netName     string         // the network's name, handWritten for none
	netSHA      string         // the SHA-256 of the network's bytes, noNet for none
	opts        search.Options // the searches' options, the network included
	seedSet     bool           // --seed was given
	manifest    string         // the manifest to keep up to date, "" for none
	build       string         // this binary's commit, "unknown" when not stamped
}

// gameFlags returns the settings that decide the games besides the seed
// and the network, as flags: a file's games all share them.
func (c *playConfig) gameFlags() string {
	soft := ""
	if c.softNodes > 0 {
		soft = fmt.Sprintf(" --soft-nodes %d", c.softNodes)
	}
	return fmt.Sprintf("--nodes %d%s --frc %g --dfrc %g --random-plies %d --hash %d", c.nodes, soft, c.mix.Chess960, c.mix.DFRC, c.randomPlies, c.hash)
}

// The net's name and SHA-256 recorded for the hand-written evaluation.
const (
	handWritten = "hand-written"
	noNet       = "none"
)

// The keys of the metadata that datagen writes before each run's games.
const (
	metaTool    = "tool"       // "datagen"
	metaBuild   = "build"      // the commit of the binary
	metaSeed    = "seed"       // the seed, decimal
	metaFirst   = "first_game" // the number of the run's first game (the count of the games before it)
	metaNet     = "net"        // the network's name, or handWritten
	metaNetSHA  = "net_sha256" // the SHA-256 of the network's bytes, or noNet
	metaFlags   = "flags"      // gameFlags
	metaStarted = "started"    // when the run started, UTC, RFC 3339
)

// parsePlay reads the flags of a self-play run.
func parsePlay(args []string, stdout, stderr io.Writer) (playConfig, int, bool) {
	var c playConfig
	fs := cli.SubFlags("datagen", "[flags]\n       datagen pgn --help\n       datagen export --help\n       datagen manifest --help", stderr)
	fs.IntVar(&c.games, "games", 100, "games to play (0: no limit; with --duration alone, no limit)")
	fs.DurationVar(&c.duration, "duration", 0, "stop starting games after this long, e.g. 2h (0: no limit)")
	fs.Uint64Var(&c.nodes, "nodes", 5000, "nodes searched per move")
	fs.Uint64Var(&c.softNodes, "soft-nodes", 0, "start no new depth after this many nodes, finishing the one under way unless --nodes cuts it: no nodes spent on a depth that is dropped (0: off)")
	fs.IntVar(&c.threads, "concurrency", 2, "games played at once (one search thread each)")
	fs.IntVar(&c.hash, "hash", 8, "transposition table per game thread, MiB")
	fs.Uint64Var(&c.seed, "seed", 1, "random seed: the same seed plays the same openings; one per file, never reused in a manifest; when not given, the seed recorded for --out, else the default")
	fs.Float64Var(&c.mix.Chess960, "frc", 1.0/3, "share of games from Chess960 starts (both sides the same arrangement)")
	fs.Float64Var(&c.mix.DFRC, "dfrc", 1.0/3, "share of games from Double Fischer Random starts")
	fs.IntVar(&c.randomPlies, "random-plies", 8, "random moves played after the start position")
	fs.StringVar(&c.format, "format", formatBinary, "output: binary (whole games), text (FEN | score | result) or epd (FEN [result])")
	fs.StringVar(&c.out, "out", "", "output file, appended to when it exists (default stdout)")
	fs.DurationVar(&c.progress, "progress", 10*time.Second, "interval of the progress lines on stderr")
	fs.StringVar(&c.net, "net", "", "evaluate with a network: \"embedded\" or a .nnue file (default: the hand-written evaluation)")
	fs.StringVar(&c.manifest, "manifest", "", "the manifest of binary --out files to keep up to date (default: manifest.tsv in --out's folder; \"none\": none)")
	if code, done := cli.Parse(fs, args, stdout, stderr); done {
		return c, code, true
	}
	c.seedSet = fs.Changed("seed")
	if !fs.Changed("games") && fs.Changed("duration") {
		c.games = 0
	}
	c.mix.Standard = 1 - c.mix.Chess960 - c.mix.DFRC
	bad := func(format string, args ...any) (playConfig, int, bool) {
		return c, fail(stderr, exitUsage, format, args...), true
	}
	switch {
	case fs.NArg() > 0:
		return bad("unexpected arguments %q", fs.Args())
	case c.games < 0 || c.duration < 0:
		return bad("--games and --duration must not be negative")
	case c.nodes == 0:
		return bad("--nodes must be at least 1")
	case c.softNodes > c.nodes:
		return bad("--soft-nodes %d exceeds --nodes %d, which would cut every depth first", c.softNodes, c.nodes)
	case c.threads < 1 || c.threads > 256:
		return bad("--concurrency %d out of range 1..256", c.threads)
	case c.hash < 1 || c.hash > 1<<16:
		return bad("--hash %d out of range 1..65536", c.hash)
	case c.mix.Chess960 < 0 || c.mix.DFRC < 0 || c.mix.Standard < -1e-9:
		return bad("--frc %g and --dfrc %g: each 0..1, together at most 1", c.mix.Chess960, c.mix.DFRC)
	case c.randomPlies < 0 || c.randomPlies > 100:
		return bad("--random-plies %d out of range 0..100", c.randomPlies)
	case c.format != formatBinary && c.format != formatText && c.format != formatEPD:
		return bad("--format %q: want binary, text or epd", c.format)
	case c.progress <= 0:
		return bad("--progress must be positive")
	case fs.Changed("manifest") && c.manifest != "none" && (c.format != formatBinary || c.out == ""):
		return bad("--manifest lists binary --out files only")
	}
	switch {
	case c.manifest == "none" || c.format != formatBinary || c.out == "":
		c.manifest = ""
	case c.manifest == "":
		c.manifest = filepath.Join(filepath.Dir(c.out), manifestName)
	}
	c.mix.Standard = max(0, c.mix.Standard)
	if err := c.mix.Validate(); err != nil { // NaN passes the range checks above
		return bad("--frc %g and --dfrc %g: %v", c.mix.Chess960, c.mix.DFRC, err)
	}
	c.opts = searchOptions
	c.netName, c.netSHA = handWritten, noNet
	switch c.net {
	case "":
	case "embedded":
		c.opts.Net = nnue.Default()
		c.netName, c.netSHA = nnue.EmbeddedName(), nnue.EmbeddedSHA256()
	default:
		data, err := os.ReadFile(c.net)
		if err != nil {
			return bad("--net: %v", err)
		}
		n, err := nnue.Load(bytes.NewReader(data))
		if err != nil {
			return bad("--net %s: %v", c.net, err)
		}
		sum := sha256.Sum256(data)
		c.opts.Net, c.netName, c.netSHA = n, filepath.Base(c.net), hex.EncodeToString(sum[:])
	}
	if c.build = commit; c.build == "" {
		c.build = cli.BuildCommit()
	}
	if c.build == "" {
		c.build = "unknown"
	}
	return c, exitOK, false
}

// meta returns the metadata of a run whose first game is first.
func (c *playConfig) meta(first int, start time.Time) selfplay.Meta {
	return selfplay.Meta{
		metaTool: "datagen", metaBuild: c.build, metaSeed: strconv.FormatUint(c.seed, 10), metaFirst: strconv.Itoa(first),
		metaNet: c.netName, metaNetSHA: c.netSHA, metaFlags: c.gameFlags(), metaStarted: start.UTC().Format(time.RFC3339),
	}
}

// sink receives the finished games.
type sink interface {
	// write stores a game and returns its counts: its positions are those
	// of selfplay.TrainingFilter.
	write(g *selfplay.Game) (selfplay.Counts, error)
	close() error
}

// textSink writes the training positions of games as lines.
type textSink struct {
	w   *bufio.Writer
	c   io.Closer // nil for stdout
	epd bool
}

func (s textSink) write(g *selfplay.Game) (selfplay.Counts, error) {
	n := int64(0)
	pos := g.Start.Clone()
	result := selfplay.ResultValue(g.Result)
	for i, p := range g.Plies {
		if selfplay.TrainingFilter.Keep(pos, p.Move, int(p.Score), i) {
			sample := selfplay.Sample{Pos: pos, Move: p.Move, Score: int(p.Score), Result: result, Ply: i}
			if s.epd {
				s.w.WriteString(sample.FEN() + " [" + strconv.FormatFloat(result, 'f', 1, 64) + "]\n")
			} else {
				s.w.WriteString(sample.Text() + "\n")
			}
			n++
		}
		pos.Make(p.Move)
	}
	return selfplay.Counts{Games: 1, Plies: int64(len(g.Plies)), Positions: n}, s.w.Flush()
}

func (s textSink) close() error {
	err := s.w.Flush()
	if s.c != nil {
		if cerr := s.c.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// openSink opens the output; it returns the number of games already in a
// binary file.
func openSink(ctx context.Context, c *playConfig, start time.Time, stdout io.Writer) (sink, int, error) {
	if c.format == formatBinary {
		if c.out != "" {
			return openBinary(ctx, c, start)
		}
		w, err := selfplay.NewWriter(stdout)
		if err == nil {
			err = w.SetMeta(c.meta(0, start))
		}
		return &binarySink{w: w}, 0, err
	}
	s := textSink{epd: c.format == formatEPD}
	if c.out == "" {
		s.w = bufio.NewWriter(stdout)
		return s, 0, nil
	}
	f, err := os.OpenFile(c.out, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return nil, 0, err
	}
	s.w, s.c = bufio.NewWriter(f), f
	return s, 0, nil
}

// stats are the counts of a run, guarded by the run's mutex.
type stats struct {
	games, positions, plies int
	searches                int
	nodes                   int64 // searched, the openings' checks included
	depthSum                int   // the labels' depths
	inexact                 int   // searches whose final score differs from the last exact one
	inexactSum              int   // the sum of those differences
	noExact                 int   // searches with no completed depth (final score used)
}

func (s *stats) add(o stats) {
	s.games += o.games
	s.positions += o.positions
	s.plies += o.plies
	s.searches += o.searches
	s.nodes += o.nodes
	s.depthSum += o.depthSum
	s.inexact += o.inexact
	s.inexactSum += o.inexactSum
	s.noExact += o.noExact
}

// runPlay plays self-play games.
func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, code, done := parsePlay(args, stdout, stderr)
	if done {
		return code
	}
	start := time.Now()
	out, first, err := openSink(ctx, &c, start, stdout)
	if ue := (*usageError)(nil); errors.As(err, &ue) {
		return fail(stderr, exitUsage, "%v", err)
	} else if err != nil {
		return fail(stderr, exitFailure, "%v", err)
	}
	if first > 0 {
		fmt.Fprintf(stderr, "datagen: %s holds %d games; appending games %d on of seed %d\n", c.out, first, first, c.seed)
	}
	bin, _ := out.(*binarySink)
	if bin != nil {
		for _, h := range bin.healed {
			fmt.Fprintf(stderr, "datagen: %s: %s\n", c.manifest, h)
		}
	}
	if bin != nil && bin.keep != nil {
		fmt.Fprintf(stderr, "datagen: %s: row of %s kept up to date (seed %d, net %s, %s)\n", c.manifest, bin.keep.row.file, c.seed, c.netName, c.gameFlags())
	}
	var mu sync.Mutex
	var total stats
	var writeErr error
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var next atomic.Int64
	next.Store(int64(first))
	var wg sync.WaitGroup
	for range c.threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			table := tt.New(c.hash)
			pool := search.NewPool(table)
			for ctx.Err() == nil {
				if c.duration > 0 && time.Since(start) >= c.duration {
					return
				}
				g := int(next.Add(1) - 1)
				if c.games > 0 && g >= first+c.games {
					return
				}
				rng := rand.New(rand.NewPCG(c.seed, uint64(g)))
				game, st := playGame(ctx, table, pool, rng, c)
				if game == nil {
					return // stopped: the game is dropped
				}
				mu.Lock()
				n, err := out.write(game)
				st.games, st.positions, st.plies = int(n.Games), int(n.Positions), int(n.Plies)
				total.add(st)
				if err != nil && writeErr == nil {
					writeErr = err
					cancel()
				}
				mu.Unlock()
			}
		}()
	}
	progressDone, progressExited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(progressExited)
		t := time.NewTicker(c.progress)
		defer t.Stop()
		// The row is written at every progress line and at least every
		// manifestEvery between them, so that a killed run leaves one
		// nearly current.
		rowTick := time.NewTicker(min(c.progress, manifestEvery))
		defer rowTick.Stop()
		updateRow := func() {
			if bin == nil || bin.keep == nil {
				return
			}
			mu.Lock()
			run, size := bin.state()
			mu.Unlock()
			if err := bin.keep.update(run, size); err != nil {
				fmt.Fprintf(stderr, "datagen: updating %s: %v\n", c.manifest, err)
			}
		}
		for {
			select {
			case <-progressDone:
				return
			case <-rowTick.C:
				updateRow()
			case <-t.C:
				mu.Lock()
				s := total
				mu.Unlock()
				report(stderr, "", s, time.Since(start))
				updateRow()
			}
		}
	}()
	wg.Wait()
	close(progressDone)
	<-progressExited // its manifest update, if any, comes before the last one
	interrupted := ctx.Err() != nil && writeErr == nil
	if err := out.close(); err != nil && writeErr == nil {
		writeErr = err
	}
	report(stderr, "done: ", total, time.Since(start))
	switch {
	case writeErr != nil:
		return fail(stderr, exitFailure, "writing: %v", writeErr)
	case interrupted:
		fmt.Fprintln(stderr, "datagen: stopped; the games under way were dropped, the file holds complete games only")
	}
	return exitOK
}

// report prints a progress line.
func report(w io.Writer, prefix string, s stats, el time.Duration) {
	perHour := 0.0
	if el > 0 {
		perHour = float64(s.positions) / el.Hours()
	}
	inexact, mean, nodes, depth := 0.0, 0.0, 0.0, 0.0
	if s.searches > 0 {
		inexact = 100 * float64(s.inexact) / float64(s.searches)
	}
	if s.searches > s.noExact {
		depth = float64(s.depthSum) / float64(s.searches-s.noExact)
	}
	if s.inexact > 0 {
		mean = float64(s.inexactSum) / float64(s.inexact)
	}
	if s.positions > 0 {
		nodes = float64(s.nodes) / float64(s.positions)
	}
	fmt.Fprintf(w, "%sgames %d, plies %d, positions %d (%.0f an hour, %.0f nodes each), %s; label depth %.2f; final score not the last completed depth's in %.0f%% of searches (mean %.0f cp), no completed depth in %d\n",
		prefix, s.games, s.plies, s.positions, perHour, nodes, el.Round(time.Second), depth, inexact, mean, s.noExact)
}

// searchOptions are the options of every datagen search before --net: one
// thread, one line.
var searchOptions = search.Options{Threads: 1, MultiPV: 1}

// playGame plays one game; it returns nil when ctx is cancelled first. The
// table and the histories are cleared first, so that a game depends on its
// seed and number only, not on the games played before it by this thread.
func playGame(ctx context.Context, table *tt.Table, pool *search.Pool, rng *rand.Rand, c playConfig) (*selfplay.Game, stats) {
	var st stats
	table.Clear()
	pool.NewGame()
	var pos movegen.Position
	for {
		if ctx.Err() != nil {
			return nil, st
		}
		if _, err := movegen.RandomOpening(&pos, c.mix, c.randomPlies, rng); err != nil {
			continue // every draw of moves ended the game (the mix is valid: parsePlay): draw another start
		}
		res := pool.Search(ctx, &pos, search.Limits{Depth: openingDepth}, c.opts, nil)
		st.nodes += int64(res.Nodes)
		if eval.Abs(res.Score) <= maxOpeningScore {
			break
		}
	}
	start := movegen.NewPosition()
	if err := start.SetFEN(pos.FEN(true)); err != nil {
		panic(err) // unreachable: the FEN of a legal position
	}
	pool.NewGame()
	game := &selfplay.Game{Start: start, Result: selfplay.Draw}
	winRun, drawRun := 0, 0
	for ply := 0; ; ply++ {
		if !pos.HasLegalMove() {
			if pos.InCheck() {
				game.Result = selfplay.WhiteWins
				if pos.SideToMove() == movegen.White {
					game.Result = selfplay.BlackWins
				}
			}
			break
		}
		if pos.IsGameDrawn() || ply >= maxGamePlies { // threefold, not the first repeat
			break
		}
		score, res := exactSearch(ctx, pool, &pos, search.Limits{Nodes: c.nodes, SoftNodes: c.softNodes}, c.opts, &st)
		if ctx.Err() != nil {
			return nil, st
		}
		whiteScore := score
		if pos.SideToMove() == movegen.Black {
			whiteScore = -score
		}
		if eval.Abs(score) >= winScore {
			winRun++
		} else {
			winRun = 0
		}
		if ply >= drawFromPly && eval.Abs(score) <= drawScore {
			drawRun++
		} else {
			drawRun = 0
		}
		if winRun >= winPlies {
			game.Result = selfplay.BlackWins
			if whiteScore > 0 {
				game.Result = selfplay.WhiteWins
			}
			break
		}
		if drawRun >= drawPlies {
			break
		}
		game.Plies = append(game.Plies, selfplay.Ply{Move: res.BestMove, Score: int16(whiteScore)})
		pos.Make(res.BestMove)
	}
	return game, st
}

// exactSearch searches pos to a node limit (lim) and returns the exact score of
// the last completed depth (side to move's view) with the search's result.
// Result.Score is exact but can come from the depth the node limit
// interrupted (its first move searched inside the window); the label is
// the last completed depth's, from the info callback, so that every label
// is a whole depth's score.
func exactSearch(ctx context.Context, pool *search.Pool, pos *movegen.Position, lim search.Limits, opts search.Options, st *stats) (int, search.Result) {
	// The exact score reported for each depth. The report after the stop
	// may carry the depth it cut short, for a line that depth finished.
	var exactAt [eval.MaxPly + 1]int
	var seen [eval.MaxPly + 1]bool
	onInfo := func(i search.Info) {
		if i.MultiPV == 1 && i.Bound == search.Exact && i.Depth >= 1 && i.Depth <= eval.MaxPly {
			exactAt[i.Depth], seen[i.Depth] = i.Score, true
		}
	}
	res := pool.Search(ctx, pos, lim, opts, onInfo)
	st.searches++
	st.nodes += int64(res.Nodes)
	// No completed depth (stopped before depth 1 was complete: the report
	// after the stop was all there was), or none reported exact.
	if res.Depth < 1 || res.Depth > eval.MaxPly || !seen[res.Depth] {
		st.noExact++
		return res.Score, res
	}
	exact := exactAt[res.Depth]
	st.depthSum += res.Depth
	if res.Score != exact {
		st.inexact++
		st.inexactSum += eval.Abs(res.Score - exact)
	}
	return exact, res
}
