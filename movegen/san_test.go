package movegen

import "testing"

// TestParseSAN reads moves in the forms PGN writers use, castling in
// Chess960 included, and refuses illegal, ambiguous and malformed ones.
func TestParseSAN(t *testing.T) {
	cases := []struct{ fen, san, uci string }{
		{StartFEN, "e4", "e2e4"},
		{StartFEN, "Nf3", "g1f3"},
		{StartFEN, "Ng1-f3", "g1f3"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1h1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O", "e1a1"},
		{"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "0-0-0+", "e8a8"},
		{"1r4k1/8/8/8/8/8/8/R1K4R w HAb - 0 1", "O-O", "c1h1"},
		{"6k1/8/8/8/8/8/8/RK5R w HA - 0 1", "O-O-O", "b1a1"},
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6", "e5d6"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=N", "b7b8n"},
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8Q+", "b7b8q"},
		{"2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "bxc8=R+", "b7c8r"},
		{"4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "Rad1", "a1d1"},
		{"4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "R1a3", "a1a3"},
		{"4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "R4a3!?", "a4a3"},
	}
	for _, c := range cases {
		pos := mustPos(t, c.fen)
		m, err := ParseSAN(pos, c.san)
		if err != nil {
			t.Errorf("%s in %s: %v", c.san, c.fen, err)
			continue
		}
		if got := m.UCI(true); got != c.uci {
			t.Errorf("%s in %s: %s, want %s", c.san, c.fen, got, c.uci)
		}
	}
	bad := []struct{ fen, san string }{
		{StartFEN, "e5"},
		{StartFEN, "O-O"},
		{StartFEN, "Nd2"},
		{"6k1/8/8/8/8/8/K7/R6R w - - 0 1", "Rd1"}, // ambiguous
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8"}, // no promotion piece
		{"4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b8=K"},
		{StartFEN, ""},
		{StartFEN, "Qz9"},
	}
	for _, c := range bad {
		pos := mustPos(t, c.fen)
		if m, err := ParseSAN(pos, c.san); err == nil {
			t.Errorf("%q in %s: read as %s", c.san, c.fen, m.UCI(true))
		}
	}
}
