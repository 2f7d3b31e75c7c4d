// Package uci speaks the Universal Chess Interface: it reads commands line
// by line, drives an engine.Engine and prints the replies. It holds protocol
// text only; the engine does the work.
//
// Besides the standard commands it understands "go perft N", "bench
// [hash threads limit fens type]" (Stockfish's arguments, when the front end
// supplies a benchmark), "d" (the board), "eval" (the evaluation broken
// down) and "genfens" (openings for OpenBench's data generation, see
// genfens.go).
package uci

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
)

// Identification printed after "uci".
const (
	EngineName = "Kingrook"
	Author     = "The Kingrook developers"
)

// Reader limits and shutdown.
const (
	// maxLineBytes: longer input lines are dropped with an info string.
	maxLineBytes = 16 << 20
	// readBufferBytes is the size of the input buffer.
	readBufferBytes = 64 << 10
	// quitWait bounds how long quit and EOF wait for a stopped search to
	// print its bestmove.
	quitWait = 2 * time.Second
	// readAhead is how many lines the reader may read while the command
	// loop is busy (a position command waits for the search it stops), so
	// that the next line, often a go, is read and its time taken when it
	// comes.
	readAhead = 8
)

// Config wires the protocol loop to its front end.
type Config struct {
	// Version is printed in "id name Kingrook <version>": engine.Version,
	// perhaps followed by the commit ("1.1.0 (abc1234)"). Empty:
	// engine.Version alone.
	Version string
	// Log receives diagnostics (never protocol text).
	Log zerolog.Logger
	// Bench runs the benchmark for the "bench [args]" command (Stockfish's
	// arguments: hash, threads, limit, positions, limit type), writing to
	// out; an error (bad arguments) is reported as an info string. Nil: the
	// command is not available.
	Bench func(out io.Writer, args []string) error
	// WaitForSearch makes each go with a limit (depth, nodes, mate,
	// movetime or a clock) finish before the next command is read: the
	// commands come from the command line, not from a GUI that waits for
	// bestmove. Searches without a limit still run until stop or quit.
	WaitForSearch bool
}

// inputLine is one line read from the GUI.
type inputLine struct {
	text    string
	tooLong int       // > 0: the line had this many bytes and was dropped
	read    time.Time // when the reader had the whole line
}

// Run reads commands from in and writes replies to out until "quit", end of
// input or ctx is cancelled (also while a go waits for its search under
// Config.WaitForSearch). A running search is stopped before Run returns.
// Run returns ctx's error when ctx ended it, else the read error, if any,
// other than io.EOF, else the first error writing to out: after one, Run
// returns when it next reads a command. Commands read from a string or a
// file all come at once and their end stops the search: give
// Config.WaitForSearch to search each go to its limit.
func Run(ctx context.Context, in io.Reader, out io.Writer, eng *engine.Engine, cfg Config) error {
	switch {
	case ctx == nil:
		return errors.New("uci: nil Context")
	case in == nil || out == nil:
		return errors.New("uci: nil input or output")
	case eng == nil:
		return errors.New("uci: nil Engine")
	}
	s := &session{ctx: ctx, eng: eng, cfg: cfg, out: &output{w: out}}
	defer s.out.openLog("") // closes the log file
	if path := eng.Settings().DebugLogFile; path != "" {
		if err := s.out.openLog(path); err != nil {
			cfg.Log.Error().Err(err).Msg("cannot open the debug log file")
		}
	}

	lines := make(chan inputLine, readAhead)
	done := make(chan struct{})
	defer close(done)
	readErr := make(chan error, 1)
	go readLines(in, lines, done, readErr)

	for {
		if ctx.Err() != nil { // before the next line, which may be ready too
			s.shutdown()
			return ctx.Err()
		}
		select {
		case <-ctx.Done():
			s.shutdown()
			return ctx.Err()
		case l, ok := <-lines:
			if !ok {
				s.shutdown()
				if err := <-readErr; err != nil {
					return err
				}
				return s.out.writeErr()
			}
			if l.tooLong > 0 {
				s.out.logIn(fmt.Sprintf("<%d bytes dropped>", l.tooLong))
				s.infof("input line of %d bytes is longer than %d, ignored", l.tooLong, maxLineBytes)
				continue
			}
			if !s.handle(l.text, l.read) {
				s.shutdown()
				return s.out.writeErr()
			}
			if err := s.out.writeErr(); err != nil {
				s.shutdown()
				return err
			}
		}
	}
}

// readLines sends the lines of in, without their line ends, until end of
// input (then it closes lines) or done. Lines of any length are read; those
// longer than maxLineBytes are reported by size only.
func readLines(in io.Reader, lines chan<- inputLine, done <-chan struct{}, readErr chan<- error) {
	r := bufio.NewReaderSize(in, readBufferBytes)
	var buf []byte
	var size int
	for {
		chunk, err := r.ReadSlice('\n')
		size += len(chunk)
		if size <= maxLineBytes {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if size > 0 {
			// The time is taken here, not when the command loop gets the
			// line: on a busy machine the hand-over to the loop's goroutine
			// can wait for a processor, and a go's clock runs from the
			// moment its line came in.
			l := inputLine{text: string(bytes.TrimRight(buf, "\r\n")), read: time.Now()}
			if size > maxLineBytes {
				l = inputLine{tooLong: size}
			}
			select {
			case lines <- l:
			case <-done:
				return
			}
		}
		buf, size = buf[:0], 0
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			readErr <- err
			close(lines)
			return
		}
	}
}

