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
// with -short); TestAgainstFathom5 and TestAgainstFathom6 over the 5- and
// 6-piece tables of the sets KINGROOK_SYZYGY5_PATH and KINGROOK_SYZYGY6_PATH
// name, KINGROOK_SYZYGY5_POSITIONS and KINGROOK_SYZYGY6_POSITIONS positions
// per material (by default 40 and 200, 8 with -short), each side to move in
// half of them and a half-move clock in half of those (see
// compareWithFathom). Each comparison covers the position's WDL and DTZ and
// every root move: its class (Fathom's winning, drawing and losing moves)
// and its WDL value.

const (
	pathEnv       = "KINGROOK_SYZYGY_PATH"
	path5Env      = "KINGROOK_SYZYGY5_PATH"
	positions5Env = "KINGROOK_SYZYGY5_POSITIONS"
	path6Env      = "KINGROOK_SYZYGY6_PATH"
	positions6Env = "KINGROOK_SYZYGY6_POSITIONS"
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
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = bytes.TrimSpace(ee.Stderr)
		}
		return r, fmt.Errorf("fathom --path=%s %q: %v: %s", dir, fen, err, stderr)
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

// fathomTally counts the comparisons of one material.
type fathomTally struct {
	moves      int // root moves compared (class and WDL value)
	mismatches int // positions whose answer is not Fathom's
	values     int // ... in WDL or DTZ
	rootMoves  int // ... in the root moves' classes or WDL values
}

// compareJobs probes every job's position and reports those whose answer
// is not Fathom's (the first 20 in full): the position's WDL and DTZ, and
// the class of every root move (the moves ProbeRoot keeps as winning,
// drawing or losing against Fathom's lists) with its WDL value. It returns
// the tallies per material.
func compareJobs(t *testing.T, tb *Tables, jobs []fathomJob) map[string]*fathomTally {
	t.Helper()
	tallies := map[string]*fathomTally{}
	total := 0
	for _, j := range jobs {
		if j.err != nil {
			t.Fatal(j.err)
		}
		c := tallies[j.material]
		if c == nil {
			c = &fathomTally{}
			tallies[j.material] = c
		}
		pos := movegen.NewPosition()
		if err := pos.SetFEN(j.fen); err != nil {
			t.Fatal(err)
		}
		got, ok := ours(tb, pos)
		c.moves += j.want.win + j.want.draw + j.want.loss
		if ok && j.want.matches(got) {
			continue
		}
		c.mismatches++
		if ok && (got.wdl != j.want.wdl || got.dtz != j.want.dtz) {
			c.values++
		}
		if ok && (got.win != j.want.win || got.draw != j.want.draw || got.loss != j.want.loss || got.moves != j.want.moves) {
			c.rootMoves++
		}
		if total++; total <= 20 {
			if !ok {
				t.Errorf("%s (%s): no probe", j.fen, j.material)
			} else {
				t.Errorf("%s (%s): got %+v, fathom %+v", j.fen, j.material, got, j.want)
			}
		}
	}
	return tallies
}

