//go:build tune

package search

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/search/internal/gentune"
)

// restoreTunables sets every tunable back to its default when t ends.
func restoreTunables(t *testing.T) {
	t.Cleanup(func() {
		for _, p := range Tunables() {
			if err := SetTunable(p.Name, p.Default); err != nil {
				t.Errorf("restoring %s: %v", p.Name, err)
			}
		}
	})
}

// TestTunablesTable: every tunable holds its default, lies in its range
// with a positive step, and is one of params.go's constants that gentune
// does not keep.
func TestTunablesTable(t *testing.T) {
	ts := Tunables()
	if len(ts) < 40 {
		t.Fatalf("%d tunables, want every margin and reduction of params.go (40 or more)", len(ts))
	}
	seen := map[string]bool{}
	for _, p := range ts {
		if seen[p.Name] {
			t.Errorf("%s listed twice", p.Name)
		}
		seen[p.Name] = true
		if v, err := TunableValue(p.Name); err != nil || v != p.Default {
			t.Errorf("%s holds %v (%v), want its default %v", p.Name, v, err, p.Default)
		}
		if !(p.Min <= p.Default && p.Default <= p.Max && p.Min < p.Max) || !(p.Step > 0) {
			t.Errorf("%s: default %v, range %v..%v, step %v", p.Name, p.Default, p.Min, p.Max, p.Step)
		}
		if r := gentune.Reason(p.Name); r != "" {
			t.Errorf("%s is tunable, but gentune keeps it (%s)", p.Name, r)
		}
	}
	for _, name := range []string{"rfpMargin", "lmrBase", "nmpBase", "seeQuietMargin", "historyBonusMul"} {
		if !seen[name] {
			t.Errorf("%s is not tunable", name)
		}
	}
}

// TestSetTunable: a value in range changes the variable; a value out of
// range, a fraction for an int and an unknown name are refused and change
// nothing.
func TestSetTunable(t *testing.T) {
	restoreTunables(t)
	if err := SetTunable("rfpMargin", 80); err != nil {
		t.Fatal(err)
	}
	if rfpMargin != 80 {
		t.Errorf("rfpMargin = %d after setting 80", rfpMargin)
	}
	if err := SetTunable("lmrBase", 1.25); err != nil {
		t.Fatal(err)
	}
	if lmrBase != 1.25 {
		t.Errorf("lmrBase = %v after setting 1.25", lmrBase)
	}
	for _, c := range []struct {
		name string
		v    float64
	}{{"rfpMargin", 36}, {"rfpMargin", 151}, {"rfpMargin", 80.5}, {"rfpMargin", math.NaN()}, {"lmrBase", 2}, {"noSuchParam", 1}} {
		if err := SetTunable(c.name, c.v); err == nil {
			t.Errorf("SetTunable(%s, %v) accepted", c.name, c.v)
		}
	}
	if rfpMargin != 80 || lmrBase != 1.25 {
		t.Errorf("refused values changed the parameters: rfpMargin %d, lmrBase %v", rfpMargin, lmrBase)
	}
}

// TestSetTunableLMR: the base reductions follow lmrBase and lmrDiv.
func TestSetTunableLMR(t *testing.T) {
	restoreTunables(t)
	const d, m = 63, 63
	want := func() int { return int(lmrBase + math.Log(d)*math.Log(m)/lmrDiv) }
	before := lmrBaseReduction(true, d, m)
	if before != want() {
		t.Fatalf("base reduction %d, want %d", before, want())
	}
	if err := SetTunable("lmrBase", 1.5); err != nil {
		t.Fatal(err)
	}
	if err := SetTunable("lmrDiv", 1.5); err != nil {
		t.Fatal(err)
	}
	if got := lmrBaseReduction(true, d, m); got != want() || got == before {
		t.Errorf("base reduction %d after setting lmrBase and lmrDiv, want %d (was %d)", got, want(), before)
	}
}

// TestTunablesSteerSearch: a search reads the parameters: other values
// search another tree, and the defaults the same one again.
func TestTunablesSteerSearch(t *testing.T) {
	restoreTunables(t)
	const fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	nodes := func() uint64 {
		res, _ := run(t, fen, Limits{Depth: 7}, Options{})
		return res.Nodes
	}
	base := nodes()
	for _, c := range []struct {
		name   string
		v, def float64
	}{{"rfpMargin", 37, float64(rfpMargin)}, {"lmrBase", 1.5, lmrBase}, {"nmpBase", 6, float64(nmpBase)}} {
		if err := SetTunable(c.name, c.v); err != nil {
			t.Fatal(err)
		}
		if got := nodes(); got == base {
			t.Errorf("%s = %v searched %d nodes, as many as the defaults", c.name, c.v, got)
		}
		if err := SetTunable(c.name, c.def); err != nil {
			t.Fatal(err)
		}
	}
	if got := nodes(); got != base {
		t.Errorf("defaults set again searched %d nodes, first %d", got, base)
	}
}

// TestSPSALines: each line is OpenBench's "name, int|float, value, min,
// max, c_end, r_end" with the tunable's figures; floats carry a decimal
// point.
func TestSPSALines(t *testing.T) {
	for _, p := range Tunables() {
		line := p.SPSALine()
		f := strings.Split(line, ", ")
		if len(f) != 7 || f[0] != p.Name {
			t.Errorf("%q: want 7 fields, the first %s", line, p.Name)
			continue
		}
		kind := map[bool]string{false: "int", true: "float"}[p.Float]
		if f[1] != kind {
			t.Errorf("%q: type %s, want %s", line, f[1], kind)
		}
		var nums [5]float64
		for i := range nums {
			v, err := strconv.ParseFloat(f[i+2], 64)
			if err != nil {
				t.Errorf("%q: field %d: %v", line, i+3, err)
			}
			nums[i] = v
		}
		if want := [5]float64{p.Default, p.Min, p.Max, p.Step, 0.002}; nums != want {
			t.Errorf("%q: read %v, want %v", line, nums, want)
		}
		if nums[0] < nums[1] || nums[0] > nums[2] {
			t.Errorf("%q: value outside [min, max]", line)
		}
		if p.Float && !strings.Contains(f[2], ".") {
			t.Errorf("%q: a float value without a decimal point", line)
		}
	}
	p := Tunable{Name: "x", Float: true, Default: 3, Min: 1.5, Max: 6, Step: 0.225}
	if got, want := p.SPSALine(), "x, float, 3.0, 1.5, 6.0, 0.225, 0.002"; got != want {
		t.Errorf("SPSALine() = %q, want %q", got, want)
	}
}
