package syzygy

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// testdata/five holds the WDL tables of two 5-piece materials and of the
// 4-piece materials their captures lead to (see testdata/README.md), and
// fathom.txt, Fathom's answers for positions of five 5-piece materials: the
// two whose tables are here, checked by WDL without further tables, and
// KRPvKR, KRBvKR, KRNvKR, whose tables (and every DTZ table) are checked
// when KINGROOK_SYZYGY5_PATH or KINGROOK_SYZYGY_PATH names a set that holds
// them.
const fiveDir = "testdata/five"

// fiveMaterials are the materials of testdata/five/fathom.txt and how many
// positions of each TestRegenerateFive records.
var fiveMaterials = []struct {
	name string
	n    int
}{{"KQRvKR", 50}, {"KRRvKR", 50}, {"KRPvKR", 40}, {"KRBvKR", 20}, {"KRNvKR", 20}}

// openFive opens the test tables with those of testdata/five.
func openFive(t testing.TB, readAt bool) *Tables {
	t.Helper()
	tb, err := open(testDir+string(filepath.ListSeparator)+fiveDir, readAt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tb.Close() })
	return tb
}

func readFive(t testing.TB) []expected {
	t.Helper()
	return readAnswers(t, filepath.Join(fiveDir, "fathom.txt"), 150)
}

// materialName names the material of pos with White's pieces first, as in
// a table's file name (KRPvKR).
func materialName(pos *movegen.Position) string {
	var sb strings.Builder
	for _, c := range []movegen.Color{movegen.White, movegen.Black} {
		if c == movegen.Black {
			sb.WriteByte('v')
		}
		sb.WriteByte('K')
		for _, pt := range []movegen.PieceType{movegen.Queen, movegen.Rook, movegen.Bishop, movegen.Knight, movegen.Pawn} {
			for i := pos.Count(movegen.MakePiece(c, pt)); i > 0; i-- {
				sb.WriteString(movegen.MakePiece(movegen.White, pt).String())
			}
		}
	}
	return sb.String()
}

// hasTable tells whether one of the directories holds the table of a
// material (either colour first) with the extension ext.
func hasTable(dirs []string, material, ext string) bool {
	white, black, _ := strings.Cut(material, "v")
	for _, dir := range dirs {
		for _, name := range []string{material, black + "v" + white} {
			if _, err := os.Stat(filepath.Join(dir, name+ext)); err == nil {
				return true
			}
		}
	}
	return false
}

// fiveSetDirs is the list of directories the environment names for the
// tables testdata lacks.
func fiveSetDirs() []string {
	var dirs []string
	for _, env := range []string{path5Env, pathEnv} {
		if d := os.Getenv(env); d != "" {
			dirs = append(dirs, filepath.SplitList(d)...)
		}
	}
	return dirs
}