// fathomSetup opens the set that the variable dirEnv names, followed by
// the sets the variables of more name (those set), and returns its path
// (a directory list for Open and for Fathom) with the number of positions
// per material (countEnv, or def; 8 under -short); it skips the test when
// dirEnv is unset or fathom missing.
func fathomSetup(t *testing.T, dirEnv, countEnv string, def int, what string, more ...string) (string, *Tables, int) {
	t.Helper()
	dir := os.Getenv(dirEnv)
	if dir == "" {
		t.Skipf("%s is not set: no %s to compare", dirEnv, what)
	}
	for _, env := range more {
		if d := os.Getenv(env); d != "" {
			dir += string(filepath.ListSeparator) + d
		}
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
	for _, c := range compareJobs(t, tb, jobs) {
		mismatches += c.mismatches
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
// KINGROOK_SYZYGY5_PATH names with Fathom (see compareWithFathom).
func TestAgainstFathom5(t *testing.T) {
	compareWithFathom(t, fathomSet{pieces: 5, dirEnv: path5Env, countEnv: positions5Env, positions: 40, seed: 50})
}

// TestAgainstFathom6 compares the 6-piece tables of the set
// KINGROOK_SYZYGY6_PATH names (one directory or a list, as Open takes it)
// with Fathom (see compareWithFathom). The set KINGROOK_SYZYGY5_PATH names,
// when set, is opened after it for the tables that captures and
// promotions lead to; without it the 6-piece path must list them too.
func TestAgainstFathom6(t *testing.T) {
	compareWithFathom(t, fathomSet{pieces: 6, dirEnv: path6Env, countEnv: positions6Env, positions: 200, seed: 60, more: []string{path5Env}})
}

// fathomSet describes the tables compareWithFathom compares.
type fathomSet struct {
	pieces    int    // the tables compared: those of this many pieces
	dirEnv    string // the variable that names the set
	countEnv  string // the variable that sets the positions per material
	positions int    // the positions per material by default
	seed      uint64
	more      []string // variables naming sets opened after it
}

// setMaterials lists the materials of the given number of pieces whose
// WDL and DTZ tables the directories of paths hold (the first directory
// holding a file wins, as in Open), and those that lack one of the two.
func setMaterials(paths string, pieces int) (both, partial []string) {
	files := map[string]int{} // material: 1 WDL, 2 DTZ
	seen := map[string]bool{}
	for _, dir := range filepath.SplitList(paths) {
		for i, ext := range []string{".rtbw", ".rtbz"} {
			names, _ := filepath.Glob(filepath.Join(dir, "*"+ext))
			for _, name := range names {
				m := strings.TrimSuffix(filepath.Base(name), ext)
				if len(m) != pieces+1 || seen[m+ext] { // the pieces and the 'v'
					continue
				}
				seen[m+ext] = true
				files[m] |= 1 << i
			}
		}
	}
	for m, f := range files {
		if f == 3 {
			both = append(both, m)
		} else {
			partial = append(partial, m)
		}
	}
	slices.Sort(both)
	slices.Sort(partial)
	return both, partial
}

// compareWithFathom compares the tables of set.pieces pieces of a set with
// Fathom: per material, positions with each side to move, half of them
// with a half-move clock, and as many again with an en passant capture
// where both sides have pawns. Of the clocks, half are drawn from 1..99,
// half put the position's DTZ (as we probe it) at the 50-move rule's edge
// (DTZ + clock 100 or 101) where that fits in 1..99, so that wins and
// cursed wins, losses and blessed losses meet at the edge. Positions
// without a legal move are left out (Fathom misreports a mated side) and
// replaced by others. A material that lacks its WDL or DTZ table is left
// out and named.
func compareWithFathom(t *testing.T, set fathomSet) {
	what := fmt.Sprintf("%d-piece tablebase set", set.pieces)
	dir, tb, n := fathomSetup(t, set.dirEnv, set.countEnv, set.positions, what, set.more...)
	defer tb.Close()
	for _, env := range set.more {
		if os.Getenv(env) == "" {
			t.Logf("%s is not set: %s must hold the tables with fewer pieces too", env, set.dirEnv)
		}
	}
	materials, partial := setMaterials(os.Getenv(set.dirEnv), set.pieces)
	if len(partial) > 0 {
		t.Logf("left out, without both a WDL and a DTZ table: %s", strings.Join(partial, " "))
	}
	if len(materials) == 0 {
		t.Fatalf("no %d-piece tables with WDL and DTZ files in %s", set.pieces, os.Getenv(set.dirEnv))
	}
	start := time.Now()
	var jobs []fathomJob
	type tally struct{ positions, whiteToMove, clock, edge, ep, skipped int }
	count := map[string]*tally{}
	r := rand.New(rand.NewPCG(set.seed, uint64(set.pieces)))
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
				pos, err := randomPositionFor(r, material, stm, ep, 0)
				if err != nil {
					t.Fatal(err)
				}
				if !pos.HasLegalMove() {
					c.skipped++
					continue
				}
				rule50, edge := 0, false
				if i/2%2 == 1 && !ep {
					rule50, edge = fathomClock(r, tb, pos, i/4%2 == 1)
				}
				fen := pos.FEN(false)
				if rule50 > 0 {
					f := strings.Fields(fen)
					f[4] = strconv.Itoa(rule50)
					fen = strings.Join(f, " ")
					c.clock++
				}
				jobs = append(jobs, fathomJob{material: material, fen: fen})
				c.positions++
				if stm == movegen.White {
					c.whiteToMove++
				}
				if edge {
					c.edge++
				}
				if ep {
					c.ep++
				}
				i++
			}
		}
	}
	askFathom(fathomPath(), dir, jobs)
	tallies := compareJobs(t, tb, jobs)
	results := map[string]map[string]int{}
	mismatches, moves := 0, 0
	for _, j := range jobs {
		if results[j.material] == nil {
			results[j.material] = map[string]int{}
		}
		results[j.material][j.want.wdl]++
	}
	for _, m := range materials {
		c, w, d := count[m], results[m], tallies[m]
		mismatches += d.mismatches
		moves += d.moves
		t.Logf("%s: %d positions (%d white to move, %d with a half-move clock, %d of them at the 50-move edge, %d en passant; Fathom: %d Win, %d CursedWin, %d Draw, %d BlessedLoss, %d Loss), %d root moves; %d mismatches (%d in WDL or DTZ, %d in the root moves); %d without a legal move left out",
			m, c.positions, c.whiteToMove, c.clock, c.edge, c.ep, w["Win"], w["CursedWin"], w["Draw"], w["BlessedLoss"], w["Loss"], d.moves, d.mismatches, d.values, d.rootMoves, c.skipped)
	}
	t.Logf("%d positions and %d root moves over %d materials compared with fathom in %v, %d mismatches",
		len(jobs), moves, len(materials), time.Since(start).Round(time.Millisecond), mismatches)
}

// fathomClock draws the half-move clock of a position: from 1..99, or
// with edge set, 100 or 101 less the position's DTZ (as ProbeDTZ gives it:
// DTZ + clock 100 is the last win, 101 the first cursed win), either at
// random where both fit in 1..99. It reports whether the clock is at the
// edge.
func fathomClock(r *rand.Rand, tb *Tables, pos *movegen.Position, edge bool) (int, bool) {
	if edge {
		if d, ok := tb.ProbeDTZ(pos); ok && d != 0 {
			c := 100 - eval.Abs(d)
			if c+1 <= 99 && (c < 1 || r.IntN(2) == 0) {
				c++
			}
			if c >= 1 && c <= 99 {
				return c, true
			}
		}
	}
	return 1 + r.IntN(99), false
}
