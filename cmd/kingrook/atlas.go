package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kingrook/kingrook/bench"
	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// The atlas: every Chess960 start position searched to a fixed node count,
// one CSV row each (see atlasHelp).

// atlasFormat is the version of the atlas file layout, in its settings line.
const atlasFormat = 1

// Defaults and limits of the atlas flags.
const (
	atlasDefaultNodes     = 1_000_000
	atlasDefaultGameNodes = 10_000
	atlasDefaultHash      = 16 // MiB
	atlasMaxGames         = 10_000
)

// Self-play games of --games.
const (
	gameOpeningPlies    = 8   // plies in which the move is drawn among near-equal ones
	gameOpeningMultiPV  = 4   // lines searched in those plies
	gameNearEqual       = 15  // a line within this of the best (search units) may be drawn
	gameNodeJitter      = 0.1 // each search's nodes vary by up to this fraction either way
	gameWinChance       = 990 // adjudicate a win after gameWinPlies plies at this win chance (per mille)
	gameWinPlies        = 8
	gameDrawScore       = 10 // adjudicate a draw after gameDrawPlies plies within this, from gameDrawFromPly
	gameDrawPlies       = 20
	gameDrawFromPly     = 100
	gameMaxPlies        = 400 // then a draw
	atlasSignatureDepth = 9   // the depth of the search signature (see searchSignature)
	atlasSignatureFENs  = 4   // of the first bench positions
)

const atlasHelp = `Searches the 960 Chess960 start positions, numbered as kingrook frc N numbers them
(518 is standard chess), each to a fixed node count with a cleared hash table, and
writes one CSV row per position:

  number,fen,cp,win,draw,loss,score,bestmove,depth,nodes,pv[,games,white_score]

cp is White's score in centipawns of the win/draw/loss model (eval/wdl.go: +100 is a
50% chance of winning), win/draw/loss White's chances per mille, score the search's own
units, bestmove and pv in Chess960 notation (castling as king takes rook), depth the
last completed depth. With --games K, K self-play games are played from each position
(--game-nodes per move, varied by --seed: the first plies are drawn among near-equal
moves, and every search's node count varies by up to 10%), adding games and White's
mean score (1 a win, 0.5 a draw). With one thread the rows are deterministic.

The first line of the file is a comment holding the settings,
  # kingrook atlas format=1 nodes=... threads=... hash=... net=NAME:HASH games=... ...
(HASH: the first 12 hex digits of the net's SHA-256; search=N: the node count of a
small fixed-depth search, which changes with the engine). Skip it when reading:
pandas.read_csv(f, comment='#'), or grep -v '^#'. An existing --out file is
resumed: its rows are kept and their positions skipped, a partial last row is cut
off. A file written with other settings (any but version) is refused.
SIGINT or SIGTERM stops at once and leaves complete rows only; run the same
command again to go on. Progress goes to stderr, with a summary at the end.
--svg draws White's score of every position in the file, sorted, with the
standard start and the 10 most and least balanced positions labelled.

Flags:
`

// atlasConfig holds the settings of an atlas run.
type atlasConfig struct {
	nodes     uint64
	threads   int
	hash      int
	games     int
	gameNodes uint64
	seed      uint64
	from, to  int
	out, svg  string
	net       *nnue.Net // nil: the hand-written evaluation
	netID     string    // NAME:SHA256 prefix, or "none"
}

// atlasRow is one position's result.
type atlasRow struct {
	number          int
	fen             string
	cp              int // White's view, normalised (eval.NormalizeCP)
	win, draw, loss int // White's view, per mille
	score           int // White's view, search units
	bestmove        string
	depth           int
	nodes           uint64
	pv              string
	games           int
	whiteScore      float64 // mean over the games, 0..1
	arrangement     string  // White's back rank, e.g. RNBQKBNR (not a column)
}

// runAtlas runs the atlas command; SIGINT and SIGTERM stop it.
func runAtlas(g globals, args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return atlasMain(ctx, g, args, stdout, stderr)
}