// TestRegenerateFive rewrites testdata/five/fathom.txt from Fathom when
// KINGROOK_SYZYGY_REGEN=1, with KINGROOK_SYZYGY5_PATH naming a set that holds
// every material of fiveMaterials: random positions, each side to move in
// half of them and a half-move clock in half of those, none without a legal
// move (Fathom misreports a mated side).
func TestRegenerateFive(t *testing.T) {
	dir, bin := os.Getenv(path5Env), fathomPath()
	if os.Getenv(regenEnv) != "1" || dir == "" || bin == "" {
		t.Skip("set " + regenEnv + "=1 and " + path5Env + ", and install fathom, to rewrite testdata/five/fathom.txt")
	}
	version := "version unknown"
	if out, err := exec.Command("dpkg-query", "-W", "-f=${Version}", "fathom").Output(); err == nil {
		version = string(out)
	}
	r := rand.New(rand.NewPCG(5, 55))
	var sb strings.Builder
	fmt.Fprintf(&sb, "# Fathom's answers (Debian package fathom %s) for random 5-piece positions:\n", version)
	sb.WriteString("# FEN|WDL|DTZ|winning drawing losing moves|every move as SAN:class and WDL value.\n")
	fmt.Fprintf(&sb, "# Made by TestRegenerateFive (five_test.go) with the set in %s/.\n", filepath.Base(dir))
	for _, m := range fiveMaterials {
		for i := 0; i < m.n; {
			rule50 := 0
			if i/2%2 == 1 {
				rule50 = 1 + r.IntN(99)
			}
			pos, err := randomPositionFor(r, m.name, movegen.Color(i%2), false, rule50)
			if err != nil {
				t.Fatal(err)
			}
			if !pos.HasLegalMove() {
				continue
			}
			fen := pos.FEN(false)
			want, err := runFathom(bin, dir, fen)
			if err != nil {
				t.Fatal(err)
			}
			sb.WriteString(formatAnswer(fen, want))
			i++
		}
	}
	if err := os.WriteFile(filepath.Join(fiveDir, "fathom.txt"), []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRecordedFiveWDL checks, with the committed tables only, the WDL value
// of every recorded position whose material testdata/five holds, and of
// every move from it, through the memory map and through ReadAt.
func TestRecordedFiveWDL(t *testing.T) {
	list := readFive(t)
	dirs := []string{testDir, fiveDir}
	for _, readAt := range []bool{false, true} {
		tb := openFive(t, readAt)
		checked := map[string]int{}
		for _, e := range list {
			pos := mustPos(t, e.fen)
			material := materialName(pos)
			if !hasTable(dirs, material, ".rtbw") {
				if _, ok := tb.ProbeWDL(pos); ok {
					t.Errorf("%s: probed without a %s table", e.fen, material)
				}
				continue
			}
			checked[material]++
			want, err := moveWDLs(e.want.moves)
			if err != nil {
				t.Fatal(err)
			}
			root, moves, ok := oursWDL(tb, pos)
			switch {
			case !ok:
				t.Errorf("readAt=%v %s: no probe", readAt, e.fen)
			case root != e.want.tableWDL():
				t.Errorf("readAt=%v %s: ProbeWDL = %v, want %v (Fathom: %s, DTZ %d)", readAt, e.fen, root, e.want.tableWDL(), e.want.wdl, e.want.dtz)
			case fmt.Sprint(moves) != fmt.Sprint(want):
				t.Errorf("readAt=%v %s: moves' WDL %v, Fathom %v", readAt, e.fen, moves, want)
			}
		}
		if checked["KQRvKR"] < 40 || checked["KRRvKR"] < 40 {
			t.Errorf("readAt=%v: only %v positions checked", readAt, checked)
		}
	}
}

// TestRecordedFive checks every recorded 5-piece answer in full (WDL, DTZ,
// every move's class and WDL value) with the set the environment names.
func TestRecordedFive(t *testing.T) {
	dirs := fiveSetDirs()
	if len(dirs) == 0 {
		t.Skipf("neither %s nor %s is set: the DTZ tables and KRPvKR, KRBvKR, KRNvKR are too large for testdata", path5Env, pathEnv)
	}
	var missing []string
	present := map[string]bool{}
	for _, m := range fiveMaterials {
		present[m.name] = hasTable(dirs, m.name, ".rtbw") && hasTable(dirs, m.name, ".rtbz")
		if !present[m.name] {
			missing = append(missing, m.name)
		}
	}
	if len(missing) == len(fiveMaterials) {
		t.Skipf("%s hold no 5-piece tables of %v", strings.Join(dirs, ", "), missing)
	}
	if len(missing) > 0 {
		t.Logf("%s lack the tables of %v: their positions are left out", strings.Join(dirs, ", "), missing)
	}
	tb, err := Open(strings.Join(dirs, string(filepath.ListSeparator)))
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	checked := 0
	for _, e := range readFive(t) {
		pos := mustPos(t, e.fen)
		if !present[materialName(pos)] {
			continue
		}
		checked++
		got, ok := ours(tb, pos)
		if !ok || !e.want.matches(got) {
			t.Errorf("%s: got %+v (ok %v), fathom %+v", e.fen, got, ok, e.want)
		}
	}
	t.Logf("%d recorded 5-piece positions checked", checked)
}

// TestProbeWDLNoAllocs: a WDL probe of a loaded 5-piece table allocates
// nothing, whether it resolves captures or not.
func TestProbeWDLNoAllocs(t *testing.T) {
	tb := openFive(t, false)
	for _, fen := range []string{
		"8/8/8/3k4/8/8/1R3r2/KQ6 w - - 0 1",  // KQRvKR, Rxf2 wins
		"8/8/8/3k4/8/8/1R3r2/KQ6 b - - 0 1",  // KQRvKR, Rxb2 is possible
		"8/R7/5k2/3R4/1K6/8/8/6r1 w - - 0 1", // KRRvKR, no capture
	} {
		pos := mustPos(t, fen)
		if _, ok := tb.ProbeWDL(pos); !ok { // loads the tables
			t.Fatalf("%s: no probe", fen)
		}
		if n := testing.AllocsPerRun(100, func() { tb.ProbeWDL(pos) }); n != 0 {
			t.Errorf("%s: %v allocations per WDL probe, want 0", fen, n)
		}
	}
}

// TestTablesMapped (where tables are memory-mapped): every table a probe
// loaded is a mapping of its file, not a copy in the heap. It logs what
// opening and probing the tables added to the process (resident memory,
// file-backed and anonymous, and the Go heap); with KINGROOK_SYZYGY5_PATH
// it does so for that whole set, probing positions of every 5-piece
// material.
func TestTablesMapped(t *testing.T) {
	if _, err := os.Stat("/proc/self/maps"); err != nil || runtime.GOOS != "linux" {
		t.Skip("no /proc/self/maps: the tables are mapped on Linux only, where this checks them")
	}
	dir := testDir + string(filepath.ListSeparator) + fiveDir
	var fens []string
	if d := os.Getenv(path5Env); d != "" {
		dir = d
		r := rand.New(rand.NewPCG(8, 8))
		names, _ := filepath.Glob(filepath.Join(d, "*.rtbw"))
		for _, name := range names {
			material := strings.TrimSuffix(filepath.Base(name), ".rtbw")
			for i := 0; i < 2000 && len(material) == 6; i++ {
				pos, err := randomPosition(r, material, false, 0)
				if err != nil {
					t.Fatal(err)
				}
				fens = append(fens, pos.FEN(false))
			}
		}
	} else {
		for _, e := range readFive(t) {
			fens = append(fens, e.fen)
		}
	}
	pos := movegen.NewPosition()
	before := memoryNow(t)
	tb, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	probes := 0
	for _, fen := range fens {
		if err := pos.SetFEN(fen); err != nil {
			t.Fatal(err)
		}
		if _, ok := tb.ProbeWDL(pos); ok {
			probes++
		}
		if _, ok := tb.ProbeDTZ(pos); ok {
			probes++
		}
	}
	after := memoryNow(t)
	runtime.KeepAlive(fens)
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Fatal(err)
	}
	loaded, size := 0, int64(0)
	seen := map[*entry]bool{}
	for _, e := range tb.entries {
		if seen[e] {
			continue
		}
		seen[e] = true
		for _, lt := range []*lazyTable{&e.wdl, &e.dtz} {
			if lt.data == nil {
				continue
			}
			loaded++
			size += lt.data.src.size()
			// The maps name the file by its absolute path, links resolved.
			abs, err := filepath.Abs(lt.path)
			if err == nil {
				abs, err = filepath.EvalSymlinks(abs)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(maps), " "+abs+"\n") {
				t.Errorf("%s is loaded but not mapped", abs)
			}
		}
	}
	if loaded == 0 {
		t.Fatal("no table was loaded")
	}
	t.Logf("%s: %d probes loaded %d table files (%.1f MB); the process grew by %.1f MB resident "+
		"(%.1f MB file-backed, %.1f MB anonymous), the Go heap in use by %.2f MB",
		dir, probes, loaded, mb(size), mb(after.rss-before.rss), mb(after.rssFile-before.rssFile),
		mb(after.rssAnon-before.rssAnon), mb(int64(after.heap)-int64(before.heap)))
}

// memory is what the process holds: resident (all, file-backed, anonymous)
// from /proc/self/status, and the Go heap in use, after a collection that
// returns the free memory to the system.
type memory struct {
	rss, rssFile, rssAnon int64
	heap                  uint64 // HeapAlloc after a collection
}

func memoryNow(t *testing.T) memory {
	t.Helper()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := memory{heap: ms.HeapAlloc}
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var kb int64
		name, val, _ := strings.Cut(sc.Text(), ":")
		if _, err := fmt.Sscan(val, &kb); err != nil {
			continue
		}
		switch name {
		case "VmRSS":
			m.rss = kb << 10
		case "RssFile":
			m.rssFile = kb << 10
		case "RssAnon":
			m.rssAnon = kb << 10
		}
	}
	return m
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

// fivePositions reads the recorded positions whose material passes keep.
func fivePositions(b *testing.B, keep func(material string) bool) []*movegen.Position {
	var positions []*movegen.Position
	for _, e := range readFive(b) {
		pos := mustPos(b, e.fen)
		if keep(materialName(pos)) {
			positions = append(positions, pos)
		}
	}
	return positions
}

// BenchmarkProbeWDL5 measures WDL probes per second on one thread over the
// recorded positions of the committed 5-piece tables (already loaded).
func BenchmarkProbeWDL5(b *testing.B) {
	tb := openFive(b, false)
	positions := fivePositions(b, func(m string) bool { return hasTable([]string{fiveDir}, m, ".rtbw") })
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

// BenchmarkProbeSet5 measures WDL and DTZ probes per second over every
// recorded 5-piece position with the set KINGROOK_SYZYGY5_PATH names
// (tables already loaded).
func BenchmarkProbeSet5(b *testing.B) {
	dir := os.Getenv(path5Env)
	if dir == "" {
		b.Skipf("%s is not set: no 5-piece DTZ tables", path5Env)
	}
	tb, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	positions := fivePositions(b, func(string) bool { return true })
	for _, p := range positions {
		if _, ok := tb.ProbeDTZ(p); !ok {
			b.Fatalf("%s: no probe", p.FEN(false))
		}
	}
	benchProbes(b, tb, positions)
}

// benchProbes measures WDL and DTZ probes per second over positions.
func benchProbes(b *testing.B, tb *Tables, positions []*movegen.Position) {
	b.Run("WDL", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			tb.ProbeWDL(positions[i%len(positions)])
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
	})
	b.Run("DTZ", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			tb.ProbeDTZ(positions[i%len(positions)])
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "probes/s")
	})
}