// session is the state of one protocol loop.
type session struct {
	ctx   context.Context // Run's: a go waiting for its search (WaitForSearch) ends with it
	eng   *engine.Engine
	cfg   Config
	out   *output
	debug bool // "debug on": extra info strings
	// rejected holds the error of the last position command when it was
	// refused, "" after a good one. The engine keeps the last good
	// position (for d and eval), but go does not search it: the GUI asked
	// for another position, and a move for the old one would be played in
	// the wrong game.
	rejected string
	// held is the "bestmove (none)" of a go infinite or go ponder that
	// was not searched (rejected): like a search's, it waits for stop (or
	// ponderhit, for go ponder) or the next command that ends a search.
	held struct{ waiting, ponder bool }
}

// releaseHeld prints the held "bestmove (none)", if any.
func (s *session) releaseHeld() {
	if s.held.waiting {
		s.held.waiting = false
		s.out.line(formatBestMove(movegen.NoMove, movegen.NoMove, false))
	}
}

// infof prints an info string.
func (s *session) infof(format string, args ...any) {
	s.out.line("info string " + sanitize(fmt.Sprintf(format, args...)))
}

// handle runs one command line, read at the time given; it returns false on
// quit.
func (s *session) handle(line string, read time.Time) bool {
	s.out.logIn(line)
	fields := strings.Fields(line)
	// Unknown tokens before a command are skipped (the UCI specification:
	// "joho debug on" switches debug on).
	i := 0
	for i < len(fields) && !IsCommand(fields[i]) {
		i++
	}
	if i == len(fields) {
		if len(fields) > 0 {
			s.infof("unknown command %q", truncate(line))
		}
		return true
	}
	if i > 0 {
		s.infof("ignored unknown tokens %q", truncate(strings.Join(fields[:i], " ")))
	}
	cmd, args := strings.ToLower(fields[i]), fields[i+1:]
	switch cmd {
	case "quit":
		return false
	case "uci":
		s.uci()
	case "isready":
		s.eng.Prepare()
		s.out.line("readyok")
	case "debug":
		s.setDebug(args)
	case "setoption":
		s.setOption(line)
	case "register":
		// Kingrook needs no registration.
	case "ucinewgame":
		s.releaseHeld()
		s.eng.NewGame()
	case "position":
		s.releaseHeld()
		s.position(args)
	case "go":
		s.releaseHeld()
		s.goCmd(args, read)
	case "stop":
		s.eng.Stop()
		s.releaseHeld()
	case "ponderhit":
		s.eng.PonderHit()
		if s.held.ponder {
			s.releaseHeld()
		}
	case "d":
		s.display()
	case "eval":
		s.evaluate()
	case "bench":
		s.bench(args)
	case "genfens":
		s.genfens(args)
	}
	return true
}

// IsCommand tells whether word names a command of the protocol loop
// (case-insensitive); a front end tells command-line UCI commands from
// other arguments with it.
func IsCommand(word string) bool {
	switch strings.ToLower(word) {
	case "uci", "debug", "isready", "setoption", "register", "ucinewgame", "position", "go", "stop",
		"ponderhit", "quit", "d", "eval", "bench", "genfens":
		return true
	}
	return false
}

// truncate shortens text quoted in messages.
func truncate(s string) string {
	const maxQuoted = 80
	if len(s) > maxQuoted {
		return s[:maxQuoted] + "..."
	}
	return s
}

// shutdown stops a running search and waits (briefly) for its bestmove.
func (s *session) shutdown() {
	s.releaseHeld()
	s.eng.Stop()
	if !s.eng.WaitTimeout(quitWait) {
		s.cfg.Log.Error().Msg("the search did not stop in time")
	}
}

func (s *session) uci() {
	version := s.cfg.Version
	if version == "" {
		version = engine.Version
	}
	s.out.line("id name " + EngineName + " " + version)
	s.out.line("id author " + Author)
	for _, o := range engine.Options() {
		s.out.line(o.String())
	}
	s.out.line("uciok")
}

func (s *session) setDebug(args []string) {
	switch {
	case len(args) > 0 && strings.EqualFold(args[0], "on"):
		s.debug = true
	case len(args) > 0 && strings.EqualFold(args[0], "off"):
		s.debug = false
	default:
		s.infof("debug: expected on or off")
	}
}

