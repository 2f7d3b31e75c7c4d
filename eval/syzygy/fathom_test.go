package syzygy

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// The differential tests compare every probe with Fathom's command-line
// prober (Debian package fathom) over random legal positions of each
// material of a set: TestAgainstFathom over the set KINGROOK_SYZYGY_PATH
// names, KINGROOK_SYZYGY_POSITIONS positions per material and side (and
// again with en passant where the material allows it), by default 25 (8
// with -short); TestAgainstFathom5 over the 5-piece tables of the set
// KINGROOK_SYZYGY5_PATH names, KINGROOK_SYZYGY5_POSITIONS positions per
// material (by default 40, 8 with -short), each side to move in half of
// them and a half-move clock in half of those.

const (
	pathEnv       = "KINGROOK_SYZYGY_PATH"
	path5Env      = "KINGROOK_SYZYGY5_PATH"
	positions5Env = "KINGROOK_SYZYGY5_POSITIONS"
)

func fathomPath() string {
	for _, p := range []string{"fathom", "/usr/games/fathom"} {
		if q, err := exec.LookPath(p); err == nil {
			return q
		}
	}
	return ""
}

// fathomResult is what Fathom prints about a position.
type fathomResult struct {
	wdl             string
	dtz             int
	win, draw, loss int // how many moves of each class
	// moves holds one "SAN:Cv" word per legal move, sorted: C is the
	// move's class (W, D or L, from the DTZ tables with the 50-move rule
	// and the position's clock), v its WDL table value (-2..2, from the
	// WDL tables alone), e.g. "Rxf2:W2 b8=N:D0". Empty when not recorded.
	moves string
}

// matches compares got with the recorded answer want, leaving out the move
// list when want lacks it.
func (want fathomResult) matches(got fathomResult) bool {
	return got.wdl == want.wdl && got.dtz == want.dtz && got.win == want.win && got.draw == want.draw &&
		got.loss == want.loss && (want.moves == "" || got.moves == want.moves)
}

// tableWDL is the value the WDL table holds for the position of a recorded
// answer: its DTZ classified with a zeroed clock.
func (want fathomResult) tableWDL() WDL {
	switch want.wdl {
	case "Win", "CursedWin":
		return WDLFromDTZ(want.dtz, 0)
	case "Loss", "BlessedLoss":
		return WDLFromDTZ(-want.dtz, 0)
	}
	return Draw
}

// moveWDLs reads the WDL value of every move from a moves list: SAN to
// value.
func moveWDLs(moves string) (map[string]int, error) {
	m := map[string]int{}
	for _, w := range strings.Fields(moves) {
		i := strings.LastIndexByte(w, ':')
		if i < 0 || i+2 >= len(w) {
			return nil, fmt.Errorf("bad move word %q", w)
		}
		v, err := strconv.Atoi(w[i+2:])
		if err != nil {
			return nil, fmt.Errorf("bad move word %q", w)
		}
		m[w[:i]] = v
	}
	return m, nil
}

// wdlRanks are the ranks Fathom's WDL root probe prints, by WDL value + 2.
var wdlRanks = [5]string{"-1000", "-899", "0", "899", "1000"}

func runFathom(bin, dir, fen string) (fathomResult, error) {
	var r fathomResult
	out, err := exec.Command(bin, "--path="+dir, fen).Output()
	if err != nil {
		return r, fmt.Errorf("fathom %q: %v", fen, err)
	}
	tags := map[string]string{}
	wdl := map[string]int{} // from the WDL root probe
	inWDL := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "["):
			name, val, ok := strings.Cut(strings.Trim(line, "[]"), " ")
			if ok {
				tags[name] = strings.Trim(val, "\"")
			}
		case strings.HasSuffix(line, " moves returned from DTZ probe"):
			inWDL = false
		case strings.HasSuffix(line, " moves returned from WDL probe"):
			inWDL = true
		case inWDL && strings.Contains(line, " rank = "):
			// "Rxf2 rank = 1000 score=31744"
			f := strings.Fields(line)
			v := -1
			if len(f) >= 4 {
				v = slices.Index(wdlRanks[:], f[3])
			}
			if v < 0 {
				return r, fmt.Errorf("fathom %q: unexpected line %q", fen, line)
			}
			wdl[f[0]] = v - 2
		}
	}
	var moves []string
	for _, c := range []struct{ tag, class string }{{"WinningMoves", "W"}, {"DrawingMoves", "D"}, {"LosingMoves", "L"}} {
		if tags[c.tag] == "" {
			continue
		}
		for _, san := range strings.Split(tags[c.tag], ", ") {
			v, ok := wdl[san]
			if !ok {
				return r, fmt.Errorf("fathom %q: %s is not in the WDL probe's moves", fen, san)
			}
			moves = append(moves, fmt.Sprintf("%s:%s%d", san, c.class, v))
			switch c.class {
			case "W":
				r.win++
			case "D":
				r.draw++
			default:
				r.loss++
			}
		}
	}
	r.wdl = tags["WDL"]
	r.dtz, err = strconv.Atoi(tags["DTZ"])
	if err != nil {
		return r, fmt.Errorf("fathom %q: no DTZ in %q", fen, out)
	}
	if len(wdl) != len(moves) {
		return r, fmt.Errorf("fathom %q: %d moves in the lists, %d from the WDL probe", fen, len(moves), len(wdl))
	}
	slices.Sort(moves)
	r.moves = strings.Join(moves, " ")
	return r, nil
}