// BenchmarkProbeSet6 measures WDL and DTZ probes per second over 10000
// random positions of each 6-piece material in the set
// KINGROOK_SYZYGY6_PATH names (with KINGROOK_SYZYGY5_PATH beside it;
// tables already loaded).
func BenchmarkProbeSet6(b *testing.B) {
	dir := os.Getenv(path6Env)
	if dir == "" {
		b.Skipf("%s is not set: no 6-piece tables", path6Env)
	}
	if d5 := os.Getenv(path5Env); d5 != "" {
		dir += string(filepath.ListSeparator) + d5
	}
	tb, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer tb.Close()
	names, _ := filepath.Glob(filepath.Join(os.Getenv(path6Env), "*.rtbz"))
	r := rand.New(rand.NewPCG(6, 6))
	var positions []*movegen.Position
	for _, name := range names {
		material := strings.TrimSuffix(filepath.Base(name), ".rtbz")
		for n := 0; n < 10000; {
			pos, err := randomPositionFor(r, material, movegen.Color(n%2), false, 0)
			if err != nil {
				b.Fatal(err)
			}
			if _, ok := tb.ProbeDTZ(pos); ok {
				positions = append(positions, pos)
				n++
			}
		}
	}
	if len(positions) == 0 {
		b.Fatalf("no 6-piece DTZ tables in %s", os.Getenv(path6Env))
	}
	benchProbes(b, tb, positions)
}