// atlasMain is runAtlas with the context that stops it.
func atlasMain(ctx context.Context, g globals, args []string, stdout, stderr io.Writer) int {
	c, code, done := parseAtlas(g, args, stdout, stderr)
	if done {
		return code
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "kingrook atlas: "+format+"\n", a...)
		return code
	}
	settings := c.settings(searchSignature(c))
	rows := map[int]atlasRow{}
	var out io.Writer = stdout
	var sync func() error
	if c.out == "" {
		if _, err := io.WriteString(stdout, settings+"\n"+strings.Join(atlasHeader(c.games > 0), ",")+"\n"); err != nil {
			return fail(exitFailure, "%v", err)
		}
	} else {
		f, kept, err := openAtlas(c.out, settings, c.games > 0)
		var mismatch *settingsError
		switch {
		case errors.As(err, &mismatch):
			return fail(exitUsage, "%s: %v; give another --out, or the file's settings to resume it", c.out, err)
		case err != nil:
			return fail(exitFailure, "%v", err)
		}
		defer f.Close()
		rows, out, sync = kept, f, f.Sync
		if len(kept) > 0 {
			fmt.Fprintf(stderr, "kingrook atlas: %s holds %d positions; resuming\n", c.out, len(kept))
		}
	}
	table := tt.New(c.hash)
	pool := search.NewPool(table)
	opts := search.Options{Threads: c.threads, MultiPV: 1, Net: c.net}
	total, done0 := c.to-c.from+1, 0
	for n := c.from; n <= c.to; n++ {
		if _, ok := rows[n]; ok {
			done0++
		}
	}
	start, searched := time.Now(), 0
	for n := c.from; n <= c.to && ctx.Err() == nil; n++ {
		if _, ok := rows[n]; ok {
			continue
		}
		row, ok := atlasPosition(ctx, pool, table, opts, c, n)
		if !ok {
			break // stopped: the position under way is dropped
		}
		if err := writeRow(out, sync, row, c.games > 0); err != nil {
			return fail(exitFailure, "writing: %v", err)
		}
		rows[n] = row
		searched++
		el := time.Since(start)
		rate := float64(searched) / max(el.Seconds(), 1e-9)
		left := time.Duration(float64(total-done0-searched) / rate * float64(time.Second))
		fmt.Fprintf(stderr, "atlas: %d/%d  #%d %s cp %+d depth %d  %.2f positions/s  %s left\n",
			done0+searched, total, n, row.arrangement, row.cp, row.depth, rate, left.Round(time.Second))
	}
	if ctx.Err() != nil {
		fmt.Fprintf(stderr, "kingrook atlas: stopped after %d positions; the output holds complete rows only; run the same command to resume\n", searched)
	}
	summarize(stderr, rows, time.Since(start), searched)
	if c.svg != "" && len(rows) > 0 {
		if err := os.WriteFile(c.svg, []byte(atlasSVG(rows, c)), 0o644); err != nil {
			return fail(exitFailure, "--svg: %v", err)
		}
	}
	if ctx.Err() != nil {
		return exitFailure
	}
	return exitOK
}

