package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/eval/syzygy"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// Engine holds the game and runs at most one search at a time. Make one
// with New: the zero Engine is not usable (the methods that return an error
// return one saying so, Go and Position panic with it).
//
// The transposition table is allocated lazily, by Prepare, Go or NewGame, so
// that starting the engine (and answering "uci") stays fast whatever Hash is.
type Engine struct {
	log        zerolog.Logger
	raiseProcs bool // Config.RaiseProcs

	mu           sync.Mutex
	set          Settings
	pos          *movegen.Position // the current position, game history included
	table        *tt.Table         // nil until first needed
	pool         *search.Pool      // nil until first needed
	clearPending bool              // Clear Hash pressed during a search
	cur          *run              // the running search, nil when idle
	tables       *syzygy.Tables    // opened from SyzygyPath; nil when none
	notice       string            // for the front end, taken by TakeNotice
	net          *nnue.Net         // the current net (EvalFile); nil until first needed: the embedded one
	// seed drives the random choices of a weakened search
	// (UCI_LimitStrength): drawn anew for each game, so that games differ,
	// and fixed within one, so that the Seed option replays a game.
	seed uint64
	// standardStart is set when the position command's start is standard
	// chess's (standardStart): a weakened search then uses standard
	// chess's calibration even with UCI_Chess960 on.
	standardStart bool
}

// run is one search started by Go.
type run struct {
	cancel context.CancelFunc
	done   chan struct{} // closed when the search has ended: its result sent and its threads joined
	rep    *reply        // the search's reports; rep.answered is closed once its result is sent
	ponder bool          // started with Limits.Ponder
	hit    atomic.Bool   // ponderhit received
	hitCh  chan struct{} // closed on the first ponderhit; the pool reads it as Limits.PonderHit
}

// Config is what New takes. Its zero value (and a nil *Config) gives the
// default options, no diagnostics, and the program's runtime left alone.
type Config struct {
	// Settings are the option values to start with: nil means
	// DefaultSettings(). New sets them as SetSettings does, every field:
	// start from DefaultSettings() and change what differs, since a zero
	// field is a value (Use NNUE off, Move Overhead 0), not "the default".
	Settings *Settings
	// Log receives diagnostics, never protocol text: the tablebases found,
	// a search result that had to be replaced by a legal move. The zero
	// Logger discards them.
	Log zerolog.Logger
	// RaiseProcs lets the engine raise runtime.GOMAXPROCS, a setting of the
	// whole program, to Threads+2 when it is lower (never lowering it),
	// when the engine is made and when Threads grows: the goroutines that
	// deliver a stop then never wait for a processor. The kingrook binary
	// sets it; a program that imports the engine leaves it off and keeps
	// its own setting.
	RaiseProcs bool
}

// errZeroEngine is the error of an Engine not made by New.
var errZeroEngine = errors.New("engine: the zero Engine is not usable; make one with New")