// ours gives our answer in Fathom's terms.
func ours(tb *Tables, pos *movegen.Position) (fathomResult, bool) {
	var r fathomResult
	root, ok := tb.ProbeRoot(pos)
	if !ok {
		return r, false
	}
	r.wdl, r.dtz = root.WDL.String(), eval.Abs(root.DTZ)
	if root.Mated {
		// Fathom reports a mated side as "Win" with DTZ 0.
		r.wdl = "Win"
	}
	moves := make([]string, 0, len(root.Moves))
	for _, m := range root.Moves {
		class := "D"
		switch m.WDL {
		case Win:
			r.win++
			class = "W"
		case Loss:
			r.loss++
			class = "L"
		default:
			r.draw++
		}
		san := fathomSAN(pos, m.Move)
		pos.Make(m.Move)
		w, ok := tb.ProbeWDL(pos)
		pos.Unmake()
		if !ok {
			return r, false
		}
		moves = append(moves, fmt.Sprintf("%s:%s%d", san, class, -int(w)))
	}
	slices.Sort(moves)
	r.moves = strings.Join(moves, " ")
	return r, true
}

// oursWDL gives the position's WDL value and every legal move's (ProbeWDL
// after it, negated), SAN to value.
func oursWDL(tb *Tables, pos *movegen.Position) (WDL, map[string]int, bool) {
	root, ok := tb.ProbeWDL(pos)
	if !ok {
		return 0, nil, false
	}
	var list movegen.MoveList
	pos.GenerateLegal(&list)
	moves := map[string]int{}
	for i := 0; i < list.N; i++ {
		m := list.At(i)
		san := fathomSAN(pos, m)
		pos.Make(m)
		w, ok := tb.ProbeWDL(pos)
		pos.Unmake()
		if !ok {
			return 0, nil, false
		}
		moves[san] = -int(w)
	}
	return root, moves, true
}

// fathomJob is one position to compare.
type fathomJob struct {
	material string
	fen      string
	want     fathomResult
	err      error
}

// askFathom fills in Fathom's answers, running one process per position
// on every available core.
func askFathom(bin, dir string, jobs []fathomJob) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				jobs[i].want, jobs[i].err = runFathom(bin, dir, jobs[i].fen)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
}

// compareJobs probes every job's position and reports those whose answer
// is not Fathom's (the first 20 in full); it returns the mismatches per
// material.
func compareJobs(t *testing.T, tb *Tables, jobs []fathomJob) map[string]int {
	t.Helper()
	mismatches := map[string]int{}
	total := 0
	for _, j := range jobs {
		if j.err != nil {
			t.Fatal(j.err)
		}
		pos := movegen.NewPosition()
		if err := pos.SetFEN(j.fen); err != nil {
			t.Fatal(err)
		}
		got, ok := ours(tb, pos)
		if ok && j.want.matches(got) {
			continue
		}
		mismatches[j.material]++
		if total++; total <= 20 {
			if !ok {
				t.Errorf("%s (%s): no probe", j.fen, j.material)
			} else {
				t.Errorf("%s (%s): got %+v, fathom %+v", j.fen, j.material, got, j.want)
			}
		}
	}
	return mismatches
}

// fathomSetup opens the set that the variable dirEnv names and returns it
// with the number of positions per material (countEnv, or def; 8 under
// -short); it skips the test when the variable is unset or fathom missing.
func fathomSetup(t *testing.T, dirEnv, countEnv string, def int, what string) (string, *Tables, int) {
	t.Helper()
	dir := os.Getenv(dirEnv)
	if dir == "" {
		t.Skipf("%s is not set: no %s to compare", dirEnv, what)
	}
	if fathomPath() == "" {
		t.Skip("fathom is not installed (apt-get install fathom)")
	}
	n := def
	if testing.Short() {
		n = 8
	}
	if s := os.Getenv(countEnv); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			t.Fatalf("%s=%q: want a positive number", countEnv, s)
		}
	}
	tb, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, tb, n
}

