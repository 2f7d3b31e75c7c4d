package uci

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
)

// maxMillis caps every time value read from "go" (about 34 years) so that
// converting milliseconds to a time.Duration cannot overflow.
const maxMillis = 1 << 40

// positionCmd is a parsed "position" command.
type positionCmd struct {
	fen   string
	moves []string
}

// parsePosition reads the arguments of "position": startpos or fen <fields>,
// then optionally moves <m>... Unknown tokens before "moves" are returned as
// warnings.
func parsePosition(args []string) (positionCmd, []string, error) {
	var cmd positionCmd
	var warn []string
	if len(args) == 0 {
		return cmd, nil, errors.New("position: expected startpos or fen")
	}
	rest := args[1:]
	switch strings.ToLower(args[0]) {
	case "startpos":
		cmd.fen = movegen.StartFEN
		for len(rest) > 0 && !strings.EqualFold(rest[0], "moves") {
			warn = append(warn, fmt.Sprintf("position: ignored unknown token %q", rest[0]))
			rest = rest[1:]
		}
	case "fen":
		i := 0
		for i < len(rest) && !strings.EqualFold(rest[i], "moves") {
			i++
		}
		if i == 0 {
			return cmd, nil, errors.New("position fen: missing FEN")
		}
		cmd.fen = strings.Join(rest[:i], " ")
		rest = rest[i:]
	default:
		return cmd, nil, fmt.Errorf("position: expected startpos or fen, got %q", args[0])
	}
	if len(rest) > 0 { // rest[0] is "moves"
		cmd.moves = rest[1:]
	}
	return cmd, warn, nil
}

// setOptionCmd is a parsed "setoption" command.
type setOptionCmd struct {
	name, value string
}

// parseSetOption reads "name <id> [value <x>]", the text after
// "setoption", keeping the value's inner spacing (file paths).
func parseSetOption(text string) (setOptionCmd, error) {
	var cmd setOptionCmd
	rest, ok := cutToken(text, "name")
	if !ok {
		return cmd, errors.New("setoption: expected name <id> [value <x>]")
	}
	name, value, hasValue := cutAtToken(rest, "value")
	cmd.name = strings.Join(strings.Fields(name), " ")
	if cmd.name == "" {
		return cmd, errors.New("setoption: missing option name")
	}
	if hasValue {
		cmd.value = strings.TrimSpace(value)
	}
	return cmd, nil
}

// cutToken skips leading white space and tok (case-insensitive, a whole
// token) and returns the rest.
func cutToken(s, tok string) (string, bool) {
	s = strings.TrimLeft(s, " \t\r\n\v\f")
	if len(s) < len(tok) || !strings.EqualFold(s[:len(tok)], tok) {
		return "", false
	}
	rest := s[len(tok):]
	if rest != "" && !isSpace(rest[0]) {
		return "", false
	}
	return rest, true
}

// cutAtToken splits s at the first whole token tok (case-insensitive).
func cutAtToken(s, tok string) (before, after string, found bool) {
	for i := 0; i+len(tok) <= len(s); i++ {
		if (i == 0 || isSpace(s[i-1])) && strings.EqualFold(s[i:i+len(tok)], tok) &&
			(i+len(tok) == len(s) || isSpace(s[i+len(tok)])) {
			return s[:i], s[i+len(tok):], true
		}
	}
	return s, "", false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

// goCmd is a parsed "go" command.
type goCmd struct {
	limits search.Limits
	perft  int // > 0: "go perft N"
	// badPerft: perft was asked with a bad depth; nothing is run.
	badPerft bool
}

// isGoKeyword tells whether s is a parameter of "go" (perft is Kingrook's
// extension).
func isGoKeyword(s string) bool {
	switch strings.ToLower(s) {
	case "searchmoves", "ponder", "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate",
		"movetime", "infinite", "perft":
		return true
	}
	return false
}

// isPerft tells whether the arguments of go ask for perft (which prints
// no bestmove).
func isPerft(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, "perft") })
}

