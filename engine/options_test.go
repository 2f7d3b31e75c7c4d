package engine

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
)

func TestOptionsDefaultsMatchSettings(t *testing.T) {
	e := newEngine(t)
	for _, o := range Options() {
		if o.Type == Button {
			continue
		}
		if err := e.SetOption(o.Name, o.Default); err != nil {
			t.Errorf("default of %s rejected: %v", o.Name, err)
		}
	}
	if got := e.Settings(); got != DefaultSettings() {
		t.Errorf("settings after setting every default = %+v, want %+v", got, DefaultSettings())
	}
	want := Settings{Hash: 16, Threads: 1, MultiPV: 1, MoveOverhead: 10 * time.Millisecond, ProbeDepth: 1,
		Rule50: true, ProbeLimit: 7, EvalFile: nnue.EmbeddedName(), UseNNUE: true, Elo: 1000}
	if got := DefaultSettings(); got != want {
		t.Errorf("DefaultSettings() = %+v, want %+v", got, want)
	}
}

func TestOptionLines(t *testing.T) {
	want := []string{
		"option name Hash type spin default 16 min 1 max 65536",
		"option name Threads type spin default 1 min 1 max 256",
		"option name MultiPV type spin default 1 min 1 max 256",
		"option name Ponder type check default false",
		"option name Move Overhead type spin default 10 min 0 max 5000",
		"option name Clear Hash type button",
		"option name UCI_Chess960 type check default false",
		"option name UCI_ShowWDL type check default false",
		"option name UCI_LimitStrength type check default false",
		"option name UCI_Elo type spin default 1000 min 1000 max 2850",
		"option name Seed type spin default 0 min 0 max 2147483647",
		"option name Debug Log File type string default <empty>",
		"option name SyzygyPath type string default <empty>",
		"option name SyzygyProbeDepth type spin default 1 min 1 max 100",
		"option name Syzygy50MoveRule type check default true",
		"option name SyzygyProbeLimit type spin default 7 min 0 max 7",
		"option name EvalFile type string default " + nnue.EmbeddedName(),
		"option name Use NNUE type check default true",
	}
	// A tune build adds the tunable search parameters after these
	// (options_tune_test.go).
	opts := Options()
	if len(opts) != len(want)+len(search.Tunables()) {
		t.Fatalf("%d options, want %d", len(opts), len(want)+len(search.Tunables()))
	}
	for i, o := range opts[:len(want)] {
		if o.String() != want[i] {
			t.Errorf("option %d: got %q, want %q", i, o.String(), want[i])
		}
	}
}

// pythonChessKeywords are where python-chess's UCI option parser
// (chess/engine.py, _option) splits an option line: at each whole word
// name, type, default, min, max or var, wherever it stands.
var pythonChessKeywords = regexp.MustCompile(`\s*\b(name|type|default|min|max|var)\b\s*`)

// readAsPythonChess returns the fields of an option line as python-chess
// reads them: it splits the text after "option" at the keywords, and a
// keyword starts its field unless that field already has a value.
func readAsPythonChess(line string) map[string]string {
	body := strings.TrimSpace(strings.TrimPrefix(line, "option "))
	var tokens []string // as Python's re.split with a capturing group
	last := 0
	for _, l := range pythonChessKeywords.FindAllStringSubmatchIndex(body, -1) {
		tokens = append(tokens, body[last:l[0]], body[l[2]:l[3]])
		last = l[1]
	}
	tokens = append(tokens, body[last:])
	parts := []string{"name", "type", "default", "min", "max"}
	fields := map[string]string{}
	current := ""
	for _, tok := range tokens {
		switch {
		case tok == "var":
			current = tok
		case slices.Contains(parts, tok) && fields[tok] == "":
			current = tok
		case current == "var":
			// The entries of a combo option, which Kingrook has none of.
		case current != "":
			fields[current] = tok
		}
	}
	for k, v := range fields {
		if v == "" {
			delete(fields, k)
		}
	}
	return fields
}

