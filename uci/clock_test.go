package uci

import "testing"

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