func TestAgainstFathom(t *testing.T) {
	dir, tb, n := fathomSetup(t, pathEnv, "KINGROOK_SYZYGY_POSITIONS", 25, "full tablebase set")
	defer tb.Close()
	names, _ := filepath.Glob(filepath.Join(dir, "*.rtbw"))
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatalf("no .rtbw files in %s", dir)
	}
	var jobs []fathomJob
	r := rand.New(rand.NewPCG(12, 1))
	for _, name := range names {
		material := strings.TrimSuffix(filepath.Base(name), ".rtbw")
		kinds := []bool{false}
		if bothSidesHavePawns(material) {
			kinds = append(kinds, true)
		}
		for _, ep := range kinds {
			for i := 0; i < 2*n; i++ {
				rule50 := 0
				if !ep && r.IntN(4) == 0 {
					rule50 = 1 + r.IntN(99)
				}
				pos, err := randomPosition(r, material, ep, rule50)
				if err != nil {
					t.Fatal(err)
				}
				jobs = append(jobs, fathomJob{material: material, fen: pos.FEN(false)})
			}
		}
	}
	askFathom(fathomPath(), dir, jobs)
	mismatches := 0
	for _, m := range compareJobs(t, tb, jobs) {
		mismatches += m
	}
	t.Logf("%d positions over %d materials compared with fathom, %d mismatches", len(jobs), len(names), mismatches)
}

// bothSidesHavePawns tells whether a material such as "KPvKP" can hold an
// en passant capture.
func bothSidesHavePawns(material string) bool {
	white, black, _ := strings.Cut(material, "v")
	return strings.Contains(white, "P") && strings.Contains(black, "P")
}

// TestAgainstFathom5 compares the 5-piece tables of the set
// KINGROOK_SYZYGY5_PATH names with Fathom: per material, positions with each
// side to move, half of them with a half-move clock (1..99), and as many
// again with an en passant capture where both sides have pawns. Positions
// without a legal move are left out (Fathom misreports a mated side) and
// replaced by others.
func TestAgainstFathom5(t *testing.T) {
	dir, tb, n := fathomSetup(t, path5Env, positions5Env, 40, "5-piece tablebase set")
	defer tb.Close()
	names, _ := filepath.Glob(filepath.Join(dir, "*.rtbw"))
	sort.Strings(names)
	var materials []string
	for _, name := range names {
		if m := strings.TrimSuffix(filepath.Base(name), ".rtbw"); len(m) == 6 { // five pieces and the 'v'
			materials = append(materials, m)
		}
	}
	if len(materials) == 0 {
		t.Fatalf("no 5-piece .rtbw files in %s", dir)
	}
	start := time.Now()
	var jobs []fathomJob
	type tally struct{ positions, whiteToMove, clock, ep, skipped int }
	count := map[string]*tally{}
	r := rand.New(rand.NewPCG(50, 5))
	for _, material := range materials {
		c := &tally{}
		count[material] = c
		kinds := []bool{false}
		if bothSidesHavePawns(material) {
			kinds = append(kinds, true)
		}
		for _, ep := range kinds {
			for i := 0; i < n; {
				stm := movegen.Color(i % 2)
				rule50 := 0
				if i/2%2 == 1 && !ep {
					rule50 = 1 + r.IntN(99)
				}
				pos, err := randomPositionFor(r, material, stm, ep, rule50)
				if err != nil {
					t.Fatal(err)
				}
				if !pos.HasLegalMove() {
					c.skipped++
					continue
				}
				jobs = append(jobs, fathomJob{material: material, fen: pos.FEN(false)})
				c.positions++
				if stm == movegen.White {
					c.whiteToMove++
				}
				if rule50 > 0 {
					c.clock++
				}
				if ep {
					c.ep++
				}
				i++
			}
		}
	}
	askFathom(fathomPath(), dir, jobs)
	mismatches := compareJobs(t, tb, jobs)
	results := map[string]map[string]int{}
	for _, j := range jobs {
		if results[j.material] == nil {
			results[j.material] = map[string]int{}
		}
		results[j.material][j.want.wdl]++
	}
	for _, m := range materials {
		c, w := count[m], results[m]
		t.Logf("%s: %d positions (%d white to move, %d with a half-move clock, %d en passant; Fathom: %d Win, %d CursedWin, %d Draw, %d BlessedLoss, %d Loss), %d mismatches; %d without a legal move left out",
			m, c.positions, c.whiteToMove, c.clock, c.ep, w["Win"], w["CursedWin"], w["Draw"], w["BlessedLoss"], w["Loss"], mismatches[m], c.skipped)
	}
	t.Logf("%d positions over %d materials compared with fathom in %v", len(jobs), len(materials), time.Since(start).Round(time.Millisecond))
}
