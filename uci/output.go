package uci

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
)

// logTimeLayout is the timestamp of each line in the debug log file.
const logTimeLayout = "2006-01-02T15:04:05.000000Z07:00"

// output writes protocol lines, one Write per line, and copies every line
// in and out to the debug log file when one is open. It is safe for
// concurrent use: the search goroutine prints info and bestmove while the
// reader prints readyok.
type output struct {
	mu   sync.Mutex
	w    io.Writer
	file *os.File        // the debug log file, nil when none
	log  zerolog.Logger  // writes to file
	err  error           // first write error on w
	buf  strings.Builder // reused line buffer
}

// line writes s and a newline.
func (o *output) line(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Reset()
	o.buf.WriteString(s)
	o.buf.WriteByte('\n')
	if _, err := io.WriteString(o.w, o.buf.String()); err != nil && o.err == nil {
		o.err = err
	}
	if o.file != nil {
		o.log.Info().Str("time", time.Now().Format(logTimeLayout)).Str("out", s).Send()
	}
}

// writeErr returns the first error writing to w.
func (o *output) writeErr() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// Write lets text commands (perft, bench, d, eval) print through the same
// lock and log. Each call should hold whole lines.
func (o *output) Write(p []byte) (int, error) {
	for _, l := range strings.SplitAfter(string(p), "\n") {
		if l != "" {
			o.line(strings.TrimSuffix(l, "\n"))
		}
	}
	return len(p), nil
}

// logIn records an input line in the debug log file.
func (o *output) logIn(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.file != nil {
		o.log.Info().Str("time", time.Now().Format(logTimeLayout)).Str("in", s).Send()
	}
}

// openLog switches the debug log to path ("" closes it).
func (o *output) openLog(path string) error {
	var f *os.File
	if path != "" {
		var err error
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.file != nil {
		o.file.Close()
	}
	o.file = f
	if f != nil {
		o.log = zerolog.New(f)
	}
	return nil
}

// sanitize turns text into one line fit for an info string.
func sanitize(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// formatInfo formats a progress report:
//
//	info depth D seldepth S multipv K score cp X|mate M [lowerbound|upperbound]
//	     [wdl W D L] nodes N nps N hashfull H time T pv ...
func formatInfo(i search.Info, chess960, showWDL bool) string {
	var sb strings.Builder
	sb.WriteString("info depth ")
	sb.WriteString(strconv.Itoa(i.Depth))
	if i.Depth == 0 && len(i.PV) == 0 {
		// No legal move: only the score is meaningful.
		sb.WriteString(" score ")
		sb.WriteString(formatScore(i.Score, i.Material))
		return sb.String()
	}
	fmt.Fprintf(&sb, " seldepth %d multipv %d score %s", i.SelDepth, max(i.MultiPV, 1), formatScore(i.Score, i.Material))
	switch i.Bound {
	case search.Lower:
		sb.WriteString(" lowerbound")
	case search.Upper:
		sb.WriteString(" upperbound")
	}
	if showWDL {
		fmt.Fprintf(&sb, " wdl %d %d %d", i.WDL[0], i.WDL[1], i.WDL[2])
	}
	fmt.Fprintf(&sb, " nodes %d nps %d hashfull %d", i.Nodes, i.NPS, i.HashFull)
	if i.TBHits > 0 {
		fmt.Fprintf(&sb, " tbhits %d", i.TBHits)
	}
	fmt.Fprintf(&sb, " time %d", i.Time.Milliseconds())
	if len(i.PV) > 0 {
		sb.WriteString(" pv")
		for _, m := range i.PV {
			sb.WriteByte(' ')
			sb.WriteString(m.UCI(chess960))
		}
	}
	return sb.String()
}

// formatScore writes "cp X" or "mate M". Centipawns are the search's score
// through eval's win/draw/loss model (eval.NormalizeCP): +100 is a 50%
// chance of winning at the root's material.
func formatScore(s, material int) string {
	if eval.IsMate(s) {
		return "mate " + strconv.Itoa(eval.MateMoves(s))
	}
	return "cp " + strconv.Itoa(eval.NormalizeCP(s, material))
}

// formatBestMove writes the bestmove line.
func formatBestMove(best, ponder movegen.Move, chess960 bool) string {
	if best == movegen.NoMove {
		return "bestmove (none)"
	}
	if ponder == movegen.NoMove {
		return "bestmove " + best.UCI(chess960)
	}
	return "bestmove " + best.UCI(chess960) + " ponder " + ponder.UCI(chess960)
}
