package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/movegen"
)

// binary is the kingrook executable built by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kingrook-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "kingrook")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building kingrook:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is a running kingrook process.
type proc struct {
	tb    testing.TB
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines chan string
	exit  chan error
}

func start(tb testing.TB, args ...string) *proc {
	tb.Helper()
	cmd := exec.Command(binary, args...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	p := &proc{tb: tb, cmd: cmd, stdin: stdin, lines: make(chan string, 1<<16), exit: make(chan error, 1)}
	go func() {
		r := bufio.NewReader(stdout)
		for {
			l, err := r.ReadString('\n')
			if l != "" {
				p.lines <- strings.TrimSuffix(l, "\n")
			}
			if err != nil {
				close(p.lines)
				p.exit <- cmd.Wait()
				return
			}
		}
	}()
	tb.Cleanup(func() {
		stdin.Close()
		select {
		case <-p.exit:
		case <-time.After(guard):
			cmd.Process.Kill()
			tb.Error("kingrook did not exit after end of input")
		}
	})
	return p
}

func (p *proc) send(lines ...string) {
	p.tb.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(p.stdin, l+"\n"); err != nil {
			p.tb.Fatalf("send %q: %v", l, err)
		}
	}
}

// until reads up to and including the first line starting with prefix.
func (p *proc) until(prefix string) []string {
	p.tb.Helper()
	var out []string
	timeout := time.After(guard)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				p.tb.Fatalf("kingrook exited while waiting for %q; output %q", prefix, out)
			}
			out = append(out, l)
			if strings.HasPrefix(l, prefix) {
				return out
			}
		case <-timeout:
			p.tb.Fatalf("no %q; output %q", prefix, out)
		}
	}
}

// wait reads the remaining output and the exit status.
func (p *proc) wait() ([]string, error) {
	p.tb.Helper()
	var out []string
	timeout := time.After(guard)
	for {
		select {
		case l, ok := <-p.lines:
			if !ok {
				err := <-p.exit
				p.exit <- err // for Cleanup
				return out, err
			}
			out = append(out, l)
		case <-timeout:
			p.tb.Fatal("kingrook did not exit")
		}
	}
}

// noBestMove sends isready n times and fails when a bestmove comes before
// a readyok; what names the search that must not have answered.
func (p *proc) noBestMove(n int, what string) {
	p.tb.Helper()
	for range n {
		p.send("isready")
		if out := p.until("readyok"); countPrefix(out, "bestmove") != 0 {
			p.tb.Fatalf("bestmove %s: %q", what, out)
		}
	}
}

