package uci

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kingrook/kingrook/engine"
)

// lockedBuffer is a bytes.Buffer safe for the search's goroutine and the
// test's.
type lockedBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	onWrite func(p []byte) // nil: none
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	if l.onWrite != nil {
		l.onWrite(p)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestWaitForSearchCancel: Run's context ends a go that waits for its
// search (WaitForSearch), with the search's bestmove printed.
func TestWaitForSearchCancel(t *testing.T) {
	e, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := lockedBuffer{onWrite: func(p []byte) {
		if bytes.HasPrefix(p, []byte("info depth 3 ")) {
			cancel() // the search is under way, far from depth 100
		}
	}}
	start := time.Now()
	err = Run(ctx, strings.NewReader("position startpos\ngo depth 100\nisready\n"), &out, e, Config{WaitForSearch: true})
	if !errors.Is(err, context.Canceled) || time.Since(start) > 10*time.Second {
		t.Fatalf("Run returned %v after %v", err, time.Since(start))
	}
	if s := out.String(); strings.Count(s, "bestmove") != 1 || strings.Contains(s, "readyok") {
		t.Fatalf("output: %q", s)
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("the GUI went away") }

// TestRunErrors: nil arguments are errors, and a failing output ends Run
// with the write's error.
func TestRunErrors(t *testing.T) {
	e, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for name, err := range map[string]error{
		"nil context": Run(nil, strings.NewReader("uci\n"), io.Discard, e, Config{}), //nolint:staticcheck // the nil context is the test
		"nil input":   Run(ctx, nil, io.Discard, e, Config{}),
		"nil output":  Run(ctx, strings.NewReader("uci\n"), nil, e, Config{}),
		"nil engine":  Run(ctx, strings.NewReader("uci\n"), io.Discard, nil, Config{}),
	} {
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// The input never ends: Run must stop at the failed write.
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte("uci\nisready\n"))
	if err := Run(ctx, r, failingWriter{}, e, Config{}); err == nil || !strings.Contains(err.Error(), "went away") {
		t.Fatalf("Run with a failing output: %v", err)
	}
}
