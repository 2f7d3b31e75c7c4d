package syzygy

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// testdata holds a few tables of the 3- and 4-piece set (see its README)
// and fathom.txt, Fathom's answers for positions they cover.
const testDir = "testdata"

// regenEnv set to 1 makes the Regenerate tests rewrite the recorded answers.
const regenEnv = "KINGROOK_SYZYGY_REGEN"

func openTest(t testing.TB) *Tables {
	t.Helper()
	tb, err := Open(testDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

func mustPos(t testing.TB, fen string) *movegen.Position {
	t.Helper()
	pos := movegen.NewPosition()
	if err := pos.SetFEN(fen); err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return pos
}

type expected struct {
	fen  string
	want fathomResult
}

// readExpected reads testdata/fathom.txt.
func readExpected(t testing.TB) []expected {
	t.Helper()
	return readAnswers(t, filepath.Join(testDir, "fathom.txt"), 100)
}

// readAnswers reads a file of Fathom's answers, one position a line:
// FEN|WDL|DTZ|win draw loss|moves (fathomResult.moves; the last field may
// be left out). It fails the test when the file holds fewer than min.
func readAnswers(t testing.TB, path string, min int) []expected {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var list []expected
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 4 && len(parts) != 5 {
			t.Fatalf("%s: bad line %q", path, line)
		}
		var e expected
		e.fen, e.want.wdl = parts[0], parts[1]
		e.want.dtz, err = strconv.Atoi(parts[2])
		if err != nil {
			t.Fatalf("%s: bad line %q", path, line)
		}
		if _, err := fmt.Sscan(parts[3], &e.want.win, &e.want.draw, &e.want.loss); err != nil {
			t.Fatalf("%s: bad line %q", path, line)
		}
		if len(parts) == 5 {
			e.want.moves = parts[4]
		}
		list = append(list, e)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if len(list) < min {
		t.Fatalf("only %d positions in %s, want at least %d", len(list), path, min)
	}
	return list
}

// formatAnswer writes one line of a file readAnswers reads.
func formatAnswer(fen string, want fathomResult) string {
	return fmt.Sprintf("%s|%s|%d|%d %d %d|%s\n", fen, want.wdl, want.dtz, want.win, want.draw, want.loss, want.moves)
}

// TestRegenerateExpected rewrites testdata/fathom.txt from Fathom when
// KINGROOK_SYZYGY_REGEN=1 (with KINGROOK_SYZYGY_PATH naming the full set).
func TestRegenerateExpected(t *testing.T) {
	dir, bin := os.Getenv(pathEnv), fathomPath()
	if os.Getenv(regenEnv) != "1" || dir == "" || bin == "" {
		t.Skip("set " + regenEnv + "=1 and " + pathEnv + ", and install fathom, to rewrite testdata/fathom.txt")
	}
	tb := openTest(t)
	r := rand.New(rand.NewPCG(7, 7))
	var sb strings.Builder
	sb.WriteString("# Fathom's answers (FEN|WDL|DTZ|winning drawing losing moves|every move as SAN:class and WDL\n")
	sb.WriteString("# value) for random positions the tables in this directory cover; made by TestRegenerateExpected.\n")
	for _, m := range []struct {
		material string
		ep       bool
	}{{"KQvK", false}, {"KRvK", false}, {"KPvK", false}, {"KRvKR", false}, {"KQvKP", false}, {"KPvKP", false}, {"KPvKP", true}} {
		for n := 0; n < 40; {
			rule50 := 0
			if !m.ep && r.IntN(4) == 0 {
				rule50 = 1 + r.IntN(99)
			}
			pos, err := randomPosition(r, m.material, m.ep, rule50)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := ours(tb, pos); !ok {
				continue // needs a table testdata does not hold
			}
			fen := pos.FEN(false)
			want, err := runFathom(bin, dir, fen)
			if err != nil {
				t.Fatal(err)
			}
			sb.WriteString(formatAnswer(fen, want))
			n++
		}
	}
	if err := os.WriteFile(filepath.Join(testDir, "fathom.txt"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestOpenCounts(t *testing.T) {
	tb := openTest(t)
	if w, z := tb.Count(); w != 8 || z != 8 {
		t.Errorf("Count() = %d, %d, want 8, 8", w, z)
	}
	if tb.MaxPieces() != 4 {
		t.Errorf("MaxPieces() = %d, want 4", tb.MaxPieces())
	}
	for _, p := range []string{"", "<empty>"} {
		tb, err := Open(p)
		if w, z := tb.Count(); err != nil || w != 0 || z != 0 {
			t.Errorf("Open(%q) = %d, %d tables, %v", p, w, z, err)
		}
	}
	tb2, err := Open(filepath.Join(t.TempDir(), "nowhere") + string(filepath.ListSeparator) + testDir)
	if err == nil {
		t.Error("Open with a missing directory: no error")
	}
	if w, _ := tb2.Count(); w != 8 {
		t.Errorf("the readable directory of the list gave %d WDL tables, want 8", w)
	}
}

// TestAgainstRecordedFathom checks every position of fathom.txt, through the
// memory map and through ReadAt.
func TestAgainstRecordedFathom(t *testing.T) {
	list := readExpected(t)
	for _, readAt := range []bool{false, true} {
		tb, err := open(testDir, readAt)
		if err != nil {
			t.Fatal(err)
		}
		mismatches := 0
		for _, e := range list {
			got, ok := ours(tb, mustPos(t, e.fen))
			if !ok || !e.want.matches(got) {
				mismatches++
				t.Errorf("readAt=%v %s: got %+v (ok %v), fathom %+v", readAt, e.fen, got, ok, e.want)
			}
		}
		tb.Close()
		t.Logf("readAt=%v: %d positions, %d mismatches", readAt, len(list), mismatches)
	}
}

func TestKnownValues(t *testing.T) {
	tb := openTest(t)
	for _, c := range []struct {
		fen string
		wdl WDL
		dtz int
	}{
		{"8/8/8/8/8/2k5/4P3/4K3 w - - 0 1", Win, 13},
		{"8/8/8/8/8/2k5/4P3/4K3 b - - 0 1", Draw, 0},
		{"k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", Draw, 0},  // stalemate
		{"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", Loss, -1}, // mated
		{"8/8/8/8/8/8/8/K1k2R2 b - - 0 1", Loss, -24},
		{"8/8/8/8/8/2k5/8/K3R2r w - - 0 1", Win, 1}, // Rxh1 wins
		{"8/8/8/8/8/2k5/8/K3R2r b - - 0 1", Win, 1}, // Rxe1+ wins
		{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", Draw, 0},
	} {
		pos := mustPos(t, c.fen)
		before := pos.FEN(false)
		w, ok := tb.ProbeWDL(pos)
		if !ok || w != c.wdl {
			t.Errorf("%s: ProbeWDL = %v, %v, want %v", c.fen, w, ok, c.wdl)
		}
		d, ok := tb.ProbeDTZ(pos)
		if !ok || d != c.dtz {
			t.Errorf("%s: ProbeDTZ = %d, %v, want %d", c.fen, d, ok, c.dtz)
		}
		if pos.FEN(false) != before {
			t.Errorf("%s: probing changed the position to %s", c.fen, pos.FEN(false))
		}
	}
}

func TestNotProbed(t *testing.T) {
	tb := openTest(t)
	for _, fen := range []string{
		"r3k3/8/8/8/8/8/8/4K3 b q - 0 1",    // castling rights
		"8/8/8/8/8/2k5/4P3/4K1N1 w - - 0 1", // KNPvK: not in testdata
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
	} {
		pos := mustPos(t, fen)
		if _, ok := tb.ProbeWDL(pos); ok {
			t.Errorf("%s: ProbeWDL succeeded", fen)
		}
		if _, ok := tb.ProbeDTZ(pos); ok {
			t.Errorf("%s: ProbeDTZ succeeded", fen)
		}
	}
	var none *Tables
	if _, ok := none.ProbeWDL(mustPos(t, "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1")); ok {
		t.Error("nil Tables probed")
	}
}

func TestWDLFromDTZ(t *testing.T) {
	for _, c := range []struct {
		dtz, rule50 int
		want        WDL
	}{
		{13, 0, Win}, {13, 87, Win}, {13, 88, CursedWin}, {101, 0, CursedWin}, {0, 50, Draw},
		{-1, 0, Loss}, {-40, 60, Loss}, {-40, 61, BlessedLoss}, {-101, 0, BlessedLoss},
	} {
		if got := WDLFromDTZ(c.dtz, c.rule50); got != c.want {
			t.Errorf("WDLFromDTZ(%d, %d) = %v, want %v", c.dtz, c.rule50, got, c.want)
		}
	}
}

// TestIndexTables checks the counts the encoding relies on.
func TestIndexTables(t *testing.T) {
	seen := map[int]bool{}
	for i := range kingPair {
		for _, v := range kingPair[i] {
			if v >= 0 {
				if seen[v] {
					t.Fatalf("king pair code %d twice", v)
				}
				seen[v] = true
			}
		}
	}
	if len(seen) != 462 {
		t.Errorf("%d king pair codes, want 462", len(seen))
	}
	if binomial[3][48] != 17296 || binomial[6][63] != 67945521 {
		t.Errorf("binomial: C(48,3) = %d, C(63,6) = %d", binomial[3][48], binomial[6][63])
	}
	// One leading pawn: 6 ranks per file, 24 placements in all.
	var n uint64
	for f := 0; f < 4; f++ {
		n += leadPawnsSize[1][f]
	}
	if n != 24 {
		t.Errorf("one leading pawn: %d placements, want 24", n)
	}
}

// TestCorruptTables damages copies of the tables (truncated, bytes flipped)
// and probes them: no panic, and a table that cannot be read is missing.
func TestCorruptTables(t *testing.T) {
	list := readExpected(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, name := range []string{"KQvK", "KPvK", "KRvKR", "KPvKP"} {
		for _, ext := range []string{".rtbw", ".rtbz"} {
			orig, err := os.ReadFile(filepath.Join(testDir, name+ext))
			if err != nil {
				t.Fatal(err)
			}
			for trial := 0; trial < 12; trial++ {
				dir := t.TempDir()
				for _, other := range []string{"KQvK", "KRvK", "KPvK", "KPvKP", "KRvKR", "KQvKP", "KBvK", "KNvK"} {
					for _, e := range []string{".rtbw", ".rtbz"} {
						if other+e == name+ext {
							continue
						}
						b, _ := os.ReadFile(filepath.Join(testDir, other+e))
						os.WriteFile(filepath.Join(dir, other+e), b, 0o644)
					}
				}
				bad := append([]byte(nil), orig...)
				switch trial % 3 {
				case 0: // truncated
					bad = bad[:r.IntN(len(bad))]
				case 1: // a few bytes changed in the header
					for k := 0; k < 4; k++ {
						bad[r.IntN(min(len(bad), 512))] = byte(r.IntN(256))
					}
				default: // bytes changed anywhere
					for k := 0; k < 16; k++ {
						bad[r.IntN(len(bad))] = byte(r.IntN(256))
					}
				}
				os.WriteFile(filepath.Join(dir, name+ext), bad, 0o644)
				tb, err := Open(dir)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range list {
					ours(tb, mustPos(t, e.fen)) // must not panic
				}
				if trial%3 == 0 && len(bad) < 16 {
					pos := mustPos(t, "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1")
					if name == "KPvK" && ext == ".rtbw" {
						if _, ok := tb.ProbeWDL(pos); ok {
							t.Errorf("a %d-byte %s%s was probed", len(bad), name, ext)
						}
					}
				}
				tb.Close()
			}
		}
	}
}

func TestConcurrentProbes(t *testing.T) {
	list := readExpected(t)
	tb := openTest(t)
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < len(list); i += 2 {
				e := list[i]
				got, ok := ours(tb, mustPos(t, e.fen))
				if !ok || !e.want.matches(got) {
					t.Errorf("%s: got %+v, fathom %+v", e.fen, got, e.want)
				}
			}
		}(g)
	}
	wg.Wait()
}

// BenchmarkProbeWDL measures WDL probes per second on one thread over the
// positions of fathom.txt (tables already loaded).
func BenchmarkProbeWDL(b *testing.B) {
	list := readExpected(b)
	tb := openTest(b)
	var positions []*movegen.Position
	for _, e := range list {
		positions = append(positions, mustPos(b, e.fen))
	}
	for _, p := range positions {
		tb.ProbeWDL(p)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.ProbeWDL(positions[i%len(positions)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}

// BenchmarkProbeDTZ measures DTZ probes the same way.
func BenchmarkProbeDTZ(b *testing.B) {
	list := readExpected(b)
	tb := openTest(b)
	var positions []*movegen.Position
	for _, e := range list {
		positions = append(positions, mustPos(b, e.fen))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.ProbeDTZ(positions[i%len(positions)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
}
