package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

func TestParseLine(t *testing.T) {
	const fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
	cases := []struct {
		line string
		fen  string
		res  float64
	}{
		{fen + " [1.0]", fen, 1},
		{fen + " [0.5]", fen, 0.5},
		{fen + " [0.0]", fen, 0},
		{fen + " 1-0", fen, 1},
		{fen + " 0-1", fen, 0},
		{fen + " 1/2-1/2", fen, 0.5},
		{fen + " [1/2-1/2]", fen, 0.5},
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 0.5", "4k3/8/8/8/8/8/4P3/4K3 w - -", 0.5},
		{`4k3/8/8/8/8/8/4P3/4K3 b - - c9 "0-1";`, "4k3/8/8/8/8/8/4P3/4K3 b - -", 0},
		{"4k3/8/8/8/8/8/4P3/4K3 w - - 3 40 [1.0]", "4k3/8/8/8/8/8/4P3/4K3 w - - 3 40", 1},
	}
	for _, c := range cases {
		f, r, err := parseLine(c.line)
		if err != nil || f != c.fen || r != c.res {
			t.Errorf("parseLine(%q) = %q, %v, %v; want %q, %v", c.line, f, r, err, c.fen, c.res)
		}
	}
	for _, bad := range []string{fen, fen + " 1", fen + " [2.0]", fen + " [1.0", "8/8 w [1.0]"} {
		if _, _, err := parseLine(bad); err == nil {
			t.Errorf("parseLine(%q) accepted", bad)
		}
	}
}

// syntheticPositions plays seeded random games from 960 starts, preferring
// captures so that material becomes unbalanced.
func syntheticPositions(t *testing.T, games, plies int) []*movegen.Position {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 5))
	var out []*movegen.Position
	var ml movegen.MoveList
	for g := 0; g < games; g++ {
		fen, err := movegen.Chess960FEN(rng.IntN(960))
		if err != nil {
			t.Fatal(err)
		}
		var p movegen.Position
		if err := p.SetFEN(fen); err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < plies; ply++ {
			ml.Clear()
			p.GenerateLegal(&ml)
			if ml.Len() == 0 {
				break
			}
			m := ml.At(rng.IntN(ml.Len()))
			for try := 0; try < 4 && p.PieceOn(m.To()) == movegen.NoPiece; try++ {
				m = ml.At(rng.IntN(ml.Len()))
			}
			p.Make(m)
			if ply%3 == 2 && !p.InCheck() {
				var q movegen.Position
				if err := q.SetFEN(p.FEN(true)); err != nil {
					t.Fatal(err)
				}
				out = append(out, &q)
			}
		}
	}
	return out
}

// TestTunerRecoversWeight labels positions with the expected result under
// the hand weights, starts the tuner from weights with knights valued far
// too low, and requires the loss to fall and the knight to climb back.
func TestTunerRecoversWeight(t *testing.T) {
	truth := eval.HandParams()
	start := truth
	const knight = 1 // Material index of the knight
	start[knight] = eval.Pair{MG: 120, EG: 120}

	positions := syntheticPositions(t, 60, 90)
	truthEv := eval.NewEvaluator(&truth)
	startEv := eval.NewEvaluator(&start)
	d := &dataset{}
	var buf []eval.Feature
	for _, p := range positions {
		res := sigmoid(1, float64(truthEv.Features(p, nil).White))
		buf, _ = d.add(startEv, p, res, buf)
	}
	if len(d.samples) < 1000 {
		t.Fatalf("only %d samples", len(d.samples))
	}
	tu := newTuner(d, &start, 2)
	// Each knight also counts once in its square table and its mobility
	// table, which would absorb the deficit: hold those fixed so that the
	// material weight is identifiable.
	if err := tu.freeze([]string{"PST knight", "Mobility knight"}); err != nil {
		t.Fatal(err)
	}
	if k := tu.fitK(); k < 0.5 || k > 1.5 {
		t.Errorf("fitted K %.3f, want near the labels' 1", k)
	}
	const k = 1.0 // the labels' own scaling
	before := tu.pass(k, nil)
	after := tu.adam(k, 1000, 2, 0, nil)
	got := tu.params()
	t.Logf("%d samples, loss %.6f -> %.6f, knight %v -> %v (truth %v)",
		len(d.samples), before, after, start[knight], got[knight], truth[knight])
	if !(after < before*0.5) {
		t.Errorf("loss %.6f -> %.6f: want a clear decrease", before, after)
	}
	for _, v := range [][3]int{{start[knight].MG, got[knight].MG, truth[knight].MG}, {start[knight].EG, got[knight].EG, truth[knight].EG}} {
		if from, to, want := v[0], v[1], v[2]; to-from < (want-from)*2/3 {
			t.Errorf("knight value %d did not climb from %d toward %d", to, from, want)
		}
	}
}

