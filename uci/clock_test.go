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