// parseAtlas reads the flags; done reports that atlasMain should return
// code.
func parseAtlas(g globals, args []string, stdout, stderr io.Writer) (c atlasConfig, code int, done bool) {
	fs := subFlags("atlas", "[--nodes N] [--threads T] [--hash MB] [--out FILE.csv] [--svg FILE.svg] [--games K]", stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: kingrook atlas [--nodes N] [--threads T] [--hash MB] [--out FILE.csv] [--svg FILE.svg] [--games K]\n\n%s%s",
			atlasHelp, fs.FlagUsages())
	}
	fs.Uint64Var(&c.nodes, "nodes", atlasDefaultNodes, "nodes searched per position")
	fs.IntVar(&c.threads, "threads", 1, "search threads (more than one makes the results vary from run to run)")
	fs.IntVar(&c.hash, "hash", atlasDefaultHash, "transposition table size in MiB")
	fs.StringVar(&c.out, "out", "", "CSV file, resumed when it exists (default: stdout)")
	fs.StringVar(&c.svg, "svg", "", "also draw the chart of White's score to this SVG file")
	fs.IntVar(&c.games, "games", 0, "self-play games per position")
	fs.Uint64Var(&c.gameNodes, "game-nodes", atlasDefaultGameNodes, "nodes per move in the games (varied by up to 10%)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the games' variation")
	fs.IntVar(&c.from, "from", 0, "first position number")
	fs.IntVar(&c.to, "to", chess960Count-1, "last position number")
	useNet := fs.Bool("nnue", engine.DefaultSettings().UseNNUE, "evaluate with the network (false: the hand-written evaluation)")
	evalFile := fs.String("evalfile", "", "network file to evaluate with (implies --nnue; default: the embedded net)")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return c, code, true
	}
	if !fs.Changed("hash") && g.set["hash"] {
		c.hash = g.hash
	}
	if !fs.Changed("threads") && g.set["threads"] {
		c.threads = g.threads
	}
	bad := func(format string, a ...any) (atlasConfig, int, bool) {
		fmt.Fprintf(stderr, "kingrook atlas: "+format+"\n", a...)
		return c, exitUsage, true
	}
	switch {
	case fs.NArg() > 0:
		return bad("unexpected arguments %q", fs.Args())
	case c.nodes < 1:
		return bad("--nodes must be at least 1")
	case engine.ValidateOption("Threads", strconv.Itoa(c.threads)) != nil:
		return bad("--threads: %v", engine.ValidateOption("Threads", strconv.Itoa(c.threads)))
	case engine.ValidateOption("Hash", strconv.Itoa(c.hash)) != nil:
		return bad("--hash: %v", engine.ValidateOption("Hash", strconv.Itoa(c.hash)))
	case c.games < 0 || c.games > atlasMaxGames:
		return bad("--games %d out of range 0..%d", c.games, atlasMaxGames)
	case c.gameNodes < 1:
		return bad("--game-nodes must be at least 1")
	case c.from < 0 || c.to >= chess960Count || c.from > c.to:
		return bad("--from %d --to %d: want 0 <= from <= to <= %d", c.from, c.to, chess960Count-1)
	case c.out != "" && c.out == c.svg:
		return bad("--out and --svg name the same file")
	}
	c.netID = "none"
	switch {
	case *evalFile != "":
		n, err := nnue.LoadFile(*evalFile)
		if err != nil {
			return bad("--evalfile: %v", err)
		}
		c.net, c.netID = n, filepath.Base(*evalFile)
	case *useNet:
		c.net, c.netID = nnue.Default(), "embedded"
	}
	if c.net != nil {
		h := sha256.New()
		if err := c.net.Write(h); err != nil {
			return bad("the network: %v", err)
		}
		c.netID += ":" + hex.EncodeToString(h.Sum(nil))[:12]
	}
	if c.games == 0 {
		c.gameNodes, c.seed = 0, 0 // not used, so never a reason to refuse a file
	}
	return c, exitOK, false
}

// searchSignature is the node count of a fixed depth-limited search of the
// first bench positions with this evaluation: it changes when the search or
// the evaluation does, so that a file is not resumed by a different engine.
func searchSignature(c atlasConfig) uint64 {
	res := bench.Run(bench.Config{Depth: atlasSignatureDepth, Hash: atlasDefaultHash, Threads: 1,
		Positions: bench.Positions()[:atlasSignatureFENs], Net: c.net}, io.Discard)
	return res.Nodes
}

// settings returns the settings line of the file. Every field but version
// must match for a file to be resumed.
func (c atlasConfig) settings(signature uint64) string {
	return fmt.Sprintf("# kingrook atlas format=%d nodes=%d threads=%d hash=%d net=%s games=%d game-nodes=%d seed=%d search=%d version=%s",
		atlasFormat, c.nodes, c.threads, c.hash, c.netID, c.games, c.gameNodes, c.seed, signature, versionString())
}

// settingsError names the first setting in which a file differs.
type settingsError struct{ key, file, run string }

func (e *settingsError) Error() string {
	if e.key == "" {
		return fmt.Sprintf("not an atlas file (first line %q)", e.file)
	}
	return fmt.Sprintf("written with %s=%s, this run has %s=%s", e.key, e.file, e.key, e.run)
}