// TestGradientMatchesNumeric checks the analytic gradient against finite
// differences on a few weights.
func TestGradientMatchesNumeric(t *testing.T) {
	p := eval.HandParams()
	ev := eval.NewEvaluator(&p)
	d := &dataset{}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, pos := range syntheticPositions(t, 10, 60) {
		d.add(ev, pos, float64(rng.IntN(3))/2, nil)
	}
	tu := newTuner(d, &p, 1)
	grad := make([]float64, len(tu.w))
	const k = 1.2
	tu.pass(k, grad)
	checked := 0
	for _, i := range []int{2 * 1, 2*1 + 1, 2 * 3, 2*(eval.NumTerms-1) + 0, 2*(eval.NumTerms-1) + 1} {
		if grad[i] == 0 {
			continue
		}
		const h = 0.01
		w := tu.w[i]
		tu.w[i] = w + h
		up := tu.pass(k, nil)
		tu.w[i] = w - h
		down := tu.pass(k, nil)
		tu.w[i] = w
		num := (up - down) / (2 * h)
		if math.Abs(num-grad[i]) > 1e-3*math.Abs(num)+1e-9 {
			t.Errorf("weight %d: analytic %g, numeric %g", i, grad[i], num)
		}
		checked++
	}
	if checked < 3 {
		t.Fatalf("only %d weights had a gradient", checked)
	}
}

// TestRunWritesParams runs the command on a small file in every result
// notation and checks the written Go file.
func TestRunWritesParams(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data.epd")
	var sb strings.Builder
	hand := eval.HandParams()
	ev := eval.NewEvaluator(&hand)
	for i, p := range syntheticPositions(t, 12, 60) {
		v := ev.Features(p, nil).White
		res := [3]string{"[0.0]", "[0.5]", "[1.0]"}
		if i%2 == 1 {
			res = [3]string{"0-1", "1/2-1/2", "1-0"}
		}
		r := res[1]
		if v > 150 {
			r = res[2]
		} else if v < -150 {
			r = res[0]
		}
		fmt.Fprintf(&sb, "%s %s\n", p.FEN(true), r)
	}
	sb.WriteString("# a comment\nnot a fen [1.0]\n")
	if err := os.WriteFile(data, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "params_tuned.go")
	var stdout, stderr bytes.Buffer
	err := run([]string{"--data", data, "--out", out, "--epochs", "30", "--report", "10", "--from", "hand", "--freeze", "Tempo"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	if !strings.HasPrefix(text, "// Code generated by go run ./cmd/tune; DO NOT EDIT.") ||
		!strings.Contains(text, "func tunedParams() *Params") {
		t.Fatalf("unexpected output:\n%.400s", text)
	}
	// Tempo was frozen: its pair must be written unchanged.
	tempo := fmt.Sprintf("// Tempo\n\t\t{%d, %d},", hand[eval.NumTerms-1].MG, hand[eval.NumTerms-1].EG)
	if !strings.Contains(text, tempo) {
		t.Errorf("frozen tempo not kept: want %q in output", tempo)
	}
	if !strings.Contains(stdout.String(), "1 malformed") {
		t.Errorf("malformed line not reported:\n%s", stdout.String())
	}
	if err := run([]string{"--out", out}, &stdout, &stderr); err == nil {
		t.Error("run without --data succeeded")
	}
}

// TestSplitAndL2: the hold-out split partitions the samples by blocks, and
// a strong pull toward the starting weights keeps them there.
func TestSplitAndL2(t *testing.T) {
	p := eval.HandParams()
	ev := eval.NewEvaluator(&p)
	d := &dataset{}
	for i, pos := range syntheticPositions(t, 10, 60) {
		d.add(ev, pos, float64(i%3)/2, nil)
	}
	train, valid := d.split(4, 10)
	if len(train.samples)+len(valid.samples) != len(d.samples) || len(valid.samples) == 0 {
		t.Fatalf("split %d + %d of %d", len(train.samples), len(valid.samples), len(d.samples))
	}
	if want := len(d.samples) / 40 * 10; len(valid.samples) < want {
		t.Errorf("validation has %d samples, want at least %d", len(valid.samples), want)
	}
	drift := func(l2 float64) float64 {
		tu := newTuner(train, &p, 1)
		tu.l2 = l2
		tu.adam(1, 100, 2, 0, nil)
		m := 0.0
		for i := range tu.w {
			m = max(m, math.Abs(tu.w[i]-tu.w0[i]))
		}
		return m
	}
	free, held := drift(0), drift(1)
	if held >= free/4 {
		t.Errorf("max drift %.1f with l2, %.1f without: want l2 to hold the weights", held, free)
	}
}