func countPrefix(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// idNameRE is the id line of a go build: the version, then the commit when
// go build stamped one (inside a git checkout, unless -buildvcs=false).
var idNameRE = regexp.MustCompile(`^id name Kingrook ` + regexp.QuoteMeta(engine.Version) + `( \([0-9a-f]{7}(-dirty)?\))?$`)

func TestE2EHandshakeAndQuit(t *testing.T) {
	p := start(t)
	p.send("uci")
	lines := p.until("uciok")
	if !idNameRE.MatchString(lines[0]) || lines[1] != "id author The Kingrook developers" {
		t.Fatalf("ids %q", lines[:2])
	}
	if countPrefix(lines, "option name UCI_Chess960 type check default false") != 1 {
		t.Fatalf("UCI_Chess960 not advertised: %q", lines)
	}
	p.send("isready")
	p.until("readyok")
	p.send("quit")
	if rest, err := p.wait(); err != nil || len(rest) != 0 {
		t.Fatalf("exit %v, output %q", err, rest)
	}
}

// TestE2EVersion: the built binary's version output, the same for the
// subcommand and the flag, its first line the id name's text.
func TestE2EVersion(t *testing.T) {
	out, err := exec.Command(binary, "version").Output()
	if err != nil {
		t.Fatalf("kingrook version: %v", err)
	}
	flag, err := exec.Command(binary, "--version").Output()
	if err != nil || string(flag) != string(out) {
		t.Fatalf("kingrook --version: %v, %q; kingrook version %q", err, flag, out)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 4 || !idNameRE.MatchString("id name "+lines[0]) ||
		!strings.HasPrefix(lines[1], "go    go") || !strings.HasPrefix(lines[2], "simd  ") ||
		!regexp.MustCompile(`^net   \S+\.nnue sha256 [0-9a-f]{12}$`).MatchString(lines[3]) {
		t.Fatalf("kingrook version:\n%s", out)
	}
}

func TestE2EIsReadyDuringSearch(t *testing.T) {
	p := start(t)
	p.send("position startpos", "go infinite")
	p.until("info depth")
	p.noBestMove(3, "before stop")
	p.send("stop")
	p.until("bestmove")
	p.noBestMove(1, "a second time")
}

func TestE2EPonderAndStrayStop(t *testing.T) {
	p := start(t)
	p.send("stop", "position startpos moves e2e4", "go ponder wtime 1000 btime 1000 depth 1")
	p.until("info depth 1")
	p.noBestMove(5, "while pondering")
	p.send("ponderhit")
	p.until("bestmove")
	p.send("stop", "go depth 3")
	if out := p.until("bestmove"); countPrefix(out, "info depth 3") == 0 {
		t.Fatalf("a stray stop cut the search short: %q", out)
	}
}

func TestE2EPositionDuringSearch(t *testing.T) {
	p := start(t)
	p.send("position startpos", "go infinite")
	p.until("info depth")
	p.send("position startpos moves g1f3", "go depth 2")
	first := p.until("bestmove")
	second := p.until("bestmove")
	if countPrefix(second, "bestmove") != 1 {
		t.Fatalf("%q", second)
	}
	checkLegal(t, movegen.StartFEN, nil, first[len(first)-1], false)
	checkLegal(t, movegen.StartFEN, []string{"g1f3"}, second[len(second)-1], false)
}

func TestE2ECastlingNotation(t *testing.T) {
	const fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
	p := start(t)
	p.send("position fen "+fen, "go depth 2 searchmoves e1g1")
	if out := p.until("bestmove"); !strings.HasPrefix(out[len(out)-1], "bestmove e1g1") {
		t.Fatalf("standard: %q", out)
	}
	p.send("setoption name UCI_Chess960 value true", "position fen "+fen, "go depth 2 searchmoves e1h1")
	out := p.until("bestmove")
	if !strings.HasPrefix(out[len(out)-1], "bestmove e1h1") || !strings.Contains(out[len(out)-2], " pv e1h1") {
		t.Fatalf("960: %q", out)
	}
	// Input: king takes rook in 960 mode, in a DFRC position.
	dfrc, _ := movegen.DFRCFEN(0, 959)
	p.send("position fen "+dfrc+" moves b2b3 b7b6", "go depth 3")
	out = p.until("bestmove")
	checkLegal(t, dfrc, []string{"b2b3", "b7b6"}, out[len(out)-1], true)
}

// checkLegal checks a bestmove line against a position.
func checkLegal(t *testing.T, fen string, moves []string, line string, chess960 bool) {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 2 || f[0] != "bestmove" {
		t.Fatalf("not a bestmove line: %q", line)
	}
	pos := movegen.NewPosition()
	if err := pos.SetFEN(fen); err != nil {
		t.Fatal(err)
	}
	for _, s := range append(moves, f[1]) {
		m, err := movegen.ParseMove(pos, s, chess960)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		pos.Make(m)
	}
}

func TestE2EJunkAndLongLines(t *testing.T) {
	p := start(t)
	p.send("position startpos moves e2e4")
	junk := []string{
		"", "   ", "\t\t", "hello", "position fen", "position fen 1/2/3 w", "position startpos moves e7e5 e7e5",
		"go depth x nodes -5 movetime y", "setoption name Hash value huge", "setoption name", "\x00\x01\x02",
		strings.Repeat("position startpos moves ", 1000), strings.Repeat("z", 1<<20),
	}
	for _, j := range junk[:len(junk)-2] {
		p.send(j)
	}
	p.send("stop", junk[len(junk)-2], junk[len(junk)-1], "isready")
	p.until("readyok")
	// The last position command was refused: go answers without searching
	// the old position, until a good position command comes.
	p.send("go depth 2")
	if out := p.until("bestmove"); out[len(out)-1] != "bestmove (none)" {
		t.Fatalf("go after a refused position: %q", out)
	}
	p.send("position startpos moves e2e4", "go depth 2")
	out := p.until("bestmove")
	checkLegal(t, movegen.StartFEN, []string{"e2e4"}, out[len(out)-1], false)
}

func TestE2EEOFDuringSearch(t *testing.T) {
	p := start(t)
	p.send("go infinite")
	p.until("info depth")
	p.stdin.Close()
	rest, err := p.wait()
	if err != nil {
		t.Fatalf("exit: %v", err)
	}
	if countPrefix(rest, "bestmove") != 1 {
		t.Fatalf("after end of input: %q", rest)
	}
}

func TestE2EQuitDuringSearch(t *testing.T) {
	p := start(t, "--threads", "2")
	p.send("go infinite")
	p.until("info depth")
	p.send("quit")
	rest, err := p.wait()
	if err != nil || countPrefix(rest, "bestmove") > 1 {
		t.Fatalf("exit %v, output %q", err, rest)
	}
}

// TestE2EMemory: resident memory stays within Hash + 30 MiB after a search.
func TestE2EMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc")
	}
	p := start(t)
	p.send("setoption name Hash value 16", "isready")
	p.until("readyok")
	p.send("position startpos", "go nodes 1500000")
	p.until("bestmove")
	rss := vmRSS(t, p.cmd.Process.Pid)
	t.Logf("VmRSS with Hash 16 after a 1.5M-node search: %d KiB", rss)
	if rss > (16+30)*1024 {
		t.Fatalf("VmRSS %d KiB exceeds Hash + 30 MiB", rss)
	}
}

