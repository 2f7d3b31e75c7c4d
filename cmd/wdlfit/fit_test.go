package main

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/cmd/internal/selfplay"
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// synthetic returns cells whose results follow md exactly (expected counts
// of 1000 positions a cell), over the model's material range and scores
// -800..800.
func synthetic(md model) []cell {
	var cells []cell
	for m := eval.WDLMaterialMin; m <= eval.WDLMaterialMax; m++ {
		a, b := md.params(m)
		for s := -800; s <= 800; s += 10 {
			w, d, l := probs(float64(s), a, b)
			cells = append(cells, cell{m: m, s: s, n: [3]float64{1000 * w, 1000 * d, 1000 * l}})
		}
	}
	sortCells(cells)
	return cells
}

// TestFitRecoversModel fits synthetic results drawn from a known model and
// finds its parameters again, per material count and jointly.
func TestFitRecoversModel(t *testing.T) {
	truth := model{a: [4]float64{320, -260, 40, 0}, b: [4]float64{90, 30, 0, 0}}
	cells := synthetic(truth)
	r := fit(cells, 1)
	if len(r.perMaterial) != eval.WDLMaterialMax-eval.WDLMaterialMin+1 {
		t.Fatalf("%d per-material fits", len(r.perMaterial))
	}
	for _, f := range r.perMaterial {
		a, b := truth.params(f.m)
		if math.Abs(f.a-a) > 0.01*a || math.Abs(f.b-b) > 0.01*b {
			t.Errorf("material %d: free fit a=%.2f b=%.2f, truth %.2f %.2f", f.m, f.a, f.b, a, b)
		}
	}
	for m := eval.WDLMaterialMin; m <= eval.WDLMaterialMax; m++ {
		a, b := truth.params(m)
		ga, gb := r.joint.params(m)
		if math.Abs(ga-a) > 0.01*a || math.Abs(gb-b) > 0.01*b {
			t.Errorf("material %d: joint fit a=%.2f b=%.2f, truth %.2f %.2f", m, ga, gb, a, b)
		}
	}
	if got, want := meanNLL(cells, r.joint.params), meanNLL(cells, truth.params); got > want+1e-6 {
		t.Errorf("log-loss of the fit %.6f, of the truth %.6f", got, want)
	}
}

func TestPolyFit(t *testing.T) {
	want := [4]float64{3, -2, 0.5, 0.25}
	var x, y, w []float64
	for i := range 20 {
		xi := float64(i) / 10
		x, y, w = append(x, xi), append(y, poly(want, xi)), append(w, 1+float64(i%3))
	}
	got := polyFit(x, y, w)
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("polyFit = %v, want %v", got, want)
		}
	}
	v := []float64{1, 2, 4, 3}
	c := throughNodes(v)
	for i, m := range nodes {
		if got := poly(c, matX(m)); math.Abs(got-v[i]) > 1e-9 {
			t.Fatalf("throughNodes: %g at material %d, want %g", got, m, v[i])
		}
	}
}

// writeGames writes two short games from the start position, gzipped:
// 1. e4 e5 (White won; scores 30, -20) and 1. d4 (drawn; score 10, then a
// mate score and a score beyond --max-score).
func writeGames(t *testing.T) string {
	t.Helper()
	game := func(result byte, plies ...any) *selfplay.Game {
		pos := movegen.NewPosition()
		g := &selfplay.Game{Start: pos.Clone(), Result: result}
		for i := 0; i < len(plies); i += 2 {
			m, err := movegen.ParseMove(pos, plies[i].(string), false)
			if err != nil {
				t.Fatal(err)
			}
			g.Plies = append(g.Plies, selfplay.Ply{Move: m, Score: int16(plies[i+1].(int))})
			pos.Make(m)
		}
		return g
	}
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	w, err := selfplay.NewWriter(z)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []*selfplay.Game{
		game(selfplay.WhiteWins, "e2e4", 30, "e7e5", -20),
		game(selfplay.Draw, "d2d4", 10, "d7d5", eval.Mate-3, "c2c4", 2500),
	} {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "games.bin.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCollect(t *testing.T) {
	path := writeGames(t)
	train, held, cnt, err := collect(config{maxScore: 2000, holdout: 2, files: []string{path}})
	if err != nil {
		t.Fatal(err)
	}
	want := []cell{{m: 78, s: -20, n: [3]float64{1, 0, 0}}, {m: 78, s: 30, n: [3]float64{1, 0, 0}}}
	if len(train) != 2 || train[0] != want[0] || train[1] != want[1] {
		t.Errorf("fitted cells %v, want %v", train, want)
	}
	if wantHeld := (cell{m: 78, s: 10, n: [3]float64{0, 1, 0}}); len(held) != 1 || held[0] != wantHeld {
		t.Errorf("held-out cells %v, want %v", held, wantHeld)
	}
	if cnt.games != 2 || cnt.heldGames != 1 || cnt.used != 2 || cnt.held != 1 || cnt.mate != 1 || cnt.tooLarge != 1 {
		t.Errorf("counts %+v", cnt)
	}
}

func TestRun(t *testing.T) {
	path := writeGames(t)
	for _, args := range [][]string{nil, {"--max-score", "0", path}, {"--holdout", "1", path}, {"--bogus", path}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage || errb.Len() == 0 {
			t.Errorf("run(%q) = %d, stderr %q: want %d and a message", args, code, errb.String(), exitUsage)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"--holdout", "0", filepath.Join(t.TempDir(), "missing.bin")}, &out, &errb); code != exitFailure {
		t.Errorf("missing file: exit %d, stderr %q", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"--holdout", "0", path}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	for _, want := range []string{"games 2 (0 held out); positions 3 fitted", "wdlA0 = ", "wdlB3 = "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
