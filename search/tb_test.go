package search

import (
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/syzygy"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// tbDir holds the test tables of the syzygy package (KQvK, KRvK, KBvK, KNvK,
// KPvK, KRvKR, KQvKP, KPvKP; its README says where they come from); the
// values quoted below are Fathom's.
const tbDir = "../eval/syzygy/testdata"

func openTB(t testing.TB) *syzygy.Tables {
	t.Helper()
	tb, err := syzygy.Open(tbDir)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := tb.Count(); n != 8 {
		t.Fatalf("%d tables in %s, want 8", n, tbDir)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

func tbOptions(tb *syzygy.Tables) Options {
	return Options{Threads: 1, MultiPV: 1, Tablebases: tb, ProbeDepth: 1, Rule50: true, ProbeLimit: 7}
}

// TestTBRootFilter: the root keeps only the moves that keep the result.
func TestTBRootFilter(t *testing.T) {
	tb := openTB(t)
	for _, c := range []struct {
		fen  string
		want []string
		wdl  syzygy.WDL
	}{
		{"8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", []string{"e1f2"}, syzygy.Win},  // only Kf2 wins
		{"8/8/8/8/8/2k5/4P3/4K3 b - - 0 1", []string{"c3d4"}, syzygy.Draw}, // only Kd4 draws
		{"8/8/8/8/8/k7/P7/K7 w - - 0 1", []string{"a1b1"}, syzygy.Draw},    // only Kb1 keeps the pawn... and the draw
	} {
		p := NewPool(tt.New(1))
		p.opts = tbOptions(tb)
		pos := mustPos(t, c.fen)
		kept, r, hits := p.tbFilterRoot(pos, p.rootMovesFor(pos, nil))
		var got []string
		for _, m := range kept {
			got = append(got, m.UCI(false))
		}
		if len(got) != len(c.want) || got[0] != c.want[0] || !r.inTables || !r.probeDTZ || r.wdl != c.wdl || hits == 0 {
			t.Errorf("%s: kept %v (%+v, %d hits), want %v (%v)", c.fen, got, r, hits, c.want, c.wdl)
		}
		if p.tbInTree(r) {
			t.Errorf("%s: in-tree probes with the root ranked by DTZ", c.fen)
		}
	}
	// With WDL tables only, the moves are ranked by WDL: all winning moves
	// stay, and the tree is probed since the root is won.
	dir := t.TempDir()
	for _, name := range []string{"KPvK", "KQvK", "KRvK", "KBvK", "KNvK"} {
		b, err := os.ReadFile(filepath.Join(tbDir, name+".rtbw"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".rtbw"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wdlOnly, err := syzygy.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer wdlOnly.Close()
	const all = -1 // every legal move
	for _, c := range []struct {
		fen    string
		want   int
		inTree bool
	}{
		{"8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", 1, true},  // Kf2 alone wins
		{"8/8/8/8/8/2k5/4P3/4K3 b - - 0 1", 1, false}, // Kd4 alone draws
		{"8/8/8/4k3/8/8/8/4K2R w - - 0 1", all, true}, // every move keeps the win
	} {
		p := NewPool(tt.New(1))
		p.opts = tbOptions(wdlOnly)
		pos := mustPos(t, c.fen)
		moves := p.rootMovesFor(pos, nil)
		kept, r, _ := p.tbFilterRoot(pos, moves)
		if !r.inTables || r.probeDTZ || p.tbInTree(r) != c.inTree {
			t.Errorf("WDL only, %s: %+v, in tree %v", c.fen, r, p.tbInTree(r))
		}
		if want := c.want; (want == all && len(kept) != len(moves)) || (want != all && len(kept) != want) {
			t.Errorf("WDL only, %s: kept %d of %d moves, want %d", c.fen, len(kept), len(moves), want)
		}
	}

	// Without tables, or above the probe limit, nothing is filtered.
	p := NewPool(tt.New(1))
	p.opts = tbOptions(tb)
	p.opts.ProbeLimit = 2
	pos := mustPos(t, "8/8/8/8/8/2k5/4P3/4K3 b - - 0 1")
	if kept, r, _ := p.tbFilterRoot(pos, p.rootMovesFor(pos, nil)); len(kept) != 6 || r.inTables {
		t.Errorf("above SyzygyProbeLimit: kept %d moves, %+v", len(kept), r)
	}
}

// TestTBInTree: below a root the tables do not cover, a capture into a
// tablebase win is scored as such and counted in tbhits.
func TestTBInTree(t *testing.T) {
	tb := openTB(t)
	// Rxa8+ leaves KRvK.
	res, infos := run(t, "n6k/8/8/8/8/8/8/R3K3 w - - 0 1", Limits{Depth: 6}, tbOptions(tb))
	last := infos[len(infos)-1]
	if res.BestMove.UCI(false) != "a1a8" || res.Score < tbWin-eval.MaxPly || last.TBHits == 0 {
		t.Errorf("best %v score %d tbhits %d, want a1a8 with a tablebase win", res.BestMove, res.Score, last.TBHits)
	}
	// Two threads share the tables.
	opt2 := tbOptions(tb)
	opt2.Threads = 2
	res, _ = run(t, "n6k/8/8/8/8/8/8/R3K3 w - - 0 1", Limits{Depth: 8}, opt2)
	if res.BestMove.UCI(false) != "a1a8" || res.Score < tbWin-eval.MaxPly {
		t.Errorf("two threads: best %v score %d, want a1a8 with a tablebase win", res.BestMove, res.Score)
	}
	// SyzygyProbeLimit 2 turns the probes off.
	opt := tbOptions(tb)
	opt.ProbeLimit = 2
	_, infos = run(t, "n6k/8/8/8/8/8/8/R3K3 w - - 0 1", Limits{Depth: 6}, opt)
	if hits := infos[len(infos)-1].TBHits; hits != 0 {
		t.Errorf("SyzygyProbeLimit 2: %d tbhits", hits)
	}
}

// TestTBRootScore: a root the tables cover reports their result, unless the
// search sees a mate; the Result's score is the last report's.
func TestTBRootScore(t *testing.T) {
	tb := openTB(t)
	for _, c := range []struct {
		fen  string
		want func(int) bool
	}{
		{"8/8/8/8/8/2k5/4P3/4K3 b - - 0 1", func(s int) bool { return s == 0 }},
		{"8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", func(s int) bool { return s == tbWin-1 }},
		{"8/8/8/8/8/2k5/4P3/4K3 w - - 90 1", func(s int) bool { return s == 1 }}, // DTZ 13: cursed
		{"6k1/8/8/8/8/8/8/K6R b - - 0 1", func(s int) bool { return s == -tbWin+1 || (eval.IsMate(s) && s < 0) }},
		{"7k/8/6K1/8/8/8/8/R7 w - - 0 1", func(s int) bool { return eval.IsMate(s) && eval.MateMoves(s) == 1 }},
	} {
		res, infos := run(t, c.fen, Limits{Depth: 6}, tbOptions(tb))
		if s := infos[len(infos)-1].Score; !c.want(s) || res.Score != s {
			t.Errorf("%s: reported score %d, the result's %d", c.fen, s, res.Score)
		}
	}
}

// playOut plays the engine against itself from fen with a node limit per
// move and returns the result from White's view (1, 0, -1) and the plies.
func playOut(t *testing.T, tb *syzygy.Tables, fen string, nodes uint64) (int, int) {
	t.Helper()
	pos := mustPos(t, fen)
	p := NewPool(tt.New(4))
	for ply := 0; ply < 400; ply++ {
		var l movegen.MoveList
		pos.GenerateLegal(&l)
		switch {
		case l.N == 0 && pos.InCheck():
			if pos.SideToMove() == movegen.White {
				return -1, ply
			}
			return 1, ply
		case l.N == 0, pos.Rule50() >= 100, pos.RepetitionCount() >= 2, pos.InsufficientMaterial():
			return 0, ply
		}
		res := p.Search(context.Background(), pos, Limits{Nodes: nodes}, tbOptions(tb), nil)
		if !pos.IsLegal(res.BestMove) {
			t.Fatalf("%s: illegal move %v at ply %d", fen, res.BestMove, ply)
		}
		pos.Make(res.BestMove)
	}
	t.Fatalf("%s: no result after 400 plies", fen)
	return 0, 0
}

// TestTBPlay: with the tables the engine converts won endings within the
// 50-move rule and holds drawn ones, playing both sides.
func TestTBPlay(t *testing.T) {
	tb := openTB(t)
	nodes := uint64(3000)
	if testing.Short() {
		nodes = 1000
	}
	for _, c := range []struct {
		name, fen string
		want      int
	}{
		{"KQvK win", "8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1", 1},
		{"KRvK win", "8/8/8/4k3/8/8/8/4K2R w - - 0 1", 1},
		{"KRvK win, 60 plies on the clock (DTZ 27)", "8/8/8/4k3/8/8/8/4K2R w - - 60 1", 1},
		{"KRvK black to move", "6k1/8/8/8/8/8/8/K6R b - - 0 1", 1},
		{"KPvK win, only Kf2", "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", 1},
		{"KPvK draw, only Kd4", "8/8/8/8/8/2k5/4P3/4K3 b - - 0 1", 0},
		{"KPvK rook pawn draw", "8/8/8/8/8/k7/P7/K7 w - - 0 1", 0},
		{"KPvK draw, only Kb6", "8/k7/8/8/8/8/1PK5/8 b - - 0 1", 0},
		{"KPvK black pawn win", "4k3/4p3/2K5/8/8/8/8/8 b - - 0 1", -1},
		{"KRvKR draw", "8/8/3k4/8/3r4/8/3K4/7R w - - 0 1", 0},
		{"KRvKR win (skewer)", "8/8/8/8/1k6/8/5K2/r6R w - - 0 1", 1},
	} {
		got, plies := playOut(t, tb, c.fen, nodes)
		if got != c.want {
			t.Errorf("%s (%s): result %d after %d plies, want %d", c.name, c.fen, got, plies, c.want)
		}
	}
}

// TestTBPlayFullSet plays random positions of every 4-piece material of the
// set KINGROOK_SYZYGY_PATH names (KINGROOK_SYZYGY_GAMES per material, 2 by
// default) and checks that the game ends as the tables say (a cursed win or
// blessed loss as a draw).
func TestTBPlayFullSet(t *testing.T) {
	dir := os.Getenv("KINGROOK_SYZYGY_PATH")
	if dir == "" {
		t.Skip("KINGROOK_SYZYGY_PATH is not set: no full tablebase set to play")
	}
	if testing.Short() {
		t.Skip("-short: the games over the full set run without it")
	}
	tb, err := syzygy.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	names, _ := filepath.Glob(filepath.Join(dir, "K*v*.rtbw"))
	perMaterial := 2
	if s := os.Getenv("KINGROOK_SYZYGY_GAMES"); s != "" {
		if perMaterial, err = strconv.Atoi(s); err != nil {
			t.Fatalf("KINGROOK_SYZYGY_GAMES=%q: %v", s, err)
		}
	}
	r := rand.New(rand.NewPCG(5, 9))
	games := 0
	decided := map[bool]int{}
	for _, name := range names {
		material := strings.TrimSuffix(filepath.Base(name), ".rtbw")
		if len(material) != 5 { // "KXvKY" or "KXYvK": four pieces
			continue
		}
		for i := 0; i < perMaterial; i++ {
			pos := randomTBPosition(t, r, material)
			w, ok := tb.ProbeWDL(pos)
			if !ok {
				t.Fatalf("%s: no probe", pos.FEN(false))
			}
			want := 0
			switch w {
			case syzygy.Win:
				want = 1
			case syzygy.Loss:
				want = -1
			}
			if pos.SideToMove() == movegen.Black {
				want = -want
			}
			fen := pos.FEN(false)
			got, plies := playOut(t, tb, fen, 2000)
			games++
			decided[want != 0]++
			if got != want {
				t.Errorf("%s (%v for the side to move): result %d after %d plies, want %d", fen, w, got, plies, want)
			}
		}
	}
	t.Logf("%d games played, %d won, %d drawn", games, decided[true], decided[false])
}

// randomTBPosition places a material such as "KRvKP" at random until the
// position is legal and not decided by a capture on the first move.
func randomTBPosition(t *testing.T, r *rand.Rand, material string) *movegen.Position {
	t.Helper()
	for tries := 0; tries < 100000; tries++ {
		var board [64]byte
		ok := true
		for c, side := range strings.Split(material, "v") {
			for i := 0; i < len(side) && ok; i++ {
				pc := side[i]
				if c == 1 {
					pc += 'a' - 'A'
				}
				sq := r.IntN(64)
				if board[sq] != 0 || ((pc == 'P' || pc == 'p') && (sq < 8 || sq >= 56)) {
					ok = false
					break
				}
				board[sq] = pc
			}
		}
		if !ok {
			continue
		}
		var sb strings.Builder
		for rank := 7; rank >= 0; rank-- {
			empty := 0
			for f := 0; f < 8; f++ {
				if pc := board[rank*8+f]; pc == 0 {
					empty++
				} else {
					if empty > 0 {
						sb.WriteByte(byte('0' + empty))
					}
					empty = 0
					sb.WriteByte(pc)
				}
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
			}
			if rank > 0 {
				sb.WriteByte('/')
			}
		}
		sb.WriteString([]string{" w - - 0 1", " b - - 0 1"}[r.IntN(2)])
		pos := movegen.NewPosition()
		if pos.SetFEN(sb.String()) == nil {
			return pos
		}
	}
	t.Fatalf("no legal position for %s", material)
	return nil
}

// TestTBNotWeakened: a weakened search below full strength plays the
// tablebase positions by its search, without probing; from 2800 up (the
// full search in standard chess) the tables are used as at full strength.
func TestTBNotWeakened(t *testing.T) {
	tb := openTB(t)
	const fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1" // K+R v K
	for _, c := range []struct {
		elo   int
		probe bool
	}{{0, true}, {MinElo, false}, {2200, false}, {2600, false}, {2800, true}} {
		opt := tbOptions(tb)
		opt.Strength = Strength{Elo: c.elo, Seed: 3}
		res, infos := run(t, fen, Limits{Nodes: 20000}, opt)
		if res.BestMove == movegen.NoMove {
			t.Fatalf("UCI_Elo %d: no move", c.elo)
		}
		var hits uint64
		for _, i := range infos {
			hits = max(hits, i.TBHits)
		}
		if (hits > 0) != c.probe {
			t.Errorf("UCI_Elo %d: %d tablebase hits, want probes %v", c.elo, hits, c.probe)
		}
	}
}

// TestTBRootFilterAgainstFathom: with the 5- and 6-piece tables that
// KINGROOK_SYZYGY5_PATH and KINGROOK_SYZYGY6_PATH name (a 6-piece set needs
// the 5-piece one beside it), the moves the root keeps all belong to
// Fathom's best class of the position: its winning moves when there are
// any, else its drawing moves (cursed wins and blessed losses among them),
// else its losing moves. With Syzygy50MoveRule off the same moves are kept
// when a true win exists, and drawing moves when the best is a cursed win or
// a draw. Random positions of every 5- and 6-piece material found, half of
// them with a half-move clock; KINGROOK_SYZYGY_ROOT_POSITIONS per material
// (default 100).
func TestTBRootFilterAgainstFathom(t *testing.T) {
	var dirs []string
	for _, env := range []string{"KINGROOK_SYZYGY6_PATH", "KINGROOK_SYZYGY5_PATH"} {
		if d := os.Getenv(env); d != "" {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		t.Skip("neither KINGROOK_SYZYGY5_PATH nor KINGROOK_SYZYGY6_PATH is set: no 5- or 6-piece tables")
	}
	fathom, err := exec.LookPath("fathom")
	if err != nil {
		if fathom, err = exec.LookPath("/usr/games/fathom"); err != nil {
			t.Skip("fathom is not installed (apt-get install fathom)")
		}
	}
	n := 100
	if testing.Short() {
		n = 10
	}
	if s := os.Getenv("KINGROOK_SYZYGY_ROOT_POSITIONS"); s != "" {
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			t.Fatalf("KINGROOK_SYZYGY_ROOT_POSITIONS=%q: want a positive number", s)
		}
	}
	path := strings.Join(dirs, string(filepath.ListSeparator))
	tb, err := syzygy.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	var materials []string
	for _, d := range strings.Split(path, string(filepath.ListSeparator)) {
		names, _ := filepath.Glob(filepath.Join(d, "*.rtbz"))
		for _, name := range names {
			if m := strings.TrimSuffix(filepath.Base(name), ".rtbz"); len(m) >= 6 && !slices.Contains(materials, m) {
				materials = append(materials, m)
			}
		}
	}
	if len(materials) == 0 {
		t.Fatalf("no 5- or 6-piece DTZ tables in %s", path)
	}
	p := NewPool(tt.New(1))
	p.opts = tbOptions(tb)
	r := rand.New(rand.NewPCG(66, 6))
	classes := map[string]int{}
	for _, material := range materials {
		for i := 0; i < n; i++ {
			pos := randomTBPosition(t, r, material)
			if !pos.HasLegalMove() {
				i--
				continue
			}
			if i%2 == 1 {
				fields := strings.Fields(pos.FEN(false))
				fields[4] = strconv.Itoa(1 + r.IntN(99))
				pos = mustPos(t, strings.Join(fields, " "))
			}
			fen := pos.FEN(false)
			out, err := exec.Command(fathom, "--path="+path, fen).Output()
			if err != nil {
				t.Fatalf("fathom %s: %v", fen, err)
			}
			lists := map[string][]movegen.Move{}
			for _, tag := range []string{"WinningMoves", "DrawingMoves", "LosingMoves"} {
				_, rest, ok := strings.Cut(string(out), "["+tag+" \"")
				if !ok {
					continue
				}
				sans, _, _ := strings.Cut(rest, "\"")
				for _, san := range strings.Split(sans, ", ") {
					if san == "" {
						continue
					}
					m, err := movegen.ParseSAN(pos, san)
					if err != nil {
						t.Fatalf("%s: fathom's %s %q: %v", fen, tag, san, err)
					}
					lists[tag] = append(lists[tag], m)
				}
			}
			best := "LosingMoves"
			if len(lists["WinningMoves"]) > 0 {
				best = "WinningMoves"
			} else if len(lists["DrawingMoves"]) > 0 {
				best = "DrawingMoves"
			}
			classes[best]++
			p.opts.Rule50 = true
			kept, root, _ := p.tbFilterRoot(pos, p.rootMovesFor(pos, nil))
			if !root.inTables || !root.probeDTZ || len(kept) == 0 {
				t.Errorf("%s: kept %d moves, in tables %v, by DTZ %v", fen, len(kept), root.inTables, root.probeDTZ)
				continue
			}
			for _, m := range kept {
				if !slices.Contains(lists[best], m) {
					t.Errorf("%s: keeps %s, not among Fathom's %s %v", fen, m.UCI(false), best, lists[best])
				}
			}
			// Syzygy50MoveRule off: cursed wins count as wins and blessed
			// losses as losses. The quickest win to zero the counter is a
			// true win when there is one, so the same moves are kept; with
			// none, a cursed win (a drawing move to Fathom) or a draw is
			// kept before any loss.
			p.opts.Rule50 = false
			free, _, _ := p.tbFilterRoot(pos, p.rootMovesFor(pos, nil))
			switch {
			case best == "WinningMoves":
				if !slices.Equal(free, kept) {
					t.Errorf("%s: without the 50-move rule keeps %v, with it %v", fen, free, kept)
				}
			case best == "DrawingMoves" && root.wdl >= syzygy.Draw:
				for _, m := range free {
					if !slices.Contains(lists["DrawingMoves"], m) {
						t.Errorf("%s: without the 50-move rule keeps %s, not among Fathom's drawing moves %v", fen, m.UCI(false), lists["DrawingMoves"])
					}
				}
			}
		}
	}
	t.Logf("%d materials (%s), %d positions each: best class winning %d, drawing %d, losing %d",
		len(materials), strings.Join(materials, " "), n, classes["WinningMoves"], classes["DrawingMoves"], classes["LosingMoves"])
}