// compareSettings returns a *settingsError when the settings lines differ
// in anything but the version.
func compareSettings(file, run string) error {
	const prefix = "# kingrook atlas "
	if !strings.HasPrefix(file, prefix) {
		return &settingsError{file: file}
	}
	parse := func(s string) (map[string]string, []string) {
		m := map[string]string{}
		var keys []string
		for _, f := range strings.Fields(strings.TrimPrefix(s, prefix)) {
			k, v, _ := strings.Cut(f, "=")
			m[k] = v
			keys = append(keys, k)
		}
		return m, keys
	}
	fm, _ := parse(file)
	rm, keys := parse(run)
	for _, k := range keys {
		if k != "version" && fm[k] != rm[k] {
			if k == "net" { // name:hash; a net under another name is the same net
				_, fh, _ := strings.Cut(fm[k], ":")
				_, rh, _ := strings.Cut(rm[k], ":")
				if fh == rh && fh != "" {
					continue
				}
			}
			return &settingsError{key: k, file: fm[k], run: rm[k]}
		}
	}
	return nil
}

// atlasHeader returns the CSV columns.
func atlasHeader(games bool) []string {
	h := []string{"number", "fen", "cp", "win", "draw", "loss", "score", "bestmove", "depth", "nodes", "pv"}
	if games {
		h = append(h, "games", "white_score")
	}
	return h
}

// openAtlas opens the output file for appending: a new (or empty) file gets
// the settings line and the header; an existing one must have the same
// settings, its rows are returned, and a partial last row is cut off.
func openAtlas(path, settings string, games bool) (*os.File, map[int]atlasRow, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	header := strings.Join(atlasHeader(games), ",")
	rows := map[int]atlasRow{}
	if len(data) == 0 {
		if _, err := f.WriteString(settings + "\n" + header + "\n"); err != nil {
			f.Close()
			return nil, nil, err
		}
		return f, rows, f.Sync()
	}
	end := bytes.LastIndexByte(data, '\n') + 1 // after the last complete line
	lines := strings.Split(string(data[:end]), "\n")
	if end == 0 || len(lines) < 3 {
		f.Close()
		first, _, _ := strings.Cut(string(data), "\n")
		if strings.HasPrefix(first, "# kingrook atlas ") {
			return nil, nil, fmt.Errorf("%s: no header line: not a complete atlas file", path)
		}
		return nil, nil, &settingsError{file: first}
	}
	if err := compareSettings(lines[0], settings); err != nil {
		f.Close()
		return nil, nil, err
	}
	if lines[1] != header {
		f.Close()
		return nil, nil, fmt.Errorf("%s: header %q, want %q", path, lines[1], header)
	}
	r := csv.NewReader(strings.NewReader(strings.Join(lines[2:], "\n")))
	r.FieldsPerRecord = len(atlasHeader(games))
	for line := 3; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		var row atlasRow
		if err == nil {
			row, err = parseRow(rec, games)
		}
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: line %d: %v", path, line, err)
		}
		rows[row.number] = row
	}
	if end < len(data) { // a row cut short by a killed process
		if err := f.Truncate(int64(end)); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	if _, err := f.Seek(int64(end), io.SeekStart); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, rows, nil
}

// parseRow reads a CSV record.
func parseRow(rec []string, games bool) (atlasRow, error) {
	var row atlasRow
	var err error
	num := func(s string) int {
		n, e := strconv.Atoi(s)
		if e != nil && err == nil {
			err = e
		}
		return n
	}
	row.number = num(rec[0])
	row.fen = rec[1]
	row.cp, row.win, row.draw, row.loss, row.score = num(rec[2]), num(rec[3]), num(rec[4]), num(rec[5]), num(rec[6])
	row.bestmove = rec[7]
	row.depth = num(rec[8])
	row.nodes = uint64(num(rec[9]))
	row.pv = rec[10]
	if games {
		row.games = num(rec[11])
		if row.whiteScore, err = strconv.ParseFloat(rec[12], 64); err != nil {
			return row, err
		}
	}
	if err != nil {
		return row, err
	}
	if row.number < 0 || row.number >= chess960Count {
		return row, fmt.Errorf("position number %d out of range", row.number)
	}
	if want, _ := movegen.Chess960FEN(row.number); row.fen != want {
		return row, fmt.Errorf("position %d: FEN %q, want %q", row.number, row.fen, want)
	}
	row.arrangement = arrangement(row.fen)
	return row, nil
}