// New returns an engine at the standard starting position with the
// options cfg gives (nil: the defaults). The error is SetSettings', for an
// option value out of range or a file (EvalFile) that cannot be read; the
// defaults never fail. The transposition table is allocated when first
// needed.
func New(cfg *Config) (*Engine, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	e := &Engine{log: cfg.Log, raiseProcs: cfg.RaiseProcs, set: DefaultSettings(), pos: movegen.NewPosition(),
		seed: rand.Uint64(), standardStart: true}
	if e.raiseProcs {
		raiseProcs(e.set.Threads)
	}
	if cfg.Settings != nil {
		if err := e.SetSettings(*cfg.Settings); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// spareProcs is how many processors the runtime gets beyond the search
// threads, so that the goroutines that read "stop" and hand it on (the front
// end's reader and command loop, the context watcher) run at once. With
// fewer, one of them may wait for the runtime to take a processor back from
// a busy worker or a blocked read: stop took 5-25 ms instead of under 1 ms
// (on 2 cores).
const spareProcs = 2

// raiseProcs raises GOMAXPROCS to threads+spareProcs when it is lower, and
// never lowers it. An engine made with Config.RaiseProcs calls it when it
// is made and when Threads changes, not per search: each change stops the
// world, and one in about 100,000 searches that raised and restored it per
// search hung for good in that stop (Go 1.26, the input reader blocked in
// read; seen as an unanswered isready in a fastchess match, reproduced
// with a goroutine dump).
func raiseProcs(threads int) {
	if want := threads + spareProcs; runtime.GOMAXPROCS(0) < want {
		runtime.GOMAXPROCS(want)
	}
}

// Settings returns the current option values.
func (e *Engine) Settings() Settings {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.set
}

// SetOption sets the option called name (case-insensitive; inner spaces
// may vary) to value. An unknown name or a bad value is an error and leaves
// every option unchanged. Hash and Clear Hash take effect at once when the
// table exists and no search runs, and otherwise at the next Prepare, Go or
// NewGame (which also allocate the table the first time); the other options
// apply to the next search.
func (e *Engine) SetOption(name, value string) error {
	d, err := lookupOption(name)
	if err != nil {
		return err
	}
	v, err := d.parse(value)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pos == nil {
		return errZeroEngine
	}
	if err := e.setLocked(d, v); err != nil {
		return err
	}
	e.optionsSetLocked()
	return nil
}

// SetSettings sets every option to its value in s, as SetOption does with
// the value's text: New's Config.Settings, or a change to what Settings
// returned. Options whose value is unchanged are left alone (the network
// and the tablebases are not read again). A spin value out of its range
// (Options) is an error that sets nothing; a Hash that does not fit in
// memory or an EvalFile that cannot be read is an error that leaves that
// option and those after it, in the order of Options, unchanged.
// DebugLogFile is only kept, for the front end that writes the log.
func (e *Engine) SetSettings(s Settings) error {
	for _, d := range optionTable {
		if d.get != nil && d.Type == Spin {
			if err := d.checkInt(d.get(&s).n); err != nil {
				return err
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pos == nil {
		return errZeroEngine
	}
	defer e.optionsSetLocked()
	for _, d := range optionTable {
		if d.get == nil {
			continue
		}
		if v := d.get(&s); v != d.get(&e.set) {
			if err := e.setLocked(d, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// setLocked does the option's engine work for the value v, then stores v
// in the settings; e.mu is held. An error from the work sets nothing.
func (e *Engine) setLocked(d optionDef, v optValue) error {
	if d.act != nil {
		if err := d.act(e, v); err != nil {
			return err
		}
	}
	if d.set != nil {
		d.set(&e.set, v)
	}
	return nil
}

// optionsSetLocked applies Hash and Clear Hash at once when the table
// exists and no search runs; e.mu is held.
func (e *Engine) optionsSetLocked() {
	if e.table != nil && e.cur == nil {
		e.prepareLocked()
	}
}

// checkHashLocked refuses a Hash size the machine cannot hold.
func (e *Engine) checkHashLocked(v optValue) error {
	current := 0
	if e.table != nil {
		current = e.table.SizeMB()
	}
	return checkHashFits(v.n, current)
}

// loadNetLocked makes the network named by the EvalFile value v the
// current one: the embedded net for "" (also <empty>) or its own name, else
// the file, and leaves a notice saying which net is in use. A file that
// cannot be read or is not a network of this build is an error; the
// current net stays.
func (e *Engine) loadNetLocked(v optValue) error {
	path := evalFileName(v.s)
	if path == nnue.EmbeddedName() {
		if e.set.EvalFile != nnue.EmbeddedName() {
			e.net = nil // the embedded net is read again when first needed
		}
		e.notice = "NNUE evaluation using " + nnue.EmbeddedName() + " (embedded)"
		return nil
	}
	n, err := nnue.LoadFile(path)
	if err != nil {
		return fmt.Errorf("option EvalFile: %s not loaded: %w; still using %s", path, err, e.set.EvalFile)
	}
	e.net = n
	e.notice = fmt.Sprintf("NNUE evaluation using %s (%d hidden neurons, %d output buckets", path, n.H, n.Buckets())
	switch n.Layout {
	case nnue.KingMirrored:
		e.notice += ", king-mirrored inputs"
	case nnue.KingBuckets:
		e.notice += fmt.Sprintf(", king-mirrored inputs in %d king buckets", n.KingBuckets())
	}
	e.notice += ")"
	return nil
}

// Net returns the network the searches use (the embedded one unless EvalFile
// named another), whether or not Use NNUE is on.
func (e *Engine) Net() *nnue.Net {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.netLocked()
}

// netLocked returns the current network, reading the embedded one the first
// time it is needed (a search keeps the same *Net, and so its accumulators,
// from one move to the next).
func (e *Engine) netLocked() *nnue.Net {
	if e.net == nil {
		e.net = nnue.Default()
	}
	return e.net
}

// openTablesLocked replaces the tablebases by those found in the
// SyzygyPath value v and leaves a notice saying how many were found (and
// which directories could not be read); a path without tables is no error.
// Old tables are closed when no search runs; a running search keeps reading
// those it started with, which then stay open.
func (e *Engine) openTablesLocked(v optValue) error {
	path := v.s
	tb, err := syzygy.Open(path)
	if e.cur == nil && e.tables != nil {
		e.tables.Close()
	}
	e.tables = tb
	wdl, dtz := tb.Count()
	e.notice = fmt.Sprintf("Found %d tablebases", wdl)
	if dtz != wdl {
		e.notice += fmt.Sprintf(" (%d DTZ)", dtz)
	}
	if err != nil {
		e.notice += fmt.Sprintf("; %v", err)
	}
	if wdl > 0 {
		e.log.Info().Str("path", path).Int("wdl", wdl).Int("dtz", dtz).Int("pieces", tb.MaxPieces()).Msg("syzygy tablebases")
	}
	return nil
}

// TakeNotice returns, once, what the last option set has to tell the user
// ("Found N tablebases"), or "".
func (e *Engine) TakeNotice() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := e.notice
	e.notice = ""
	return n
}

// Prepare allocates, resizes or clears the transposition table as the
// options ask, and readies the search threads (search.Pool.Warm). It does
// nothing while a search runs (the work is done when the next search
// starts). "isready" calls it, so a big table is allocated before the clock
// runs.
func (e *Engine) Prepare() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cur == nil {
		e.prepareLocked()
		var net *nnue.Net
		if e.set.UseNNUE {
			net = e.netLocked()
		}
		e.pool.Warm(e.set.Threads, net)
	}
}

// prepareLocked brings the table in line with the options; e.mu is held and
// no search runs. It reports whether the table is freshly allocated (empty).
func (e *Engine) prepareLocked() (fresh bool) {
	switch {
	case e.table == nil:
		e.table = tt.New(e.set.Hash)
		e.pool = search.NewPool(e.table)
		fresh = true
	case e.table.SizeMB() != e.set.Hash:
		e.table.Resize(e.set.Hash) // clears too
		fresh = true
	case e.clearPending:
		e.table.Clear()
	}
	e.clearPending = false
	return fresh
}

// NewGame stops a running search (its result is reported), then clears the
// transposition table and the search histories and sets the seed of the
// random choices of a weakened search: a new one, or the Seed option's.
func (e *Engine) NewGame() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stopAndWaitLocked()
	if !e.prepareLocked() {
		e.table.Clear()
	}
	e.pool.NewGame()
	e.seed = gameSeed(e.set.Seed)
}

// gameSeed is the seed of a game's random choices under the Seed option n:
// a new random one when n is 0, else one fixed by n.
func gameSeed(n int) uint64 {
	if n == 0 {
		return rand.Uint64()
	}
	return uint64(n) * 0x9e3779b97f4a7c15
}

// setSeed sets the seed of the random choices of a weakened search
// (UCI_LimitStrength) until the next NewGame: after NewGame and setSeed
// with the same seed, the same positions and search limits under a node
// budget give the same moves. (The Seed option does the same from the next
// NewGame on.)
func (e *Engine) setSeed(seed uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.seed = seed
}

// SetPosition sets the game to fen followed by moves, as UCI's position
// command does. fen is a FEN with standard (KQkq), Shredder-FEN (HAha) or
// X-FEN castling rights (Position.SetFEN), or "startpos" for the standard
// start; the moves are UCI text ("e2e4", "e7e8q"; castling as the king's
// move, "e1g1", or as king takes rook, "e1h1", which the UCI_Chess960
// option requires). The moves are kept as the game's history, so that the
// search sees repetitions. A running search is stopped first (its result is
// reported). A bad FEN or an illegal move is an error that says which part
// was wrong; the previous position is then kept.
func (e *Engine) SetPosition(fen string, moves ...string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pos == nil {
		return errZeroEngine
	}
	e.stopAndWaitAnsweredLocked()
	if fen == "startpos" {
		fen = movegen.StartFEN
	}
	if f := strings.Fields(fen); len(f) > 1 && (f[0] == "startpos" || f[0] == "fen" || f[0] == "position") {
		return fmt.Errorf("%q: SetPosition takes the FEN (or \"startpos\") and the moves as separate arguments, not a UCI position command", fen)
	}
	p := movegen.NewPosition()
	if err := p.SetFEN(fen); err != nil {
		return err
	}
	standard := standardStart(p)
	for i, s := range moves {
		m, err := movegen.ParseMove(p, s, e.set.Chess960)
		if err != nil {
			return fmt.Errorf("move %d of the list: %w", i+1, err)
		}
		p.Make(m)
	}
	e.pos, e.standardStart = p, standard
	return nil
}

// Position returns a copy of the current position.
func (e *Engine) Position() *movegen.Position {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pos == nil {
		panic(errZeroEngine)
	}
	return e.pos.Clone()
}

// ParseMove reads a move in UCI text (per the UCI_Chess960 option) and
// returns it if it is legal in the current position.
func (e *Engine) ParseMove(s string) (movegen.Move, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pos == nil {
		return movegen.NoMove, errZeroEngine
	}
	return movegen.ParseMove(e.pos, s, e.set.Chess960)
}

// Searching tells whether a search is running.
func (e *Engine) Searching() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cur != nil
}

// Go starts a search of the current position and returns at once. A search
// already running is stopped first and its onDone has run when Go returns.
// When that search answered when overdue and its threads are still
// finishing, the new search waits for them on its own goroutine, keeping
// its own clock meanwhile: if it becomes overdue before it could start, it
// answers with the table's move for the position and is not run.
//
// onInfo receives the progress reports; onDone receives the result
// exactly once (either may be nil), after the last onInfo, from the searching goroutine,
// or, when a timed search overruns its hard limit (a starved machine, see
// search.Options.Overdue), at once from a timer's goroutine; the search's
// later reports are then dropped. The result's BestMove is the first move
// of the last reported PV, always legal (a search that ends before its
// first report, stopped by its limit or overdue before depth 1 is complete,
// reports its move as a line of depth 0 just before the result); it is
// NoMove only when there is no legal move. PonderMove is a legal reply or NoMove. Under Limits.Infinite,
// and under Limits.Ponder until PonderHit, onDone never runs before Stop.
func (e *Engine) Go(lim search.Limits, onInfo func(search.Info), onDone func(search.Result)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.pos == nil {
		panic(errZeroEngine)
	}
	e.startLocked(context.Background(), e.readyLocked(), lim, onInfo, onDone)
}

// readyLocked stops the running search and waits until a new one may
// start: the old one has sent its result, and has ended if the table must
// change. It returns a search that answered when overdue and is still
// finishing (nil when none), which the new search waits for. e.mu is held
// on entry and on return (released while waiting).
func (e *Engine) readyLocked() (prev *run) {
	e.stopAndWaitAnsweredLocked()
	if e.cur != nil && e.prepareNeededLocked() {
		e.stopAndWaitLocked() // the table changes: no search may run
	}
	prev = e.cur // nil, or a search that answered and is finishing
	if prev == nil {
		e.prepareLocked()
	}
	return prev
}

// startLocked starts the search Go describes, after readyLocked returned
// prev, and returns it; cancelling parent stops it as Stop does. e.mu is
// held.
func (e *Engine) startLocked(parent context.Context, prev *run, lim search.Limits, onInfo func(search.Info), onDone func(search.Result)) *run {
	ctx, cancel := context.WithCancel(parent)
	r := &run{cancel: cancel, done: make(chan struct{}), ponder: lim.Ponder, hitCh: make(chan struct{})}
	if lim.Ponder {
		lim.PonderHit = r.hitCh
	}
	e.cur = r
	opt := search.Options{
		Threads:      e.set.Threads,
		MultiPV:      e.set.MultiPV,
		MoveOverhead: e.set.MoveOverhead,
		Tablebases:   e.tables,
		ProbeDepth:   e.set.ProbeDepth,
		Rule50:       e.set.Rule50,
		ProbeLimit:   e.set.ProbeLimit,
	}
	if e.set.UseNNUE {
		opt.Net = e.netLocked()
	}
	if e.set.LimitStrength {
		opt.Strength = e.strengthLocked()
	}
	pos := e.pos.Clone()
	r.rep = newReply(pos, e.table, lim.SearchMoves, onInfo, onDone)
	opt.Overdue = r.rep.overdue
	go e.search(ctx, r, prev, e.pool, pos, lim, opt)
	return r
}

// standardStart tells whether the start of a position command, pos, is
// standard chess's: it has castling rights and all are standard ones (king
// on e1 or e8, rook in the corner), as at the standard start and in the
// FEN a GUI sends each move of a standard game.
func standardStart(pos *movegen.Position) bool {
	if pos.CastlingRights() == 0 {
		return false
	}
	for _, c := range []movegen.Color{movegen.White, movegen.Black} {
		for _, kingSide := range []bool{false, true} {
			rook := pos.CastlingRook(c, kingSide)
			if rook != movegen.NoSquare && (pos.KingSquare(c).File() != 4 || (rook.File() != 0 && rook.File() != 7)) {
				return false
			}
		}
	}
	return true
}

// strengthLocked is the weakening of a search under UCI_LimitStrength: the
// Chess960 calibration when UCI_Chess960 is on, unless the position
// command started from standard chess (a standard game from a GUI that
// keeps the option on).
func (e *Engine) strengthLocked() search.Strength {
	return search.Strength{Elo: e.set.Elo, Seed: e.seed, Chess960: e.set.Chess960 && !e.standardStart}
}

// Stop asks the running search to stop; its result is reported as usual.
// With no search running it does nothing.
func (e *Engine) Stop() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cur != nil {
		e.cur.cancel()
		e.pool.Stop() // at once, not one goroutine later
	}
}

// PonderHit tells a pondering search that the expected move was played: it
// goes on under its clock limits. Otherwise it does nothing.
func (e *Engine) PonderHit() {
	e.mu.Lock()
	r := e.cur
	e.mu.Unlock()
	if r == nil || !r.ponder || r.hit.Swap(true) {
		return
	}
	close(r.hitCh) // the pool hands it on, also when its search has not begun yet
}

// Wait blocks until no search runs (and the last onDone has returned).
func (e *Engine) Wait() {
	e.mu.Lock()
	r := e.cur
	e.mu.Unlock()
	if r != nil {
		<-r.done
	}
}

// WaitTimeout is Wait with a time limit; it reports whether the engine is
// idle.
func (e *Engine) WaitTimeout(d time.Duration) bool {
	e.mu.Lock()
	r := e.cur
	e.mu.Unlock()
	if r == nil {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-r.done:
		return true
	case <-t.C:
		return false
	}
}

// stopAndWaitLocked stops the running search and waits for it to finish.
// e.mu is held on entry and on return (released while waiting).
func (e *Engine) stopAndWaitLocked() {
	for e.cur != nil {
		r := e.cur
		r.cancel()
		e.pool.Stop()
		e.mu.Unlock()
		<-r.done
		e.mu.Lock()
	}
}

// stopAndWaitAnsweredLocked stops the running search and waits until it has
// sent its result; after an overdue answer its threads may still be
// finishing (e.cur is then that search). e.mu is held on entry and on
// return (released while waiting).
func (e *Engine) stopAndWaitAnsweredLocked() {
	for e.cur != nil {
		r := e.cur
		r.cancel()
		e.pool.Stop()
		e.mu.Unlock()
		<-r.rep.answered
		e.mu.Lock()
		if e.cur == r {
			return
		}
	}
}

// prepareNeededLocked tells whether prepareLocked would resize or clear
// the table.
func (e *Engine) prepareNeededLocked() bool {
	return e.table == nil || e.table.SizeMB() != e.set.Hash || e.clearPending
}

// WaitAnswered blocks until the running search, if any, has sent its
// result. After an overdue answer its threads may still be finishing: the
// next Go waits for them (keeping its own clock), NewGame and Wait too.
func (e *Engine) WaitAnswered() {
	e.mu.Lock()
	r := e.cur
	e.mu.Unlock()
	if r != nil {
		<-r.rep.answered
	}
}

// errNoLegalMove is logged when the search returns a move that is not legal.
var errNoLegalMove = errors.New("search result is not a legal move")

// search runs one search on its own goroutine and reports through r.rep.
// prev, when not nil, is a search that answered when overdue and may still
// be running: it is waited for first (waitPrevious).
func (e *Engine) search(ctx context.Context, r *run, prev *run, pool *search.Pool, pos *movegen.Position,
	lim search.Limits, opt search.Options) {
	rep := r.rep
	defer func() {
		r.cancel()
		e.mu.Lock()
		if e.cur == r {
			e.cur = nil
		}
		e.mu.Unlock()
		close(r.done)
	}()
	if prev != nil && waitPrevious(ctx, prev, rep, lim, opt.MoveOverhead, pos.SideToMove()) {
		return
	}
	if !pos.HasLegalMove() {
		score := eval.Draw
		if pos.InCheck() {
			score = eval.MatedIn(0)
		}
		rep.info(search.Info{Score: score, Bound: search.Exact}, pos)
		pool.Search(ctx, pos, lim, opt, nil) // nothing to search: waits for stop or ponderhit as asked
		rep.done(search.Result{Score: score})
		return
	}
	var lastPV []movegen.Move
	res := pool.Search(ctx, pos, lim, opt, func(i search.Info) {
		if i.MultiPV <= 1 && len(i.PV) > 0 {
			lastPV = append(lastPV[:0], i.PV...)
		}
		rep.info(i, pos)
	})
	best, ponder := chooseMoves(pos, res, lastPV)
	if best != res.BestMove {
		e.log.Warn().Err(errNoLegalMove).Str("fen", pos.FEN(true)).Str("result", res.BestMove.UCI(true)).
			Str("played", best.UCI(true)).Msg("bestmove taken from the last PV or the legal moves")
	}
	res.BestMove, res.PonderMove = best, ponder
	rep.done(res)
}

// waitPrevious waits until prev's threads have ended, so that the pool is
// free, while keeping the clock of the move rep answers: should that move
// become overdue first, or be stopped (ctx), rep answers at once (with the
// table's move, as no line was reported yet). It reports whether rep
// answered.
func waitPrevious(ctx context.Context, prev *run, rep *reply, lim search.Limits, overhead time.Duration, us movegen.Color) bool {
	var alarm <-chan time.Time
	if after, timed := search.OverdueAfter(lim, overhead, us); timed && !lim.Ponder && !lim.Infinite {
		start := time.Now()
		if !lim.Start.IsZero() && lim.Start.Before(start) {
			start = lim.Start
		}
		t := time.NewTimer(time.Until(start.Add(after)))
		defer t.Stop()
		alarm = t.C
	}
	select {
	case <-prev.done:
		return false
	case <-alarm:
	case <-ctx.Done():
	}
	rep.overdue()
	<-prev.done
	return true
}

// chooseMoves returns the move to play, the first move of the last reported
// PV, and the expected reply, both checked for legality. pos has a legal
// move.
func chooseMoves(pos *movegen.Position, res search.Result, lastPV []movegen.Move) (best, ponder movegen.Move) {
	best, ponder = res.BestMove, res.PonderMove
	if len(lastPV) > 0 && pos.IsLegal(lastPV[0]) {
		if lastPV[0] != best {
			ponder = movegen.NoMove
		}
		best = lastPV[0]
		if len(lastPV) > 1 {
			ponder = lastPV[1]
		}
	}
	if !pos.IsLegal(best) {
		var l movegen.MoveList
		pos.GenerateLegal(&l)
		best, ponder = l.At(0), movegen.NoMove
	}
	if ponder != movegen.NoMove {
		pos.Make(best)
		if !pos.IsLegal(ponder) {
			ponder = movegen.NoMove
		}
		pos.Unmake()
	}
	return best, ponder
}