func (s *session) setOption(line string) {
	_, text, _ := cutAtToken(line, "setoption")
	cmd, err := parseSetOption(text)
	if err != nil {
		s.infof("%v", err)
		return
	}
	old := s.eng.Settings().DebugLogFile
	if err := s.eng.SetOption(cmd.name, cmd.value); err != nil {
		s.infof("%v", err)
		return
	}
	if msg := s.eng.TakeNotice(); msg != "" {
		s.infof("%s", msg)
	}
	if path := s.eng.Settings().DebugLogFile; path != old {
		if err := s.out.openLog(path); err != nil {
			s.infof("cannot open the debug log file: %v", err)
			_ = s.eng.SetOption("Debug Log File", old)
		}
	}
}

func (s *session) position(args []string) {
	cmd, warn, err := parsePosition(args)
	for _, w := range warn {
		s.infof("%s", w)
	}
	if err == nil {
		err = s.eng.SetPosition(cmd.fen, cmd.moves...)
	} else {
		s.eng.Stop()
		s.eng.WaitAnswered()
	}
	if err != nil {
		s.rejected = err.Error()
		s.infof("%v; position unchanged, go will not search until a valid position is set", err)
		return
	}
	s.rejected = ""
}

// goCmd runs go; its clock starts at received, when the line was read.
func (s *session) goCmd(args []string, received time.Time) {
	// Stop first, so that searchmoves are read in the current position and
	// the old search's bestmove comes before anything of this one. (A search
	// that answered when overdue may still be finishing; Go waits for it
	// without holding up this move's answer.)
	s.eng.Stop()
	s.eng.WaitAnswered()
	if s.rejected != "" {
		// Exactly one bestmove per go, and none for a position the GUI
		// did not ask for.
		s.infof("no search: the last position command was rejected (%s)", s.rejected)
		if isPerft(args) {
			return
		}
		// Under go infinite or go ponder no bestmove before stop (or
		// ponderhit), as a search would.
		cmd, _ := parseGo(args, func(string) (movegen.Move, error) { return movegen.NoMove, errors.New("no position") })
		infinite, ponder := cmd.limits.Infinite, cmd.limits.Ponder
		s.held.waiting, s.held.ponder = true, ponder && !infinite
		if !infinite && !ponder {
			s.releaseHeld()
		}
		return
	}
	cmd, warn := parseGo(args, s.eng.ParseMove)
	for _, w := range warn {
		s.infof("%s", w)
	}
	set := s.eng.Settings()
	if cmd.badPerft {
		return
	}
	if cmd.perft > 0 {
		s.perft(cmd.perft, set.Chess960)
		return
	}
	if s.debug {
		s.infof("go %+v", cmd.limits)
	}
	chess960, wdl := set.Chess960, set.ShowWDL
	if s.cfg.WaitForSearch {
		// Commands from the command line are all read at once and each go
		// waits for the one before: its clock starts when it is run.
		received = time.Now()
	}
	cmd.limits.Start = received
	s.eng.Go(cmd.limits,
		func(i search.Info) { s.out.line(formatInfo(i, chess960, wdl)) },
		func(r search.Result) { s.out.line(formatBestMove(r.BestMove, r.PonderMove, chess960)) })
	if s.cfg.WaitForSearch && hasLimit(cmd.limits) {
		s.waitSearch()
	}
}

// waitSearch waits for the running search to end, or for Run's context,
// which stops it.
func (s *session) waitSearch() {
	done := make(chan struct{})
	go func() {
		s.eng.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-s.ctx.Done():
		s.eng.Stop()
		<-done
	}
}

// perft prints the move count below each root move and the total, in the
// format of Stockfish's "go perft".
func (s *session) perft(depth int, chess960 bool) {
	_, _ = s.eng.Position().WritePerft(s.out, depth, chess960, true, nil) // s.out keeps its own write errors
}

// display prints the board, its FEN, key and checkers.
func (s *session) display() {
	pos := s.eng.Position()
	chess960 := s.eng.Settings().Chess960
	fmt.Fprint(s.out, pos.String())
	s.out.line("")
	s.out.line("Fen: " + pos.FEN(chess960))
	s.out.line(fmt.Sprintf("Key: %016X", pos.Key()))
	var checkers []string
	for b := pos.Checkers(); b != 0; {
		checkers = append(checkers, b.PopLSB().String())
	}
	s.out.line("Checkers: " + strings.Join(checkers, " "))
}

// evaluate prints the static evaluation broken down.
func (s *session) evaluate() {
	pos := s.eng.Position()
	fmt.Fprint(s.out, eval.Trace(pos))
	set := s.eng.Settings()
	net := s.eng.Net()
	white := net.EvaluatePosition(pos)
	if pos.SideToMove() == movegen.Black {
		white = -white
	}
	inUse := "not in use: Use NNUE is false"
	if set.UseNNUE {
		inUse = "in use"
	}
	fmt.Fprintf(s.out, "NNUE evaluation (%s, %s)  %+.2f (white side)\n", set.EvalFile, inUse, float64(white)/100)
}

func (s *session) bench(args []string) {
	if s.cfg.Bench == nil {
		s.infof("bench is not available")
		return
	}
	s.eng.Stop()
	s.eng.Wait()
	if err := s.cfg.Bench(s.out, args); err != nil {
		s.infof("bench: %v", err)
	}
}