// TestOptionLinesReadByClients: a client that splits option lines at the
// keywords (python-chess does, also inside a word such as default.nnue)
// reads back each name, type, default and range.
func TestOptionLinesReadByClients(t *testing.T) {
	for _, o := range Options() {
		got := readAsPythonChess(o.String())
		want := map[string]string{"name": o.Name, "type": string(o.Type)}
		if o.Type != Button {
			want["default"] = o.Default
		}
		if o.Type == Spin {
			want["min"], want["max"] = o.Range()
		}
		if len(got) != len(want) {
			t.Errorf("%q read as %q, want %q", o.String(), got, want)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("%q: %s read as %q, want %q", o.String(), k, got[k], v)
			}
		}
	}
	// The reader above is python-chess's: it misreads the name the
	// embedded net once had.
	if got := readAsPythonChess("option name EvalFile type string default default.nnue")["default"]; got != ".nnue" {
		t.Errorf("the python-chess reader gives %q for default.nnue, want .nnue", got)
	}
}

func TestSetOption(t *testing.T) {
	tests := []struct {
		name, value string
		ok          bool
		check       func(Settings) bool
	}{
		{"Hash", "64", true, func(s Settings) bool { return s.Hash == 64 }},
		{"hash", " 32 ", true, func(s Settings) bool { return s.Hash == 32 }},
		{"Hash", "0", false, nil},
		{"Hash", "65537", false, nil},
		{"Hash", "abc", false, nil},
		{"Hash", "", false, nil},
		{"Threads", "4", true, func(s Settings) bool { return s.Threads == 4 }},
		{"Threads", "257", false, nil},
		{"MultiPV", "3", true, func(s Settings) bool { return s.MultiPV == 3 }},
		{"multipv", "-1", false, nil},
		{"Ponder", "true", true, func(s Settings) bool { return s.Ponder }},
		{"Ponder", "yes", false, nil},
		{"move overhead", "100", true, func(s Settings) bool { return s.MoveOverhead == 100*time.Millisecond }},
		{"Move  Overhead", "0", true, func(s Settings) bool { return s.MoveOverhead == 0 }},
		{"Move Overhead", "5001", false, nil},
		{"UCI_Chess960", "TRUE", true, func(s Settings) bool { return s.Chess960 }},
		{"uci_showwdl", "true", true, func(s Settings) bool { return s.ShowWDL }},
		{"UCI_LimitStrength", "true", true, func(s Settings) bool { return s.LimitStrength }},
		{"UCI_LimitStrength", "1", false, nil},
		{"UCI_Elo", "1000", true, func(s Settings) bool { return s.Elo == 1000 }},
		{"uci_elo", "1850", true, func(s Settings) bool { return s.Elo == 1850 }},
		{"UCI_Elo", "999", false, nil},
		{"UCI_Elo", "2851", false, nil},
		{"UCI_Elo", "3190", false, nil},
		{"UCI_Elo", "1500.5", false, nil},
		{"Debug Log File", "/tmp/some file.log", true, func(s Settings) bool { return s.DebugLogFile == "/tmp/some file.log" }},
		{"Debug Log File", "<empty>", true, func(s Settings) bool { return s.DebugLogFile == "" }},
		{"Clear Hash", "", true, func(Settings) bool { return true }},
		{"SyzygyPath", "/nonexistent/tables", true, func(s Settings) bool { return s.SyzygyPath == "/nonexistent/tables" }},
		{"syzygyprobedepth", "10", true, func(s Settings) bool { return s.ProbeDepth == 10 }},
		{"SyzygyProbeDepth", "0", false, nil},
		{"SyzygyProbeDepth", "101", false, nil},
		{"Syzygy50MoveRule", "false", true, func(s Settings) bool { return !s.Rule50 }},
		{"SyzygyProbeLimit", "5", true, func(s Settings) bool { return s.ProbeLimit == 5 }},
		{"SyzygyProbeLimit", "8", false, nil},
		{"EvalFile", "/nonexistent/net.nnue", false, nil},
		{"Use NNUE", "false", true, func(s Settings) bool { return !s.UseNNUE }},
		{"NoSuchOption", "1", false, nil},
		{"", "1", false, nil},
	}
	for _, tc := range tests {
		e := newEngine(t)
		before := e.Settings()
		err := e.SetOption(tc.name, tc.value)
		if (err == nil) != tc.ok {
			t.Errorf("SetOption(%q, %q) error = %v, want ok=%v", tc.name, tc.value, err, tc.ok)
			continue
		}
		if verr := ValidateOption(tc.name, tc.value); tc.name != "EvalFile" && (verr == nil) != tc.ok {
			t.Errorf("ValidateOption(%q, %q) = %v, SetOption gave %v", tc.name, tc.value, verr, err)
		}
		if !tc.ok && e.Settings() != before {
			t.Errorf("SetOption(%q, %q) failed but changed the settings", tc.name, tc.value)
		}
		if tc.ok && !tc.check(e.Settings()) {
			t.Errorf("SetOption(%q, %q): settings %+v", tc.name, tc.value, e.Settings())
		}
	}
}

