package uci

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/movegen"
)

// guard bounds how long a test waits for a reply before failing instead of
// hanging; it is not a speed requirement.
const guard = 60 * time.Second

// harness drives Run in-process through pipes.
type harness struct {
	t     *testing.T
	eng   *engine.Engine
	in    *io.PipeWriter
	lines chan string
	done  chan error
}

func newHarness(t *testing.T) *harness {
	return newHarnessConfig(t, Config{Version: "test"})
}

func newHarnessConfig(t *testing.T, cfg Config) *harness {
	t.Helper()
	cfg.Log = zerolog.Nop()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, eng: testEngine(t), in: inW, lines: make(chan string, 1<<16), done: make(chan error, 1)}
	go func() {
		err := Run(context.Background(), inR, outW, h.eng, cfg)
		outW.Close()
		h.done <- err
	}()
	go func() {
		r := bufio.NewReader(outR)
		for {
			l, err := r.ReadString('\n')
			if l != "" {
				if !strings.HasSuffix(l, "\n") {
					t.Errorf("output line without newline: %q", l)
				}
				h.lines <- strings.TrimSuffix(l, "\n")
			}
			if err != nil {
				close(h.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-h.done:
		case <-time.After(guard):
			t.Error("Run did not return after end of input")
		}
		inR.Close()
	})
	return h
}

// testEngine returns an engine with the default options and no
// diagnostics, as engine.New(nil) makes it.
func testEngine(t testing.TB) *engine.Engine {
	t.Helper()
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// send writes lines to the engine.
func (h *harness) send(lines ...string) {
	h.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(h.in, l+"\n"); err != nil {
			h.t.Fatalf("send %q: %v", l, err)
		}
	}
}

// next returns the next output line.
func (h *harness) next() string {
	h.t.Helper()
	select {
	case l, ok := <-h.lines:
		if !ok {
			h.t.Fatal("output closed")
		}
		return l
	case <-time.After(guard):
		h.t.Fatal("no output")
		return ""
	}
}

// until reads lines up to and including the first that starts with
// prefix and returns them all.
func (h *harness) until(prefix string) []string {
	h.t.Helper()
	var out []string
	for {
		l := h.next()
		out = append(out, l)
		if strings.HasPrefix(l, prefix) {
			return out
		}
	}
}

// sync sends isready and returns the lines before readyok.
func (h *harness) sync() []string {
	h.t.Helper()
	h.send("isready")
	out := h.until("readyok")
	return out[:len(out)-1]
}

// noBestMove sends isready n times and fails when a bestmove comes before
// a readyok; what names the search that must not have answered.
func (h *harness) noBestMove(n int, what string) {
	h.t.Helper()
	for range n {
		if before := h.sync(); count(before, "bestmove") != 0 {
			h.t.Fatalf("bestmove %s: %q", what, before)
		}
	}
}

// finish closes the input and returns the remaining output and Run's
// result.
func (h *harness) finish() ([]string, error) {
	h.t.Helper()
	h.in.Close()
	var out []string
	for l := range h.lines {
		out = append(out, l)
	}
	select {
	case err := <-h.done:
		h.done <- err // for Cleanup
		return out, err
	case <-time.After(guard):
		h.t.Fatal("Run did not return")
		return nil, nil
	}
}

// count returns how many lines start with prefix.
func count(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// infoStrings returns the info string lines.
func infoStrings(lines []string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, "info string ") {
			out = append(out, l)
		}
	}
	return out
}

// bestMove splits a bestmove line into its move and ponder move.
func bestMove(t *testing.T, line string) (best, ponder string) {
	t.Helper()
	f := strings.Fields(line)
	switch {
	case len(f) == 2 && f[0] == "bestmove":
		return f[1], ""
	case len(f) == 4 && f[0] == "bestmove" && f[2] == "ponder":
		return f[1], f[3]
	}
	t.Fatalf("malformed bestmove line %q", line)
	return "", ""
}

// mustBeLegal checks a move text against a position.
func mustBeLegal(t *testing.T, fen string, moves []string, m string, chess960 bool) {
	t.Helper()
	pos := movegen.NewPosition()
	if err := pos.SetFEN(fen); err != nil {
		t.Fatal(err)
	}
	for _, s := range moves {
		mv, err := movegen.ParseMove(pos, s, chess960)
		if err != nil {
			t.Fatal(err)
		}
		pos.Make(mv)
	}
	mv, err := movegen.ParseMove(pos, m, chess960)
	if err != nil {
		t.Fatalf("bestmove %q: %v", m, err)
	}
	if got := mv.UCI(chess960); got != m {
		t.Fatalf("bestmove %q is not in canonical notation (%q)", m, got)
	}
}
