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
// Bad values and unknown tokens are skipped with a warning. A go that sets
// no limit (a bare "go", or one with only searchmoves, movestogo or the
// increments) is "go infinite", as the UCI specification says: no bestmove
// before stop.
func parseGo(args []string, parseMove func(string) (movegen.Move, error)) (goCmd, []string) {
	var cmd goCmd
	g := goParser{args: args}
	lim := &cmd.limits
	for ; g.i < len(args); g.i++ {
		key := strings.ToLower(args[g.i])
		switch key {
		case "infinite":
			lim.Infinite = true
		case "ponder":
			lim.Ponder = true
		case "wtime", "btime", "winc", "binc":
			g.clock(lim, key)
		case "movetime":
			if n, ok := g.atLeastOne(key); ok {
				lim.MoveTime = millis(n)
			}
		case "movestogo":
			if n, ok := g.inRange(key, 1, math.MaxInt32); ok {
				lim.MovesToGo = int(n)
			}
		case "depth":
			if n, ok := g.value(); ok {
				d := min(max(n, 1), eval.MaxPly)
				if d != n {
					g.warnf("go: depth %d out of range, using %d", n, d)
				}
				lim.Depth = int(d)
			}
		case "nodes":
			if n, ok := g.atLeastOne(key); ok {
				lim.Nodes = uint64(n)
			}
		case "mate":
			if n, ok := g.inRange(key, 1, eval.MaxPly); ok {
				lim.Mate = int(n)
			}
		case "perft":
			g.perft(&cmd)
		case "searchmoves":
			g.searchMoves(lim, parseMove)
		default:
			g.warnf("go: ignored unknown token %q", args[g.i])
		}
	}
	if !lim.Ponder && !hasLimit(*lim) {
		lim.Infinite = true
	}
	return cmd, g.warn
}

// hasLimit tells whether a search ends by itself: it is neither infinite
// nor pondering and has a depth, node, mate, time or clock limit.
func hasLimit(l search.Limits) bool {
	return !l.Infinite && !l.Ponder && (l.Depth > 0 || l.Nodes > 0 || l.Mate > 0 || l.MoveTime > 0 || l.HasClock)
}

// goParser walks the tokens of "go", args[i] being the current one, and
// collects the warnings.
type goParser struct {
	args []string
	i    int
	warn []string
}

func (g *goParser) warnf(format string, a ...any) {
	g.warn = append(g.warn, fmt.Sprintf(format, a...))
}

// value reads the number after the keyword args[i]; it consumes the next
// token unless that token is itself a keyword.
func (g *goParser) value() (int64, bool) {
	key := g.args[g.i]
	if g.i+1 >= len(g.args) || isGoKeyword(g.args[g.i+1]) {
		g.warnf("go: %s needs a number", key)
		return 0, false
	}
	g.i++
	n, err := strconv.ParseInt(g.args[g.i], 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		// A number too big for 64 bits is read as the largest (or
		// smallest) one and clamped like any other: dropping it would
		// turn "go wtime <huge> btime <huge>" into an endless search.
		g.warnf("go: number %q after %s out of range, clamped", truncate(g.args[g.i]), key)
		return n, true
	}
	if err != nil {
		g.warnf("go: bad number %q after %s, ignored", g.args[g.i], key)
		return 0, false
	}
	return n, true
}

// atLeastOne reads the number after key, raising it to 1 with a warning.
func (g *goParser) atLeastOne(key string) (int64, bool) {
	n, ok := g.value()
	if ok && n < 1 {
		g.warnf("go: %s %d raised to 1", key, n)
		n = 1
	}
	return n, ok
}

// inRange reads the number after key; one outside lo..hi is ignored with a
// warning.
func (g *goParser) inRange(key string, lo, hi int64) (int64, bool) {
	n, ok := g.value()
	if ok && (n < lo || n > hi) {
		g.warnf("go: %s %d out of range, ignored", key, n)
		return 0, false
	}
	return n, ok
}

// clock reads wtime, btime, winc or binc.
func (g *goParser) clock(lim *search.Limits, key string) {
	n, ok := g.value()
	if !ok {
		return
	}
	switch key {
	case "wtime":
		lim.WTime, lim.HasClock, lim.WTimeGiven = millis(n), true, true
	case "btime":
		lim.BTime, lim.HasClock, lim.BTimeGiven = millis(n), true, true
	case "winc":
		lim.WInc = millis(n)
	case "binc":
		lim.BInc = millis(n)
	}
}

// perft reads the depth of "go perft"; a missing or bad one leaves
// badPerft set, so that nothing is run.
func (g *goParser) perft(cmd *goCmd) {
	cmd.badPerft = true
	if n, ok := g.value(); ok {
		if n < 1 || n > movegen.MaxPerftDepth {
			g.warnf("go: perft depth %d out of range 1..%d, ignored", n, movegen.MaxPerftDepth)
		} else {
			cmd.perft, cmd.badPerft = int(n), false
		}
	}
}

// searchMoves reads the moves after searchmoves, up to the next keyword.
func (g *goParser) searchMoves(lim *search.Limits, parseMove func(string) (movegen.Move, error)) {
	for g.i+1 < len(g.args) && !isGoKeyword(g.args[g.i+1]) {
		g.i++
		m, err := parseMove(g.args[g.i])
		if err != nil {
			g.warn = append(g.warn, "go searchmoves: "+err.Error()+", ignored")
			continue
		}
		if !slices.Contains(lim.SearchMoves, m) {
			lim.SearchMoves = append(lim.SearchMoves, m)
		}
	}
}

// millis converts milliseconds to a duration, clamped to 0..maxMillis.
func millis(n int64) time.Duration {
	return time.Duration(min(max(n, 0), maxMillis)) * time.Millisecond
}