// writeRow writes one row in a single write and syncs it to disk, so that a
// stopped run leaves whole rows only.
func writeRow(w io.Writer, sync func() error, row atlasRow, games bool) error {
	rec := []string{strconv.Itoa(row.number), row.fen, strconv.Itoa(row.cp), strconv.Itoa(row.win),
		strconv.Itoa(row.draw), strconv.Itoa(row.loss), strconv.Itoa(row.score), row.bestmove,
		strconv.Itoa(row.depth), strconv.FormatUint(row.nodes, 10), row.pv}
	if games {
		rec = append(rec, strconv.Itoa(row.games), strconv.FormatFloat(row.whiteScore, 'f', 4, 64))
	}
	var buf bytes.Buffer
	cw := csv.NewWriter(&buf)
	cw.Write(rec)
	cw.Flush()
	if _, err := w.Write(buf.Bytes()); err != nil {
		return err
	}
	if sync != nil {
		return sync()
	}
	return nil
}

// arrangement returns White's back rank of a start position's FEN.
func arrangement(fen string) string {
	placement, _, _ := strings.Cut(fen, " ")
	return placement[strings.LastIndexByte(placement, '/')+1:]
}

// atlasPosition searches start position n (and plays its games); ok is
// false when ctx was cancelled first.
func atlasPosition(ctx context.Context, pool *search.Pool, table *tt.Table, opts search.Options, c atlasConfig, n int) (atlasRow, bool) {
	fen, err := movegen.Chess960FEN(n)
	if err != nil {
		panic(err) // unreachable: n is in range
	}
	pos := movegen.NewPosition()
	if err := pos.SetFEN(fen); err != nil {
		panic(err) // unreachable: movegen's own FEN
	}
	table.Clear()
	pool.NewGame()
	var last search.Info
	res := pool.Search(ctx, pos, search.Limits{Nodes: c.nodes}, opts, func(i search.Info) {
		if i.MultiPV <= 1 {
			last = i
		}
	})
	if ctx.Err() != nil {
		return atlasRow{}, false
	}
	score := res.Score
	if pos.SideToMove() == movegen.Black {
		score = -score
	}
	material := eval.Material(pos)
	row := atlasRow{number: n, fen: fen, score: score, cp: eval.NormalizeCP(score, material),
		bestmove: res.BestMove.UCI(true), depth: res.Depth, nodes: res.Nodes, arrangement: arrangement(fen)}
	row.win, row.draw, row.loss = eval.WDL(score, material)
	pv := make([]string, len(last.PV))
	for i, m := range last.PV {
		pv[i] = m.UCI(true)
	}
	row.pv = strings.Join(pv, " ")
	if c.games > 0 {
		sum := 0.0
		for g := range c.games {
			rng := rand.New(rand.NewPCG(c.seed, uint64(n)<<32|uint64(g)))
			r, _, ok := playAtlasGame(ctx, pool, table, opts, pos, c.gameNodes, rng)
			if !ok {
				return atlasRow{}, false
			}
			sum += r
		}
		row.games, row.whiteScore = c.games, sum/float64(c.games)
	}
	return row, true
}