// vmRSS reads a process's resident set size in KiB.
func vmRSS(tb testing.TB, pid int) int {
	tb.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			var kb int
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb
		}
	}
	tb.Fatal("no VmRSS")
	return 0
}

// BenchmarkStartupToUCIOK measures the time from starting the process to
// reading uciok.
func BenchmarkStartupToUCIOK(b *testing.B) {
	for b.Loop() {
		p := start(b)
		p.send("uci")
		p.until("uciok")
		p.send("quit")
		p.wait()
	}
}

// TestE2EGenfens runs genfens as OpenBench does: the command and quit as
// arguments.
func TestE2EGenfens(t *testing.T) {
	run := func(args ...string) []string {
		t.Helper()
		out, err := exec.Command(binary, args...).Output()
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	}
	lines := run("genfens 25 seed 12345 book None", "quit")
	if len(lines) != 25 {
		t.Fatalf("%d lines: %q", len(lines), lines)
	}
	for _, l := range lines {
		fen, ok := strings.CutPrefix(l, "info string genfens ")
		if !ok {
			t.Fatalf("line %q", l)
		}
		var p movegen.Position
		if err := p.SetFEN(fen); err != nil || !p.HasLegalMove() {
			t.Fatalf("%q: %v, legal moves %v", fen, err, p.HasLegalMove())
		}
	}
	if again := run("genfens 25 seed 12345 book None", "quit"); strings.Join(again, "\n") != strings.Join(lines, "\n") {
		t.Error("the same seed gave other openings")
	}
	if other := run("genfens 25 seed 54321 book None", "quit"); strings.Join(other, "\n") == strings.Join(lines, "\n") {
		t.Error("another seed gave the same openings")
	}
	book := filepath.Join(t.TempDir(), "book.epd")
	if err := os.WriteFile(book, []byte("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range run("genfens 3 seed 1 book "+book+" plies 0", "quit") {
		if l != "info string genfens rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1" {
			t.Errorf("book line %q", l)
		}
	}
	if l := run("genfens 3 seed 1 book /nonexistent/book.epd", "quit"); len(l) != 1 || !strings.HasPrefix(l[0], "info string genfens: book: ") {
		t.Errorf("missing book: %q", l)
	}
	if l := run("position startpos", "go depth 4", "quit"); !strings.HasPrefix(l[len(l)-1], "bestmove ") {
		t.Errorf("search from the arguments: %q", l)
	}
}