// parseGo reads the arguments of "go". parseMove reads a searchmoves entry.
// Bad values and unknown tokens are skipped with a warning. A bare "go"
// searches until stopped.
func parseGo(args []string, parseMove func(string) (movegen.Move, error)) (goCmd, []string) {
	var cmd goCmd
	var warn []string
	lim := &cmd.limits
	// value reads the number after keyword args[i]; it consumes the next
	// token unless that token is itself a keyword.
	value := func(i *int) (int64, bool) {
		key := args[*i]
		if *i+1 >= len(args) || isGoKeyword(args[*i+1]) {
			warn = append(warn, fmt.Sprintf("go: %s needs a number", key))
			return 0, false
		}
		*i++
		n, err := strconv.ParseInt(args[*i], 10, 64)
		if errors.Is(err, strconv.ErrRange) {
			// A number too big for 64 bits is read as the largest (or
			// smallest) one and clamped like any other: dropping it would
			// turn "go wtime <huge> btime <huge>" into an endless search.
			warn = append(warn, fmt.Sprintf("go: number %q after %s out of range, clamped", truncate(args[*i]), key))
			return n, true
		}
		if err != nil {
			warn = append(warn, fmt.Sprintf("go: bad number %q after %s, ignored", args[*i], key))
			return 0, false
		}
		return n, true
	}
	millis := func(n int64) time.Duration {
		return time.Duration(min(max(n, 0), maxMillis)) * time.Millisecond
	}
	for i := 0; i < len(args); i++ {
		key := strings.ToLower(args[i])
		switch key {
		case "infinite":
			lim.Infinite = true
		case "ponder":
			lim.Ponder = true
		case "wtime", "btime", "winc", "binc":
			n, ok := value(&i)
			if !ok {
				continue
			}
			switch key {
			case "wtime":
				lim.WTime, lim.HasClock = millis(n), true
			case "btime":
				lim.BTime, lim.HasClock = millis(n), true
			case "winc":
				lim.WInc = millis(n)
			case "binc":
				lim.BInc = millis(n)
			}
		case "movetime":
			if n, ok := value(&i); ok {
				if n < 1 {
					warn = append(warn, fmt.Sprintf("go: movetime %d raised to 1", n))
				}
				lim.MoveTime = millis(max(n, 1))
			}
		case "movestogo":
			if n, ok := value(&i); ok {
				if n < 1 || n > math.MaxInt32 {
					warn = append(warn, fmt.Sprintf("go: movestogo %d out of range, ignored", n))
				} else {
					lim.MovesToGo = int(n)
				}
			}
		case "depth":
			if n, ok := value(&i); ok {
				d := min(max(n, 1), eval.MaxPly)
				if d != n {
					warn = append(warn, fmt.Sprintf("go: depth %d out of range, using %d", n, d))
				}
				lim.Depth = int(d)
			}
		case "nodes":
			if n, ok := value(&i); ok {
				if n < 1 {
					warn = append(warn, fmt.Sprintf("go: nodes %d raised to 1", n))
				}
				lim.Nodes = uint64(max(n, 1))
			}
		case "mate":
			if n, ok := value(&i); ok {
				if n < 1 || n > eval.MaxPly {
					warn = append(warn, fmt.Sprintf("go: mate %d out of range, ignored", n))
				} else {
					lim.Mate = int(n)
				}
			}
		case "perft":
			cmd.badPerft = true
			if n, ok := value(&i); ok {
				if n < 1 || n > movegen.MaxPerftDepth {
					warn = append(warn, fmt.Sprintf("go: perft depth %d out of range 1..%d, ignored", n, movegen.MaxPerftDepth))
				} else {
					cmd.perft, cmd.badPerft = int(n), false
				}
			}
		case "searchmoves":
			for i+1 < len(args) && !isGoKeyword(args[i+1]) {
				i++
				m, err := parseMove(args[i])
				if err != nil {
					warn = append(warn, "go searchmoves: "+err.Error()+", ignored")
					continue
				}
				if !slices.Contains(lim.SearchMoves, m) {
					lim.SearchMoves = append(lim.SearchMoves, m)
				}
			}
		default:
			warn = append(warn, fmt.Sprintf("go: ignored unknown token %q", args[i]))
		}
	}
	return cmd, warn
}