// playAtlasGame plays one self-play game from start and returns White's
// score (1, 0.5 or 0) and the moves; ok is false when ctx was cancelled
// first. The table and histories are cleared first, so that a game depends
// on its seed only.
func playAtlasGame(ctx context.Context, pool *search.Pool, table *tt.Table, opts search.Options,
	start *movegen.Position, nodes uint64, rng *rand.Rand) (result float64, moves []movegen.Move, ok bool) {
	table.Clear()
	pool.NewGame()
	pos := start.Clone()
	winRun, drawRun := 0, 0
	for ply := 0; ; ply++ {
		if !pos.HasLegalMove() {
			switch {
			case !pos.InCheck():
				return 0.5, moves, true // stalemate
			case pos.SideToMove() == movegen.White:
				return 0, moves, true
			}
			return 1, moves, true
		}
		if pos.IsGameDrawn() || ply >= gameMaxPlies { // 50 moves, threefold, insufficient material
			return 0.5, moves, true
		}
		o := opts
		if ply < gameOpeningPlies {
			o.MultiPV = gameOpeningMultiPV
		}
		lines := make([]search.Info, 0, gameOpeningMultiPV)
		jitter := 1 + gameNodeJitter*(2*rng.Float64()-1)
		lim := search.Limits{Nodes: max(1, uint64(float64(nodes)*jitter))}
		res := pool.Search(ctx, pos, lim, o, func(i search.Info) {
			k := max(i.MultiPV, 1) - 1
			for len(lines) <= k {
				lines = append(lines, search.Info{})
			}
			lines[k] = i
		})
		if ctx.Err() != nil {
			return 0, nil, false
		}
		move, score := res.BestMove, res.Score
		if ply < gameOpeningPlies {
			// Draw among the lines within gameNearEqual of the best.
			var near []search.Info
			for _, l := range lines {
				if len(l.PV) > 0 && l.Bound == search.Exact && l.Score >= lines[0].Score-gameNearEqual {
					near = append(near, l)
				}
			}
			if len(near) > 0 {
				pick := near[rng.IntN(len(near))]
				move, score = pick.PV[0], pick.Score
			}
		}
		if pos.SideToMove() == movegen.Black {
			score = -score
		}
		w, _, l := eval.WDL(score, eval.Material(pos)) // White's view
		switch {
		case w >= gameWinChance && winRun >= 0:
			winRun++
		case l >= gameWinChance && winRun <= 0:
			winRun--
		default:
			winRun = 0
		}
		if winRun >= gameWinPlies {
			return 1, moves, true
		}
		if winRun <= -gameWinPlies {
			return 0, moves, true
		}
		if ply >= gameDrawFromPly && eval.Abs(score) <= gameDrawScore {
			drawRun++
			if drawRun >= gameDrawPlies {
				return 0.5, moves, true
			}
		} else {
			drawRun = 0
		}
		moves = append(moves, move)
		pos.Make(move)
	}
}

// stats returns the mean and standard deviation of the rows' cp.
func stats(rows []atlasRow) (mean, sd float64) {
	for _, r := range rows {
		mean += float64(r.cp)
	}
	mean /= float64(len(rows))
	for _, r := range rows {
		sd += (float64(r.cp) - mean) * (float64(r.cp) - mean)
	}
	return mean, math.Sqrt(sd / float64(len(rows)))
}

// sortedRows returns the rows by cp, lowest first (ties by number).
func sortedRows(rows map[int]atlasRow) []atlasRow {
	out := make([]atlasRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b atlasRow) int {
		if a.cp != b.cp {
			return a.cp - b.cp
		}
		return a.number - b.number
	})
	return out
}

// byBalance returns the rows by |cp|, most balanced first (ties by number).
func byBalance(rows map[int]atlasRow) []atlasRow {
	out := sortedRows(rows)
	slices.SortStableFunc(out, func(a, b atlasRow) int {
		if eval.Abs(a.cp) != eval.Abs(b.cp) {
			return eval.Abs(a.cp) - eval.Abs(b.cp)
		}
		return a.number - b.number
	})
	return out
}

// standardStart is the number of the standard chess start position.
const standardStart = 518

// summarize prints the figures of the rows on w.
func summarize(w io.Writer, rows map[int]atlasRow, el time.Duration, searched int) {
	if len(rows) == 0 {
		return
	}
	s := sortedRows(rows)
	mean, sd := stats(s)
	fmt.Fprintf(w, "atlas: %d positions: White's cp mean %+.1f, SD %.1f, from %+d (#%d %s) to %+d (#%d %s)",
		len(s), mean, sd, s[0].cp, s[0].number, s[0].arrangement, s[len(s)-1].cp, s[len(s)-1].number, s[len(s)-1].arrangement)
	if r, ok := rows[standardStart]; ok {
		rank := 1 + slices.IndexFunc(s, func(x atlasRow) bool { return x.number == standardStart })
		fmt.Fprintf(w, "; #518 (standard) %+d, rank %d of %d from the lowest", r.cp, rank, len(s))
	}
	fmt.Fprintln(w)
	if s[0].games > 0 {
		games, sum := 0, 0.0
		for _, r := range s {
			games += r.games
			sum += r.whiteScore * float64(r.games)
		}
		fmt.Fprintf(w, "atlas: %d self-play games, White scored %.1f%%\n", games, 100*sum/float64(games))
	}
	if searched > 0 {
		fmt.Fprintf(w, "atlas: searched %d positions in %s (%.3f positions/s)\n", searched, el.Round(time.Second),
			float64(searched)/max(el.Seconds(), 1e-9))
	}
}
