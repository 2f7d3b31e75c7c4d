package uci

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// TestGoClocksGiven: go tells the search which clocks it was given, so that
// one given only for the opponent is not read as our clock at zero.
func TestGoClocksGiven(t *testing.T) {
	for _, c := range []struct {
		args         []string
		white, black bool
	}{
		{[]string{"btime", "60000"}, false, true},
		{[]string{"wtime", "60000", "winc", "100"}, true, false},
		{[]string{"wtime", "0", "btime", "5000"}, true, true},
		{[]string{"depth", "3"}, false, false},
	} {
		cmd, _ := parseGo(c.args, nil)
		lim := cmd.limits
		if lim.WTimeGiven != c.white || lim.BTimeGiven != c.black || lim.HasClock != (c.white || c.black) {
			t.Errorf("go %v: given white %v black %v clock %v, want %v %v", c.args, lim.WTimeGiven, lim.BTimeGiven,
				lim.HasClock, c.white, c.black)
		}
	}
}

// TestGoWithoutLimitIsInfinite: a go that sets no limit searches until
// stop, as go infinite; any limit, or ponder, keeps its own meaning.
func TestGoWithoutLimitIsInfinite(t *testing.T) {
	for _, c := range []struct {
		args     []string
		infinite bool
	}{
		{nil, true},
		{[]string{"infinite"}, true},
		{[]string{"movestogo", "20", "winc", "100", "binc", "100"}, true},
		{[]string{"depth", "x"}, true}, // the bad value is ignored with a warning
		{[]string{"depth", "10"}, false},
		{[]string{"nodes", "1000"}, false},
		{[]string{"mate", "3"}, false},
		{[]string{"movetime", "100"}, false},
		{[]string{"btime", "60000"}, false},
		{[]string{"ponder", "wtime", "1000", "btime", "1000"}, false},
		{[]string{"ponder"}, false},
	} {
		cmd, _ := parseGo(c.args, nil)
		if cmd.limits.Infinite != c.infinite {
			t.Errorf("go %v: infinite %v, want %v", c.args, cmd.limits.Infinite, c.infinite)
		}
	}
}

// TestGoClockStartsWhenRead: a go's clock runs from the moment its line was
// read, not from when the command loop got to it: a go read an hour ago
// reports a search time of at least an hour.
func TestGoClockStartsWhenRead(t *testing.T) {
	var out bytes.Buffer
	eng := testEngine(t)
	s := &session{eng: eng, cfg: Config{Log: zerolog.Nop()}, out: &output{w: &out}}
	text := func() string {
		s.out.mu.Lock()
		defer s.out.mu.Unlock()
		return out.String()
	}
	s.handle("position startpos", time.Now())
	s.handle("go infinite", time.Now().Add(-time.Hour))
	for deadline := time.Now().Add(guard); !strings.Contains(text(), "info depth") && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	s.handle("stop", time.Now())
	eng.Wait()
	infos := 0
	for _, l := range strings.Split(text(), "\n") {
		if infoRE.FindStringSubmatch(l) == nil {
			continue
		}
		infos++
		f := strings.Fields(l)
		for i := range f[:len(f)-1] {
			if f[i] == "time" {
				if ms, _ := strconv.Atoi(f[i+1]); ms < int(time.Hour/time.Millisecond) {
					t.Errorf("time %d ms, want at least an hour: %q", ms, l)
				}
			}
		}
	}
	if infos == 0 || !strings.Contains(text(), "bestmove ") {
		t.Fatalf("no info line or no bestmove: %q", text())
	}
}

// TestReaderReadsAhead: while the command loop is busy (here waiting for a
// long search, as with commands given on the command line), the reader
// goes on reading lines, so that their times are taken as they come.
func TestReaderReadsAhead(t *testing.T) {
	h := newHarnessConfig(t, Config{Version: "test", WaitForSearch: true})
	h.send("position startpos", "go depth 60")
	h.until("info depth 1 ") // the loop now waits for the search
	wrote := make(chan error)
	go func() {
		for range readAhead {
			// A write to the harness's pipe returns once the reader took it.
			if _, err := io.WriteString(h.in, "isready\n"); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(guard):
		t.Fatal("the reader stopped reading while the command loop waited")
	}
	h.eng.Stop()
	h.until("bestmove")
	for range readAhead {
		h.until("readyok")
	}
}

// TestCommandLineGoHasItsOwnClock: commands from the command line are read
// at once, and each go waits for the one before; the clock of a later go
// starts when it is run, not when its line was read, so a second
// movetime search still searches.
func TestCommandLineGoHasItsOwnClock(t *testing.T) {
	h := newHarnessConfig(t, Config{Version: "test", WaitForSearch: true})
	h.send("position startpos", "go movetime 400", "go movetime 400")
	h.until("bestmove")
	second := h.until("bestmove")
	deepest := 0
	for _, l := range second {
		var d int
		if _, err := fmt.Sscanf(l, "info depth %d", &d); err == nil {
			deepest = max(deepest, d)
		}
	}
	if deepest < 4 {
		t.Fatalf("the second go searched to depth %d only: its clock started at the read: %q", deepest, second)
	}
}