// writeNet writes a copy of the embedded net and a malformed net to dir.
func writeNet(t *testing.T, dir string) (good, bad string) {
	t.Helper()
	good = filepath.Join(dir, "copy.nnue")
	f, err := os.Create(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := nnue.Default().Write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	bad = filepath.Join(dir, "bad.nnue")
	if err := os.WriteFile(bad, []byte("KRNN but not a network"), 0o644); err != nil {
		t.Fatal(err)
	}
	return good, bad
}

// TestEvalFile: EvalFile loads a net file; a missing or malformed file is
// refused and the current net stays; the embedded net's name, the empty
// string and <empty> bring the embedded net back.
func TestEvalFile(t *testing.T) {
	if nnue.DefaultName == "default.nnue" || !strings.HasSuffix(nnue.EmbeddedName(), ".nnue") {
		t.Errorf("the embedded net is called %q: want its own name, a .nnue file name", nnue.EmbeddedName())
	}
	e := newEngine(t)
	if s := e.Settings(); s.EvalFile != nnue.EmbeddedName() {
		t.Fatalf("default EvalFile %q, want %q", s.EvalFile, nnue.EmbeddedName())
	}
	good, bad := writeNet(t, t.TempDir())
	for _, c := range []struct {
		value, wantFile, notice string
		ok                      bool
	}{
		{good, good, "NNUE evaluation using " + good, true},
		{filepath.Join(filepath.Dir(good), "missing.nnue"), good, "", false},
		{bad, good, "", false},
		{nnue.EmbeddedName(), nnue.EmbeddedName(), "(embedded)", true},
		{good, good, "NNUE evaluation using " + good, true},
		{"<empty>", nnue.EmbeddedName(), "(embedded)", true},
		{good, good, "NNUE evaluation using " + good, true},
		{"", nnue.EmbeddedName(), "(embedded)", true},
	} {
		net := e.net
		err := e.SetOption("EvalFile", c.value)
		if (err == nil) != c.ok {
			t.Fatalf("EvalFile %q: error %v, want ok=%v", c.value, err, c.ok)
		}
		if err != nil && (!strings.Contains(err.Error(), "not loaded") || e.net != net) {
			t.Errorf("EvalFile %q: error %q, net changed %v", c.value, err, e.net != net)
		}
		// The cause stays inspectable: a missing file, a malformed one.
		if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, nnue.ErrFormat) {
			t.Errorf("EvalFile %q: error %q wraps neither fs.ErrNotExist nor nnue.ErrFormat", c.value, err)
		}
		if n := e.TakeNotice(); !strings.Contains(n, c.notice) || (c.notice == "") != (n == "") {
			t.Errorf("EvalFile %q: notice %q, want it to contain %q", c.value, n, c.notice)
		}
		if got := e.Settings().EvalFile; got != c.wantFile {
			t.Errorf("EvalFile %q: EvalFile now %q, want %q", c.value, got, c.wantFile)
		}
		if embedded := e.net == nil; embedded != (c.wantFile == nnue.EmbeddedName()) {
			t.Errorf("EvalFile %q: embedded net in use %v", c.value, embedded)
		}
	}
}

// TestUseNNUE: Use NNUE selects the network for the search.
func TestUseNNUE(t *testing.T) {
	e := newEngine(t)
	nodes := map[bool]uint64{}
	for _, use := range []bool{false, true} {
		if err := e.SetOption("use nnue", strconv.FormatBool(use)); err != nil {
			t.Fatal(err)
		}
		e.NewGame()
		done := make(chan search.Result, 1)
		e.Go(search.Limits{Depth: 6}, nil, func(r search.Result) { done <- r })
		r := <-done
		if r.BestMove == movegen.NoMove {
			t.Fatalf("Use NNUE %v: no move", use)
		}
		nodes[use] = r.Nodes
	}
	if nodes[false] == nodes[true] {
		t.Errorf("Use NNUE changes nothing: %d nodes both ways", nodes[false])
	}
}

