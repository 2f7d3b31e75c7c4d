package bench

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// ArgsUsage is the synopsis of ParseArgs' arguments.
const ArgsUsage = "[hash [threads [limit [default|current|FILE [depth|nodes|movetime]]]]]"

// ParseArgs reads the benchmark's positional arguments in Stockfish's order,
// every one optional from the right:
//
//	hash     transposition table MiB (16)
//	threads  search threads (1)
//	limit    the limit per position (13), of the type given last
//	fens     "default" (the fixed positions), "current" (the position
//	         current, when the caller has one) or a file of FENs, one per
//	         line (blank lines and lines starting with # are skipped)
//	type     "depth" (plies, the default), "nodes" or "movetime" (ms)
//
// "bench 16 1 13 default depth" is the plain benchmark. current is the FEN
// that "current" stands for; empty when there is none.
func ParseArgs(args []string, current string) (Config, error) {
	var cfg Config
	if len(args) > 5 {
		return cfg, fmt.Errorf("too many arguments %q: want %s", args, ArgsUsage)
	}
	arg := func(i int) (string, bool) {
		if i < len(args) {
			return args[i], true
		}
		return "", false
	}
	number := func(name, s string, lo, hi int64) (int64, error) {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("bad %s %q: want a number in %d..%d", name, s, lo, hi)
		}
		return n, nil
	}
	if s, ok := arg(0); ok {
		n, err := number("hash", s, tt.MinMB, tt.MaxMB)
		if err != nil {
			return cfg, err
		}
		cfg.Hash = int(n)
	}
	if s, ok := arg(1); ok {
		n, err := number("threads", s, 1, search.MaxThreads)
		if err != nil {
			return cfg, err
		}
		cfg.Threads = int(n)
	}
	if s, ok := arg(3); ok {
		switch s {
		case "default":
		case "current":
			if current == "" {
				return cfg, fmt.Errorf(`"current" needs a position: use it inside a UCI session`)
			}
			cfg.Positions = []string{current}
		default:
			list, err := ReadPositions(s)
			if err != nil {
				return cfg, err
			}
			cfg.Positions = list
		}
	}
	limitType := "depth"
	if s, ok := arg(4); ok {
		limitType = s
	}
	if s, ok := arg(2); ok {
		switch limitType {
		case "depth":
			n, err := number("depth", s, 1, eval.MaxPly)
			if err != nil {
				return cfg, err
			}
			cfg.Depth = int(n)
		case "nodes":
			n, err := number("node limit", s, 1, 1<<50)
			if err != nil {
				return cfg, err
			}
			cfg.Nodes = uint64(n)
		case "movetime":
			n, err := number("movetime", s, 1, 24*3600*1000)
			if err != nil {
				return cfg, err
			}
			cfg.MoveTime = time.Duration(n) * time.Millisecond
		}
	}
	switch limitType {
	case "depth", "nodes", "movetime":
	default:
		return cfg, fmt.Errorf("bad limit type %q: want depth, nodes or movetime", limitType)
	}
	return cfg, nil
}

// ReadPositions reads a file of FENs, one per line; blank lines and lines
// starting with # are skipped. A FEN that SetFEN refuses is an error that
// names its line.
func ReadPositions(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var list []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	pos := movegen.NewPosition()
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		// Checked here, so that a bad line is refused before anything is
		// searched (exit 2 on the command line, an info string in UCI).
		if err := pos.SetFEN(line); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		list = append(list, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s: no positions", path)
	}
	return list, nil
}
