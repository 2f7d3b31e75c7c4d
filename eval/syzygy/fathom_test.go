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
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// The differential test compares every probe with Fathom's command-line
// prober (Debian package fathom) over random legal positions of each
// material of the set that KINGROOK_SYZYGY_PATH names. The number of
// positions per material and side (and again with en passant where the
// material allows it) is KINGROOK_SYZYGY_POSITIONS, by default 25 (8 with
// -short).

const pathEnv = "KINGROOK_SYZYGY_PATH"

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
}

func runFathom(bin, dir, fen string) (fathomResult, error) {
	var r fathomResult
	out, err := exec.Command(bin, "--path="+dir, fen).Output()
	if err != nil {
		return r, fmt.Errorf("fathom %q: %v", fen, err)
	}
	tags := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "[") {
			continue
		}
		name, val, ok := strings.Cut(strings.Trim(line, "[]"), " ")
		if ok {
			tags[name] = strings.Trim(val, "\"")
		}
	}
	count := func(s string) int {
		if s == "" {
			return 0
		}
		return len(strings.Split(s, ", "))
	}
	r.wdl = tags["WDL"]
	r.dtz, err = strconv.Atoi(tags["DTZ"])
	if err != nil {
		return r, fmt.Errorf("fathom %q: no DTZ in %q", fen, out)
	}
	r.win, r.draw, r.loss = count(tags["WinningMoves"]), count(tags["DrawingMoves"]), count(tags["LosingMoves"])
	return r, nil
}

// ours gives our answer in Fathom's terms.
func ours(tb *Tables, pos *movegen.Position) (fathomResult, bool) {
	var r fathomResult
	root, ok := tb.ProbeRoot(pos)
	if !ok {
		return r, false
	}
	r.wdl, r.dtz = root.WDL.String(), abs(root.DTZ)
	if root.Mated {
		// Fathom reports a mated side as "Win" with DTZ 0.
		r.wdl = "Win"
	}
	for _, m := range root.Moves {
		switch m.WDL {
		case Win:
			r.win++
		case Loss:
			r.loss++
		default:
			r.draw++
		}
	}
	return r, true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestAgainstFathom(t *testing.T) {
	dir := os.Getenv(pathEnv)
	if dir == "" {
		t.Skipf("%s is not set: no full tablebase set to compare", pathEnv)
	}
	bin := fathomPath()
	if bin == "" {
		t.Skip("fathom is not installed (apt-get install fathom)")
	}
	tb, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	n := 25
	if testing.Short() {
		n = 8
	}
	if s := os.Getenv("KINGROOK_SYZYGY_POSITIONS"); s != "" {
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("KINGROOK_SYZYGY_POSITIONS=%q: %v", s, err)
		}
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.rtbw"))
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatalf("no .rtbw files in %s", dir)
	}
	type job struct {
		material string
		fen      string
		want     fathomResult
	}
	var jobs []job
	r := rand.New(rand.NewPCG(12, 1))
	for _, name := range names {
		material := strings.TrimSuffix(filepath.Base(name), ".rtbw")
		kinds := []bool{false}
		if strings.Count(material, "P") > 0 && strings.Index(material, "P") < strings.Index(material, "v") &&
			strings.LastIndex(material, "P") > strings.Index(material, "v") {
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
				jobs = append(jobs, job{material: material, fen: pos.FEN(false)})
			}
		}
	}

	// Fathom answers one position per process: run them in parallel.
	var wg sync.WaitGroup
	errs := make([]error, len(jobs))
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				jobs[i].want, errs[i] = runFathom(bin, dir, jobs[i].fen)
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()

	mismatches := 0
	for i, j := range jobs {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		pos := movegen.NewPosition()
		if err := pos.SetFEN(j.fen); err != nil {
			t.Fatal(err)
		}
		got, ok := ours(tb, pos)
		if !ok {
			t.Errorf("%s: no probe", j.fen)
			mismatches++
			continue
		}
		if got != j.want {
			mismatches++
			if mismatches <= 20 {
				t.Errorf("%s (%s): got %+v, fathom %+v", j.fen, j.material, got, j.want)
			}
		}
	}
	t.Logf("%d positions over %d materials compared with fathom, %d mismatches", len(jobs), len(names), mismatches)
}