// TestLimitStrengthOptions: an Elo outside the range is refused and the
// setting in force stays; with UCI_LimitStrength off, UCI_Elo changes
// nothing in the search.
func TestLimitStrengthOptions(t *testing.T) {
	e := newEngine(t)
	for _, set := range [][2]string{{"UCI_LimitStrength", "true"}, {"UCI_Elo", "1500"}} {
		if err := e.SetOption(set[0], set[1]); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []string{"999", "2851", "-1", "x"} {
		if err := e.SetOption("UCI_Elo", v); err == nil {
			t.Errorf("UCI_Elo %s accepted", v)
		}
		if s := e.Settings(); s.Elo != 1500 || !s.LimitStrength {
			t.Fatalf("after UCI_Elo %s: Elo %d, LimitStrength %v; want 1500, true", v, s.Elo, s.LimitStrength)
		}
	}

	best := func(e *Engine) search.Result {
		r := newRecorder()
		e.Go(search.Limits{Depth: 6}, r.info, r.result)
		res := r.wait(t)
		e.Wait()
		return res
	}
	full := newEngine(t)
	full.NewGame()
	off := newEngine(t)
	if err := off.SetOption("UCI_Elo", "1000"); err != nil {
		t.Fatal(err)
	}
	off.NewGame()
	if a, b := best(full), best(off); a != b {
		t.Fatalf("UCI_Elo 1000 without UCI_LimitStrength: %+v, full strength %+v", b, a)
	}
}

// selfPlay plays plies moves of a game from the start, the engine moving
// for both sides under lim, after NewGame and setSeed(seed).
func selfPlay(t *testing.T, e *Engine, seed uint64, plies int, lim search.Limits) []string {
	t.Helper()
	e.NewGame()
	e.setSeed(seed)
	var moves []string
	for range plies {
		if err := e.SetPosition(movegen.StartFEN, moves...); err != nil {
			t.Fatal(err)
		}
		r := newRecorder()
		e.Go(lim, r.info, r.result)
		res := r.wait(t)
		e.Wait()
		if res.BestMove == movegen.NoMove {
			break
		}
		moves = append(moves, res.BestMove.UCI(false))
	}
	return moves
}

// TestLimitStrengthReplays: under UCI_LimitStrength a game replays from
// its seed (set after ucinewgame); other seeds play other games.
func TestLimitStrengthReplays(t *testing.T) {
	e := newEngine(t)
	for _, set := range [][2]string{{"UCI_LimitStrength", "true"}, {"UCI_Elo", "1200"}} {
		if err := e.SetOption(set[0], set[1]); err != nil {
			t.Fatal(err)
		}
	}
	// A clock no search at this setting comes near: the node budget ends it.
	lim := search.Limits{HasClock: true, WTime: time.Hour, BTime: time.Hour, WTimeGiven: true, BTimeGiven: true}
	a := selfPlay(t, e, 42, 20, lim)
	if b := selfPlay(t, e, 42, 20, lim); !slices.Equal(a, b) {
		t.Fatalf("seed 42 played %v, then %v", a, b)
	}
	if c := selfPlay(t, e, 43, 20, lim); slices.Equal(a, c) {
		t.Fatalf("seeds 42 and 43 played the same game %v", a)
	}
}

// TestLimitStrengthChess960: with UCI_Chess960 on, a Chess960 game's
// setting is placed by the Chess960 calibration: the same plan as standard
// chess's at the lowest setting, a smaller one (fewer nodes, same clock) at
// 1400, a larger one at 2200; a game from the standard start keeps
// standard chess's plan.
func TestLimitStrengthChess960(t *testing.T) {
	frc, _ := movegen.Chess960FEN(3)
	nodesAt := func(fen, elo string, chess960 bool) uint64 {
		e := newEngine(t)
		for _, set := range [][2]string{{"UCI_LimitStrength", "true"}, {"UCI_Elo", elo}, {"UCI_Chess960", strconv.FormatBool(chess960)}} {
			if err := e.SetOption(set[0], set[1]); err != nil {
				t.Fatal(err)
			}
		}
		e.NewGame()
		e.setSeed(7)
		if err := e.SetPosition(fen); err != nil {
			t.Fatal(err)
		}
		// A clock no search at these settings comes near: the node budget ends it.
		lim := search.Limits{HasClock: true, WTime: time.Hour, BTime: time.Hour, WTimeGiven: true, BTimeGiven: true}
		r := newRecorder()
		e.Go(lim, r.info, r.result)
		res := r.wait(t)
		e.Wait()
		return res.Nodes
	}
	nodes := func(elo string, chess960 bool) uint64 { return nodesAt(frc, elo, chess960) }
	// 2200: a calibration point where the two plans differ widely.
	if a, b := nodesAt(movegen.StartFEN, "2200", false), nodesAt(movegen.StartFEN, "2200", true); a != b {
		t.Errorf("UCI_Elo 2200 from the standard start: %d nodes with UCI_Chess960 off, %d on; want the same plan", a, b)
	}
	// A budget shows where it lets a search start one more depth, so
	// compare over several start positions: at 2200 never fewer nodes in
	// Chess960 and in all more, at 1400 never more and in all fewer.
	for _, c := range []struct {
		elo  string
		sign int // +1: the Chess960 plan is the larger, -1: the smaller
		want string
	}{{"2200", +1, "larger"}, {"1400", -1, "smaller"}} {
		var stdSum, frcSum uint64
		for _, n := range []int{3, 100, 250, 500, 700, 959} {
			fen, _ := movegen.Chess960FEN(n)
			std, frc := nodesAt(fen, c.elo, false), nodesAt(fen, c.elo, true)
			t.Logf("UCI_Elo %s, start %d: %d nodes in standard chess, %d in Chess960", c.elo, n, std, frc)
			if c.sign*cmp.Compare(frc, std) < 0 {
				t.Errorf("UCI_Elo %s, start %d: %d nodes in standard chess, %d in Chess960; want a %s Chess960 plan or the same",
					c.elo, n, std, frc, c.want)
			}
			stdSum, frcSum = stdSum+std, frcSum+frc
		}
		if c.sign*cmp.Compare(frcSum, stdSum) <= 0 {
			t.Errorf("UCI_Elo %s: %d nodes in standard chess, %d in Chess960 over six starts; want a %s Chess960 plan",
				c.elo, stdSum, frcSum, c.want)
		}
	}
	if std, frc := nodes("1000", false), nodes("1000", true); std != frc {
		t.Errorf("UCI_Elo 1000: %d nodes in standard chess, %d in Chess960; want the same plan", std, frc)
	}
}

// TestSeedOption: with the Seed option set, a weakened game replays move for
// move from ucinewgame (also in another engine); with Seed 0 each game
// draws its own choices.
func TestSeedOption(t *testing.T) {
	game := func(seed string) []string {
		e := newEngine(t)
		for _, set := range [][2]string{{"UCI_LimitStrength", "true"}, {"UCI_Elo", "1000"}, {"Seed", seed}} {
			if err := e.SetOption(set[0], set[1]); err != nil {
				t.Fatal(err)
			}
		}
		e.NewGame()
		var moves []string
		for range 12 {
			if err := e.SetPosition(movegen.StartFEN, moves...); err != nil {
				t.Fatal(err)
			}
			r := newRecorder()
			e.Go(search.Limits{HasClock: true, WTime: time.Hour, BTime: time.Hour, WTimeGiven: true, BTimeGiven: true}, r.info, r.result)
			res := r.wait(t)
			e.Wait()
			moves = append(moves, res.BestMove.UCI(false))
		}
		return moves
	}
	a, b := game("12345"), game("12345")
	if strings.Join(a, " ") != strings.Join(b, " ") {
		t.Errorf("Seed 12345 played %v, then %v", a, b)
	}
	differ := 0
	for range 3 {
		if strings.Join(game("0"), " ") != strings.Join(a, " ") {
			differ++
		}
	}
	if differ < 2 {
		t.Errorf("Seed 0: %d of 3 games differed from the seeded one", differ)
	}
	if e := newEngine(t); e.SetOption("Seed", "-1") == nil || e.SetOption("Seed", "2147483648") == nil {
		t.Errorf("a Seed outside 0..2147483647 was accepted")
	}
}
