package movegen

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

type epdCase struct {
	fen    string
	depths map[int]uint64 // depth -> expected count
}

func loadEPD(t testing.TB, path string) []epdCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Skipf("perft suite not found: %v", err)
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
		if p.FEN(true) != (&p).FEN(true) || p.Key() != p.ComputeKey() {
			t.Fatalf("line %d: position changed by perft", i+1)
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

func TestPerftStandard(t *testing.T) {
	runSuite(t, "../../shared/data/perft/standard.epd", suiteBudget())
}

func TestPerftSuite(t *testing.T) {
	runSuite(t, "../../shared/data/perft/perftsuite.epd", suiteBudget())
}

func TestPerftFischer(t *testing.T) {
	b := suiteBudget()
	if b > 1_000_000 && b < 1<<62 && os.Getenv("KINGROOK_PERFT_NODES") == "" {
		b = 1_000_000
	}
	runSuite(t, "../../shared/data/perft/fischer.epd", b)
}
