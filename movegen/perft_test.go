package movegen

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// perftDirEnv names the environment variable that points at the full perft
// suites (standard.epd, perftsuite.epd, fischer.epd; see testdata/README.md
// for their origin). make perft-suite sets it.
const perftDirEnv = "KINGROOK_PERFT_DIR"

type epdCase struct {
	fen    string
	depths map[int]uint64 // depth -> expected count
}

func loadEPD(t testing.TB, path string) []epdCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []epdCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, ";")
		c := epdCase{fen: strings.TrimSpace(parts[0]), depths: map[int]uint64{}}
		for _, d := range parts[1:] {
			fs := strings.Fields(d)
			if len(fs) != 2 || !strings.HasPrefix(fs[0], "D") {
				t.Fatalf("bad EPD field %q in %q", d, line)
			}
			depth, err1 := strconv.Atoi(fs[0][1:])
			n, err2 := strconv.ParseUint(fs[1], 10, 64)
			if err1 != nil || err2 != nil || depth < 1 {
				t.Fatalf("bad EPD field %q", d)
			}
			c.depths[depth] = n
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// runSuite checks every position up to the depth whose expected count stays
// under maxNodes (at least depth 1).
func runSuite(t *testing.T, path string, maxNodes uint64) {
	cases := loadEPD(t, path)
	if len(cases) == 0 {
		t.Fatal("empty suite")
	}
	var p Position
	for i, c := range cases {
		if err := p.SetFEN(c.fen); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		fen, key := p.FEN(true), p.Key()
		minDepth := 99
		for d := range c.depths {
			minDepth = min(minDepth, d)
		}
		for d := 1; d <= 8; d++ {
			want, ok := c.depths[d]
			if !ok {
				continue
			}
			if d > minDepth && want > maxNodes {
				break
			}
			if got := p.Perft(d); got != want {
				t.Errorf("line %d %q depth %d: got %d want %d", i+1, c.fen, d, got, want)
			}
		}
		if recomputed, _ := p.computeKeys(); p.FEN(true) != fen || p.Key() != key || recomputed != key {
			t.Fatalf("line %d: position changed by perft: %q, key %016x, want %q, %016x", i+1, p.FEN(true), p.Key(), fen, key)
		}
	}
}

// suiteBudget is the largest expected count checked per position:
// everything with KINGROOK_PERFT_FULL=1, KINGROOK_PERFT_NODES=N for a
// chosen bound, less under -short.
func suiteBudget() uint64 {
	if os.Getenv("KINGROOK_PERFT_FULL") == "1" {
		return 1 << 62
	}
	if n, err := strconv.ParseUint(os.Getenv("KINGROOK_PERFT_NODES"), 10, 64); err == nil && n > 0 {
		return n
	}
	if testing.Short() {
		return 20_000
	}
	return 5_000_000
}

// fischerBudget is suiteBudget capped at a million nodes, unless a bound
// was chosen: the Chess960 suite has many positions.
func fischerBudget() uint64 {
	b := suiteBudget()
	if b > 1_000_000 && b < 1<<62 && os.Getenv("KINGROOK_PERFT_NODES") == "" {
		b = 1_000_000
	}
	return b
}

// TestPerftStandard runs the standard suite (perftsuite.epd and two more
// positions), kept whole in testdata.
func TestPerftStandard(t *testing.T) {
	runSuite(t, "testdata/perft/standard.epd", suiteBudget())
}

// TestPerftFischer runs every tenth position of the Chess960 suite.
func TestPerftFischer(t *testing.T) {
	runSuite(t, "testdata/perft/fischer-sample.epd", fischerBudget())
}

// TestPerftFullSuites runs the whole suites found in the directory named by
// KINGROOK_PERFT_DIR.
func TestPerftFullSuites(t *testing.T) {
	dir := os.Getenv(perftDirEnv)
	if dir == "" {
		t.Skip(perftDirEnv + " is not set: the whole suites are not run (make perft-suite runs them)")
	}
	for _, name := range []string{"standard.epd", "perftsuite.epd", "fischer.epd"} {
		budget := suiteBudget()
		if name == "fischer.epd" {
			budget = fischerBudget()
		}
		t.Run(name, func(t *testing.T) { runSuite(t, filepath.Join(dir, name), budget) })
	}
}
