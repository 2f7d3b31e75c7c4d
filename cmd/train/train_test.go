package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/cmd/internal/selfplay"
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
)

var pieceValue = [...]int{movegen.Pawn: 100, movegen.Knight: 300, movegen.Bishop: 300, movegen.Rook: 500, movegen.Queen: 900}

// syntheticLines plays random games and labels their positions with the
// material balance (White's view) and a result that follows its sign.
func syntheticLines(t testing.TB, n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 1))
	var lines []string
	var list movegen.MoveList
	for len(lines) < n {
		pos := movegen.NewPosition()
		if err := pos.SetFEN("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"); err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < 120 && len(lines) < n; ply++ {
			list.Clear()
			pos.GenerateLegal(&list)
			if list.Len() == 0 {
				break
			}
			pos.Make(list.At(r.IntN(list.Len())))
			if ply < 6 {
				continue
			}
			mat := 0
			for pt := movegen.Pawn; pt <= movegen.Queen; pt++ {
				mat += pieceValue[pt] * (pos.Pieces(movegen.White, pt).Count() - pos.Pieces(movegen.Black, pt).Count())
			}
			res := "0.5"
			if mat > 150 {
				res = "1.0"
			} else if mat < -150 {
				res = "0.0"
			}
			lines = append(lines, fmt.Sprintf("%s | %d | %s", pos.FEN(true), mat, res))
		}
	}
	return lines
}

func writeGz(t testing.TB, path string, lines []string) {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write([]byte(strings.Join(lines, "\n") + "\n"))
	z.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTextReader(t *testing.T) {
	in := "# comment\n\n" +
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 950 | 1.0\n" +
		"4k3/8/8/8/8/8/8/3QK3 b - - 0 1 | 900 | 1.0\n" +
		"not a fen | 3 | 0.5\n" +
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | x | 0.5\n" +
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 3 | 0.7\n" +
		"4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 3\n"
	path := writeTestFile(t, t.TempDir(), "d.txt", []byte(in))
	train, valid, st, err := load(context.Background(), []string{path}, 0, 1000, 0, trainFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if st.read != 2 || st.bad != 4 || train.len() != 2 || valid.len() != 0 {
		t.Fatalf("stats %+v", st)
	}
	// Scores and results are stored from the side to move's view.
	if train.score(0) != 950 || train.result(0) != 1 || train.score(1) != -900 || train.result(1) != 0 {
		t.Fatalf("scores %d %d results %g %g", train.score(0), train.score(1), train.result(0), train.result(1))
	}
	if got := len(train.features(0, nil)); got != 3 {
		t.Fatalf("%d features for three pieces", got)
	}
	if _, _, _, err := load(context.Background(), []string{filepath.Join(t.TempDir(), "x.bin")}, 0, 1, 0, trainFilter{}); err == nil {
		t.Fatal("no error for a missing file of unknown format")
	}
}

func TestHoldoutSplit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.txt.gz")
	writeGz(t, path, syntheticLines(t, 1000, 1))
	train, valid, _, err := load(context.Background(), []string{path}, 4, 100, 0, trainFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if train.len() != 800 || valid.len() != 200 { // blocks 3 and 7 of 10
		t.Fatalf("%d training, %d validation: want 800 and 200", train.len(), valid.len())
	}
	hand := 0
	for i := range valid.len() {
		if valid.hand(i) != 0 {
			hand++
		}
	}
	if hand < 100 {
		t.Fatalf("%d of 200 validation positions have a hand-written evaluation", hand)
	}
}

// TestGradientCheck compares the analytic gradient with central finite
// differences on a tiny net, for both activations, with one output bucket
// and with eight (the positions span several: each bucket's weights get the
// gradient of its own positions only).
func TestGradientCheck(t *testing.T) {
	lc := lossConfig{scale: 400, wdl: 0.3}
	for _, tc := range []struct {
		act                nnue.Activation
		buckets, positions int
		factor             bool // two king buckets by rank and their shared rows
	}{{nnue.CReLU, 1, 20, false}, {nnue.SCReLU, 1, 20, false}, {nnue.SCReLU, 8, 150, false}, {nnue.SCReLU, 2, 150, true}} {
		// 20 positions from ply 6 of one random game; 150 span more
		// piece counts, so that several buckets have positions.
		path := filepath.Join(t.TempDir(), "d.txt.gz")
		writeGz(t, path, syntheticLines(t, tc.positions, 2))
		d, _, _, err := load(context.Background(), []string{path}, 0, 1000, 0, trainFilter{})
		if err != nil {
			t.Fatal(err)
		}
		idx := make([]uint32, d.len())
		for i := range idx {
			idx[i] = uint32(i)
		}
		act := tc.act
		m := newModel(8, act, tc.buckets, rand.New(rand.NewPCG(3, 4)))
		for i := range m.w2 {
			m.w2[i] *= 20 // a gradient big enough to measure in float32
		}
		if tc.factor {
			kb, err := parseKingBuckets("0,0,0,0,1,1,1,1")
			if err != nil {
				t.Fatal(err)
			}
			if err := m.setLayout(nnue.KingBuckets, kb); err != nil {
				t.Fatal(err)
			}
			if err := m.setFactor(true); err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(6, 6))
			for i := range m.w1 {
				m.w1[i] = float32(rng.NormFloat64() * 0.05) // the shared rows too
			}
		}
		work := []*scratch{m.newScratch()}
		m.step(d, idx, lc, work)
		g := work[0].g
		loss := func() float64 {
			var s float64
			sc := m.newScratch()
			for i := range d.len() {
				sc.us, sc.them = m.features(d, i, false, m.net(), sc.us, sc.them)
				p := sigmoid(float64(m.forward(sc, sc.us, sc.them)) * netScale / lc.scale)
				s += sq(p - float64(lc.target(d.score(i), d.result(i))))
			}
			return s
		}
		check := func(name string, p *float32, analytic float32) {
			const eps = 1e-3
			old := *p
			*p = old + eps
			up := loss()
			*p = old - eps
			down := loss()
			*p = old
			numeric := (up - down) / (2 * eps)
			if math.Abs(numeric-float64(analytic)) > 0.02*math.Abs(numeric)+1e-5 {
				t.Errorf("%v %s: analytic %.6g, numeric %.6g", act, name, analytic, numeric)
			}
		}
		used := 0
		for b := range tc.buckets {
			check(fmt.Sprintf("b2[%d]", b), &m.b2[b], g.b2[b])
			if g.b2[b] != 0 {
				used++
			}
			for i := range 4 {
				k := b*2*m.h + i*3
				check(fmt.Sprintf("w2[%d]", k), &m.w2[k], g.w2[k])
			}
		}
		if tc.buckets > 1 && used < 2 {
			t.Fatalf("the positions use %d of %d buckets: the check proves little", used, tc.buckets)
		}
		for i := range 4 {
			check(fmt.Sprintf("b1[%d]", i), &m.b1[i], g.b1[i])
		}
		// Rows of the first king bucket, of the second, and the shared
		// ones (factor).
		for lo := 0; lo < m.rows(); lo += nnue.Inputs {
			checked := 0
			for f := lo; f < lo+nnue.Inputs; f++ {
				if g.touched[f] && checked < 6 {
					check(fmt.Sprintf("w1[%d][1]", f), &m.w1[f*m.h+1], g.w1[f*m.h+1])
					checked++
				}
			}
			if checked == 0 {
				t.Fatalf("no first-layer row in %d..%d touched", lo, lo+nnue.Inputs-1)
			}
		}
	}
}

// TestParseKingBuckets: --king-buckets takes 32 buckets or 8, one per rank,
// each 0..15.
func TestParseKingBuckets(t *testing.T) {
	kb, err := parseKingBuckets(defaultKingBuckets)
	if err != nil || kb[0] != 0 || kb[2] != 1 || kb[4] != 2 || kb[31] != 3 || (&nnue.Net{Layout: nnue.KingBuckets, KingBucket: kb}).KingBuckets() != 4 {
		t.Fatalf("the default: %v, %v", kb, err)
	}
	kb, err = parseKingBuckets("0,1,2,3,4,5,6,15")
	if err != nil || kb[3] != 0 || kb[4] != 1 || kb[27] != 6 || kb[28] != 15 || kb[31] != 15 {
		t.Fatalf("one per rank: %v, %v", kb, err)
	}
	for _, bad := range []string{"", "1,2,3", "0,1,2,3,4,5,6,16", "0,1,2,3,4,5,6,-1", "0,1,2,3,4,5,6,x", strings.Repeat("0,", 32) + "0"} {
		if _, err := parseKingBuckets(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestTrainLearnsAndQuantises trains on material-labelled positions: the
// validation loss must fall far below its start, and the integer net must
// stay within a few centipawns of the float one (with output buckets too,
// which checks that the trainer and eval/nnue pick the same bucket and that
// every bucket is quantised).
func TestTrainLearnsAndQuantises(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.txt.gz")
	lines := syntheticLines(t, 12000, 5)
	writeGz(t, data, lines)
	best := map[bool]float64{} // of the KingBuckets nets, by --factorise
	for _, c := range []struct {
		buckets int
		layout  nnue.Layout
		factor  bool
	}{{1, nnue.Plain, false}, {4, nnue.Plain, false}, {4, nnue.KingMirrored, false}, {4, nnue.KingBuckets, false}, {4, nnue.KingBuckets, true}} {
		t.Run(fmt.Sprintf("buckets=%d,%v,factorise=%t", c.buckets, c.layout, c.factor), func(t *testing.T) {
			loss := trainLearns(t, dir, data, lines, c.buckets, c.layout, c.factor)
			if c.layout == nnue.KingBuckets {
				best[c.factor] = loss
			}
		})
	}
	// The king buckets' shared rows learn from every position, where each
	// bucket's own rows see only its share: on these 12000 positions the
	// factorised net validates better than the same net without them.
	if best[true] >= best[false] {
		t.Errorf("the best validation loss of two king buckets: %g factorised, %g without", best[true], best[false])
	}
}

// trainLearns trains a net and checks what it learnt and that the engine,
// refreshing each position as the search does, evaluates it as the trained
// float model does, within quantisation. It returns the lowest validation
// loss.
func trainLearns(t *testing.T, dir, data string, lines []string, buckets int, layout nnue.Layout, factor bool) float64 {
	out := filepath.Join(dir, fmt.Sprintf("t%d%v%t.nnue", buckets, layout, factor))
	var stdout, stderr bytes.Buffer
	args := []string{"--data", data, "--out", out, "--hidden", "32", "--epochs", "8", "--batch", "256", "--lr", "0.005",
		"--threads", "2", "--block", "500", "--holdout", "6", "--seed", "3", "--buckets", strconv.Itoa(buckets), "--layout", layout.String()}
	fall := 3.0 // the validation loss must fall to a third
	if layout == nnue.KingBuckets {
		// Two king buckets, by rank (kings on ranks 1-4 and 5-8 from their
		// own side): each learns from its share of the positions, so 8
		// epochs of these 12000 take the loss to a half.
		args = append(args, "--king-buckets", "0,0,0,0,1,1,1,1")
		fall = 2
	}
	if factor {
		// The shared rows learn from every position: the loss falls as
		// without king buckets.
		args = append(args, "--factorise")
		fall = 3
	}
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	var first, last, qerr float64
	for _, line := range strings.Split(stdout.String(), "\n") {
		var e int
		var v, x float64
		if _, err := fmt.Sscanf(line, "epoch 0  validation %f", &v); err == nil {
			first = v
		}
		if _, err := fmt.Sscanf(line, "epoch %d  lr %f  train %f  validation %f", &e, &x, &x, &v); err == nil {
			if last == 0 || v < last {
				last = v // the lowest validation loss, the epoch that is kept
			}
		}
		if _, err := fmt.Sscanf(line, "quantisation: mean |float - integer| = %f", &v); err == nil {
			qerr = v
		}
	}
	if first == 0 || last == 0 || last > first/fall {
		t.Fatalf("validation loss %g -> %g: did not fall to 1/%g\n%s", first, last, fall, stdout.String())
	}
	if qerr == 0 || qerr > 5 {
		t.Fatalf("quantisation error %g cp\n%s", qerr, stdout.String())
	}
	n, err := nnue.LoadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n.Buckets() != buckets || n.Layout != layout {
		t.Fatalf("the net has %d output buckets and the %v layout, want %d and %v", n.Buckets(), n.Layout, buckets, layout)
	}
	ck, err := loadCheckpoint(out+".ckpt.best", 0) // the epoch that was quantised
	if err != nil {
		t.Fatal(err)
	}
	d, _, _, err := load(context.Background(), []string{data}, 0, 1000, 0, trainFilter{})
	if err != nil {
		t.Fatal(err)
	}
	acc := n.NewAccumulators(1)
	s := ck.m.newScratch()
	var sum, worst float64
	for i, line := range lines {
		pos := movegen.NewPosition()
		if err := pos.SetFEN(strings.TrimSpace(strings.Split(line, "|")[0])); err != nil {
			t.Fatal(err)
		}
		acc[0].Refresh(n, pos)
		s.us, s.them = ck.m.features(d, i, false, ck.m.net(), s.us, s.them)
		diff := math.Abs(float64(ck.m.forward(s, s.us, s.them))*netScale - float64(n.Evaluate(&acc[0], pos.SideToMove())))
		sum += diff
		worst = max(worst, diff)
	}
	if mean := sum / float64(len(lines)); ck.m.layout != layout || ck.m.factor != factor || mean > 5 || worst > 25 {
		t.Fatalf("the checkpoint's layout %v, factorised %t; the engine against the float model: mean |difference| %.2f cp, max %.0f", ck.m.layout, ck.m.factor, mean, worst)
	}
	// Resuming with another shape is refused.
	args = []string{"--data", data, "--out", out + ".2", "--hidden", "32", "--epochs", "1", "--block", "500", "--holdout", "6",
		"--resume", out + ".ckpt", "--buckets", strconv.Itoa(buckets + 1)}
	if err := run(context.Background(), args, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "output buckets") {
		t.Fatalf("--resume of a %d-bucket checkpoint with --buckets %d: %v", buckets, buckets+1, err)
	}
	// The net must have learnt that a queen is worth a lot: on a full board
	// (the random games seldom get below 20 pieces, so with buckets only the
	// full-board ones are trained) and, with one bucket, on a sparse one.
	pairs := [][2]string{{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w - - 0 1"}}
	if buckets == 1 {
		pairs = append(pairs, [2]string{"4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1", "3qk3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1"})
	}
	for _, pair := range pairs {
		up, down := movegen.NewPosition(), movegen.NewPosition()
		up.SetFEN(pair[0])
		down.SetFEN(pair[1])
		acc[0].Refresh(n, up)
		a := n.Evaluate(&acc[0], movegen.White)
		acc[0].Refresh(n, down)
		b := n.Evaluate(&acc[0], movegen.White)
		if a < b+500 {
			t.Fatalf("a queen up scores %d, a queen down %d (%s)", a, b, pair[0])
		}
	}
	return last
}

// TestKingBucketsFromNet: a plain or mirrored model given the KingBuckets
// layout gets each bucket's rows as copies of its own, so that it computes
// what the mirrored net computes; a KingBuckets model keeps its buckets,
// and its checkpoint holds them.
func TestKingBucketsFromNet(t *testing.T) {
	kb, err := parseKingBuckets(defaultKingBuckets)
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(16, nnue.SCReLU, 4, rand.New(rand.NewPCG(5, 5)))
	if err := m.setLayout(nnue.KingMirrored, kb); err != nil {
		t.Fatal(err)
	}
	mirrored := m.clone()
	if err := m.setLayout(nnue.KingBuckets, kb); err != nil {
		t.Fatal(err)
	}
	if len(m.w1) != 4*nnue.Inputs*16 || !slices.Equal(m.w1[3*nnue.Inputs*16:], mirrored.w1) {
		t.Fatalf("%d first-layer weights, the last bucket's a copy: %v", len(m.w1), slices.Equal(m.w1[3*nnue.Inputs*16:], mirrored.w1))
	}
	path := filepath.Join(t.TempDir(), "d.txt.gz")
	writeGz(t, path, syntheticLines(t, 300, 7))
	d, _, _, err := load(context.Background(), []string{path}, 0, 1000, 0, trainFilter{})
	if err != nil {
		t.Fatal(err)
	}
	s, sm := m.newScratch(), mirrored.newScratch()
	for i := range d.len() {
		s.us, s.them = d.sideFeatures(i, m.net(), s.us, s.them)
		sm.us, sm.them = d.sideFeatures(i, mirrored.net(), sm.us, sm.them)
		if a, b := m.forward(s, s.us, s.them), mirrored.forward(sm, sm.us, sm.them); a != b {
			t.Fatalf("position %d: %g with copied king buckets, %g mirrored", i, a, b)
		}
	}
	other := kb
	other[31] = 4
	if err := m.setLayout(nnue.KingBuckets, other); err == nil {
		t.Error("a KingBuckets model took other king buckets")
	}
	ck := filepath.Join(t.TempDir(), "kb.ckpt")
	if err := m.save(ck, newAdam(m, 0.001), &runKey{}, &progress{}); err != nil {
		t.Fatal(err)
	}
	c, err := loadCheckpoint(ck, 0.001)
	if err != nil || c.m.layout != nnue.KingBuckets || c.m.kingBucket != kb || !slices.Equal(c.m.w1, m.w1) {
		t.Fatalf("the checkpoint: %v", err)
	}
}

func TestCheckpointRoundTrip(t *testing.T) {
	m := newModel(16, nnue.SCReLU, 4, rand.New(rand.NewPCG(1, 1)))
	m.layout = nnue.KingMirrored
	m.b2[2] = 0.25
	a := newAdam(m, 0.001)
	a.t = 17
	a.m[2][3], a.v[0][5] = 0.5, 0.125
	key := runKey{runKeyV4{Seed: 3, Batch: 512, Mirror: 1, LR: 0.001, Gamma: 0.9, Scale: 400, WDL: 0.3, Epochs: 20, Patience: 2, Train: 1000, Valid: 50, TrainSum: 7, ValidSum: 9, Threads: 2}, 1, 1e-5}
	st := progress{Epoch: 2, Done: 300, LR: 0.00081, TrainLoss: 1.5, BestLoss: 0.01, BestEpoch: 2}
	path := filepath.Join(t.TempDir(), "c.ckpt")
	if err := m.save(path, a, &key, &st); err != nil {
		t.Fatal(err)
	}
	ck, err := loadCheckpoint(path, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	m2, a2 := ck.m, ck.a
	if m2.buckets != 4 || m2.layout != nnue.KingMirrored || !slices.Equal(m.w1, m2.w1) || !slices.Equal(m.w2, m2.w2) || !slices.Equal(m.b2, m2.b2) || a2.t != 17 || a2.m[2][3] != 0.5 || a2.v[0][5] != 0.125 ||
		*ck.key != key || *ck.state != st || a2.lr != st.LR {
		t.Fatal("checkpoint does not round-trip")
	}
	if _, err := os.Stat(path + ".tmp"); err == nil {
		t.Fatal("the temporary file is left")
	}
	b, _ := os.ReadFile(path)
	for _, cut := range []int{len(b) - 3, 30, 10} {
		os.WriteFile(path, b[:cut], 0o644)
		if _, err := loadCheckpoint(path, 0.001); err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Fatalf("checkpoint cut at %d: %v", cut, err)
		}
	}
	for _, bad := range []struct {
		off int
		v   uint32
	}{{16, 0}, {16, 17}, {20, 2}} { // 0 or 17 buckets, layout 2
		data := bytes.Clone(b)
		binary.LittleEndian.PutUint32(data[bad.off:], bad.v)
		os.WriteFile(path, data, 0o644)
		if _, err := loadCheckpoint(path, 0.001); err == nil || !strings.Contains(err.Error(), "not a checkpoint") {
			t.Fatalf("checkpoint with %d at offset %d: %v", bad.v, bad.off, err)
		}
	}

	// "KRC4", before the cosine schedule, is of a step schedule run; "KRC3",
	// the layout before the layout word, of a plain net too.
	stepKey := runKey{runKeyV4: key.runKeyV4}
	for _, head := range [][]uint32{{ckMagicV4, 16, uint32(nnue.SCReLU), 17, 4, uint32(nnue.KingMirrored)}, {ckMagicV3, 16, uint32(nnue.SCReLU), 17, 4}} {
		var old bytes.Buffer
		for _, p := range append([]any{head, key.runKeyV4, st}, checkpointArrays(m, a)...) {
			binary.Write(&old, binary.LittleEndian, p)
		}
		os.WriteFile(path, old.Bytes(), 0o644)
		want := nnue.Plain
		if head[0] == ckMagicV4 {
			want = nnue.KingMirrored
		}
		if ck, err := loadCheckpoint(path, 0.5); err != nil || ck.m.layout != want || ck.m.buckets != 4 || *ck.key != stepKey || *ck.state != st || !slices.Equal(ck.m.w1, m.w1) {
			t.Fatalf("a %x checkpoint: %v", head[0], err)
		}
	}

	// The earlier layouts: "KRC2" (weights and moments) and "KRCK" (no
	// bucket word, one output bias) read without the run's state.
	m1 := newModel(16, nnue.SCReLU, 1, rand.New(rand.NewPCG(2, 2)))
	m1.b2[0] = -0.5
	a1 := newAdam(m1, 0.001)
	a1.t, a1.m[3][0], a1.v[3][0] = 5, 0.25, 0.75
	for _, head := range [][]uint32{{ckMagicV2, 16, uint32(nnue.SCReLU), 5, 1}, {ckMagicV1, 16, uint32(nnue.SCReLU), 5}} {
		var old bytes.Buffer
		for _, p := range append([]any{head}, checkpointArrays(m1, a1)...) {
			binary.Write(&old, binary.LittleEndian, p)
		}
		os.WriteFile(path, old.Bytes(), 0o644)
		ck, err := loadCheckpoint(path, 0.001)
		if err != nil {
			t.Fatalf("layout %x: %v", head[0], err)
		}
		m3, a3 := ck.m, ck.a
		if ck.key != nil || ck.state != nil || m3.buckets != 1 || !slices.Equal(m3.w1, m1.w1) || !slices.Equal(m3.w2, m1.w2) || !slices.Equal(m3.b2, m1.b2) ||
			a3.t != 5 || a3.m[3][0] != 0.25 || a3.v[3][0] != 0.75 || !slices.Equal(a3.v[0], a1.v[0]) || a3.lr != 0.001 {
			t.Fatalf("layout %x does not load", head[0])
		}
	}
}

// TestMirrorFeatures checks that the flipped features of a position are
// those of its mirror image across the d/e line.
func TestMirrorFeatures(t *testing.T) {
	lines := "r3k2r/1pq2ppp/8/3pP3/8/2N5/PP3PPP/R1BQK2R b KQkq - 0 1 | 10 | 0.5\n" +
		"r2k3r/ppp2qp1/8/3Pp3/8/5N2/PPP3PP/R2KQB1R b - - 0 1 | 10 | 0.5\n"
	path := writeTestFile(t, t.TempDir(), "d.txt", []byte(lines))
	d, _, _, err := load(context.Background(), []string{path}, 0, 1000, 0, trainFilter{})
	if err != nil {
		t.Fatal(err)
	}
	fu, ft := d.sideFeaturesFlip(0, true, &nnue.Net{}, nil, nil)
	mu, mt := d.sideFeatures(1, &nnue.Net{}, nil, nil)
	slices.Sort(fu)
	slices.Sort(ft)
	slices.Sort(mu)
	slices.Sort(mt)
	if !slices.Equal(fu, mu) || !slices.Equal(ft, mt) {
		t.Fatalf("flipped %v %v, mirror image %v %v", fu, ft, mu, mt)
	}
}

// binaryTestGames plays random games from a few starts and returns them in
// the binary format, with the text lines ("FEN | score | result") of the
// positions that selfplay.TrainingFilter keeps, mates and scores beyond the
// filter's limit among the dropped ones.
func binaryTestGames(t *testing.T) (bin []byte, lines []string) {
	t.Helper()
	r := rand.New(rand.NewPCG(5, 6))
	var buf bytes.Buffer
	w, err := selfplay.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	var list movegen.MoveList
	starts := []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"bnrbkrqn/pppppppp/8/8/8/8/PPPPPPPP/BNRBKRQN w FCfc - 0 1",
		"rkrbbnqn/pppppppp/8/8/8/8/PPPPPPPP/BNRBKRQN w FCca - 0 1",
	}
	for g := range 12 {
		start := movegen.NewPosition()
		if err := start.SetFEN(starts[g%len(starts)]); err != nil {
			t.Fatal(err)
		}
		game := selfplay.Game{Start: start, Result: byte(g % 3)}
		pos := start.Clone()
		for ply := range 80 {
			list.Clear()
			pos.GenerateLegal(&list)
			if list.Len() == 0 {
				break
			}
			m := list.At(r.IntN(list.Len()))
			score := int16(r.IntN(900) - 450)
			switch ply % 17 {
			case 5:
				score = eval.Mate - 7 // a mate score: never trained on
			case 11:
				score = 2500 // beyond the filter's limit
			}
			game.Plies = append(game.Plies, selfplay.Ply{Move: m, Score: score})
			if selfplay.TrainingFilter.Keep(pos, m, int(score), ply) {
				lines = append(lines, fmt.Sprintf("%s | %d | %.1f", pos.FEN(true), score, selfplay.ResultValue(game.Result)))
			}
			pos.Make(m)
		}
		if err := w.Write(&game); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if len(lines) < 100 {
		t.Fatalf("only %d training positions in the test games", len(lines))
	}
	return buf.Bytes(), lines
}

// writeTestFile writes data to name in dir and returns its path.
func writeTestFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBinaryReader reads cmd/datagen's binary games, plain and gzipped, and
// checks they give the same training positions as the text lines the shared
// corpus would hold for those games (selfplay.TrainingFilter).
func TestBinaryReader(t *testing.T) {
	bin, lines := binaryTestGames(t)
	dir := t.TempDir()
	txt := writeTestFile(t, dir, "games.txt", []byte(strings.Join(lines, "\n")+"\n"))
	plain := writeTestFile(t, dir, "games.bin", bin)
	var zb bytes.Buffer
	z := gzip.NewWriter(&zb)
	z.Write(bin)
	z.Close()
	zipped := writeTestFile(t, dir, "games.bin.gz", zb.Bytes())
	// The same games under a version 2 header, as cmd/datagen writes them.
	var mb bytes.Buffer
	mw, _ := selfplay.NewWriter(&mb)
	mw.SetMeta(selfplay.Meta{"seed": "1"})
	r := selfplay.NewReader(bytes.NewReader(bin))
	for {
		var g selfplay.Game
		if err := r.ReadGame(&g); err != nil {
			break
		}
		mw.Write(&g)
	}
	mw.Close()
	withMeta := writeTestFile(t, dir, "meta.bin", mb.Bytes())
	want, _, wst, err := load(context.Background(), []string{txt}, 0, 1000, 0, trainFilter{})
	if err != nil || wst.read != len(lines) {
		t.Fatalf("text: %v, %+v", err, wst)
	}
	for _, path := range []string{plain, zipped, withMeta} {
		got, _, st, err := load(context.Background(), []string{path}, 0, 1000, 0, trainFilter{})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if st != wst || got.checksum() != want.checksum() || !slices.EqualFunc(got.chunks, want.chunks, slices.Equal) {
			t.Fatalf("%s: %+v positions differ from the text lines' %+v", filepath.Base(path), st, wst)
		}
	}

	// Damaged data is an error, never a silent partial read or a panic.
	bad := slices.Clone(bin)
	bad[8] = 7 // the first game's result byte: 0-2 only
	badPath := writeTestFile(t, dir, "bad.bin", bad)
	if _, _, _, err := load(context.Background(), []string{badPath}, 0, 1000, 0, trainFilter{}); err == nil {
		t.Fatal("no error for a corrupt game file")
	}
	other := writeTestFile(t, dir, "other.dat", []byte("not a game file\n"))
	if _, _, _, err := load(context.Background(), []string{other}, 0, 1000, 0, trainFilter{}); err == nil || !strings.Contains(err.Error(), "unknown data format") {
		t.Fatalf("file of no known format: %v", err)
	}
}

// TestInitFromNet checks --init: the float model read from a net quantises
// back to the same net (the embedded one included), a run that starts from a
// net starts at that net's validation loss, and a net of another shape or
// quantisation is refused.
func TestInitFromNet(t *testing.T) {
	emb, err := nnue.LoadEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	m, err := modelFromNet(emb)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := emb.Write(&a); err != nil {
		t.Fatal(err)
	}
	if err := m.quantise().Write(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the embedded net does not survive modelFromNet and quantise")
	}

	dir := t.TempDir()
	data := filepath.Join(dir, "d.txt.gz")
	writeGz(t, data, syntheticLines(t, 3000, 9))
	base := []string{"--data", data, "--block", "500", "--holdout", "6", "--batch", "256", "--threads", "2"}
	first := filepath.Join(dir, "a.nnue")
	var out1 bytes.Buffer
	if err := run(context.Background(), slices.Concat(base, []string{"--out", first, "--hidden", "32", "--buckets", "2", "--epochs", "3", "--lr", "0.005", "--patience", "0", "--keep-best=false"}), &out1, io.Discard); err != nil {
		t.Fatal(err)
	}
	var out2 bytes.Buffer
	if err := run(context.Background(), slices.Concat(base, []string{"--out", filepath.Join(dir, "b.nnue"), "--init", first, "--epochs", "1"}), &out2, io.Discard); err != nil {
		t.Fatal(err)
	}
	// The last epoch's loss of the first run is the float model's; the
	// second run's epoch 0 is its quantised copy's, within rounding.
	var last, start float64
	for _, line := range strings.Split(out1.String(), "\n") {
		var e int
		var x, v float64
		if _, err := fmt.Sscanf(line, "epoch %d  lr %f  train %f  validation %f", &e, &x, &x, &v); err == nil {
			last = v
		}
	}
	for _, line := range strings.Split(out2.String(), "\n") {
		fmt.Sscanf(line, "epoch 0  validation %f", &start)
	}
	if last == 0 || start == 0 || math.Abs(start-last) > 0.02*last {
		t.Fatalf("first run ends at validation %g, the run from its net starts at %g\n%s\n%s", last, start, out1.String(), out2.String())
	}
	if !strings.Contains(out2.String(), "H=32 screlu, 2 output buckets") {
		t.Fatalf("--init did not take the net's shape:\n%s", out2.String())
	}

	// A larger --hidden widens the net without changing what it computes:
	// the widened run starts at the same loss.
	var out3 bytes.Buffer
	if err := run(context.Background(), slices.Concat(base, []string{"--out", filepath.Join(dir, "w.nnue"), "--init", first, "--hidden", "64", "--epochs", "1"}), &out3, io.Discard); err != nil {
		t.Fatal(err)
	}
	var wide float64
	for _, line := range strings.Split(out3.String(), "\n") {
		fmt.Sscanf(line, "epoch 0  validation %f", &wide)
	}
	if !strings.Contains(out3.String(), "H=64 screlu, 2 output buckets") || wide == 0 || math.Abs(wide-start) > 1e-5*start {
		t.Fatalf("widened to 64: starts at %g, the net itself at %g\n%s", wide, start, out3.String())
	}
	wn, err := nnue.LoadFile(filepath.Join(dir, "w.nnue"))
	if err != nil {
		t.Fatal(err)
	}
	if wn.H != 64 {
		t.Fatalf("the widened net has H=%d, want 64", wn.H)
	}
	// A shape flag that agrees with the net changes nothing: no widening to
	// --hidden's default.
	var out4 bytes.Buffer
	if err := run(context.Background(), slices.Concat(base, []string{"--out", filepath.Join(dir, "s.nnue"), "--init", first, "--buckets", "2", "--epochs", "1"}), &out4, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out4.String(), "H=32 screlu, 2 output buckets") {
		t.Fatalf("--init with --buckets 2 changed the net's shape:\n%s", out4.String())
	}

	for _, bad := range [][]string{
		{"--init", first, "--hidden", "16"},
		{"--init", first, "--buckets", "3"},
		{"--init", first, "--act", "crelu"},
		{"--init", first, "--resume", first + ".ckpt"},
		{"--init", filepath.Join(dir, "missing.nnue")},
	} {
		if err := run(context.Background(), slices.Concat(base, bad, []string{"--out", filepath.Join(dir, "c.nnue"), "--epochs", "1"}), io.Discard, io.Discard); err == nil {
			t.Fatalf("%v: no error", bad)
		}
	}
	other := *emb
	other.QB = 128
	if _, err := modelFromNet(&other); err == nil || !strings.Contains(err.Error(), "QB=128") {
		t.Fatalf("a net of QB 128: %v", err)
	}
}

// TestResumeIsExact interrupts a run twice (as SIGINT does, between two
// Adam steps: mid-epoch, then in a later epoch) and resumes it from its
// checkpoint each time: the net, the checkpoint and the best epoch's
// checkpoint come out bit for bit those of the run left alone. A resumed
// run takes the checkpoint's settings, refuses other data or a flag that
// contradicts them, and says when another thread count breaks the bit
// identity.
func TestResumeIsExact(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.txt.gz")
	writeGz(t, data, syntheticLines(t, 3000, 11))
	dataFlags := []string{"--data", data, "--block", "500", "--holdout", "6", "--threads", "2"}
	settings := []string{"--hidden", "32", "--epochs", "4", "--batch", "256", "--lr", "0.004", "--gamma", "0.8", "--mirror", "--patience", "0", "--seed", "5", "--wdl", "0.4"}
	whole := resumeIsExact(t, dir, "step", dataFlags, settings)
	// The cosine schedule sets the rate at every step: resumed, it is the
	// uninterrupted run's too.
	resumeIsExact(t, dir, "cosine", dataFlags, []string{"--hidden", "32", "--epochs", "3", "--batch", "256", "--lr", "0.004",
		"--lr-schedule", "cosine", "--lr-end", "0.0001", "--mirror", "--patience", "0", "--seed", "6"})

	// Another data set, or a flag against the checkpoint's settings, is
	// refused; another thread count continues with a note.
	other := filepath.Join(dir, "o.txt.gz")
	writeGz(t, other, syntheticLines(t, 3000, 12))
	for _, bad := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--data", other, "--block", "500", "--holdout", "6"}, "give the same --data"},
		{slices.Concat(dataFlags, []string{"--holdout", "5"}), "give the same --data"},
		{slices.Concat(dataFlags, []string{"--batch", "128"}), "--batch 128 (the checkpoint's run: 256)"},
		{slices.Concat(dataFlags, []string{"--mirror=false"}), "--mirror=false"},
		{slices.Concat(dataFlags, []string{"--hidden", "64"}), "H=32"},
		{slices.Concat(dataFlags, []string{"--lr-schedule", "cosine"}), "--lr-schedule cosine (the checkpoint's run: step)"},
	} {
		err := run(context.Background(), slices.Concat(bad.args, []string{"--resume", whole + ".ckpt", "--out", filepath.Join(dir, "x.nnue"), "--epochs", "5"}), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: %v, want %q", bad.args, err, bad.msg)
		}
	}
	var more bytes.Buffer
	args := []string{"--data", data, "--block", "500", "--holdout", "6", "--threads", "1", "--resume", whole + ".ckpt", "--checkpoint", filepath.Join(dir, "more.ckpt"), "--out", filepath.Join(dir, "more.nnue"), "--epochs", "5"}
	if err := run(context.Background(), args, &more, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(more.String(), "had 2 threads, this one 1") || !strings.Contains(more.String(), "epoch 5  lr 0.001638") {
		t.Fatalf("a fifth epoch on one thread:\n%s", more.String())
	}
}

// resumeIsExact trains the run of settings once whole and once stopped
// twice and resumed, and fails unless the nets and checkpoints are the
// same bytes. It returns the whole run's net.
func resumeIsExact(t *testing.T, dir, name string, dataFlags, settings []string) string {
	t.Helper()
	whole := filepath.Join(dir, name+"-whole.nnue")
	var out bytes.Buffer
	if err := run(context.Background(), slices.Concat(dataFlags, settings, []string{"--out", whole}), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	parts := filepath.Join(dir, name+"-parts.nnue")
	ck := parts + ".ckpt"
	steps := 0
	var last string
	for i, stopAfter := range []int{7, 33, 0} {
		args := slices.Concat(dataFlags, settings, []string{"--out", parts})
		switch i {
		case 1:
			args = slices.Concat(dataFlags, []string{"--resume", ck, "--out", parts}) // the settings come from the checkpoint
		case 2:
			args = slices.Concat(dataFlags, []string{"--resume", ck}) // and the net's name from the checkpoint's
		}
		c, err := parseConfig(args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		c.stopAfter = stopAfter
		var log bytes.Buffer
		err = runConfig(context.Background(), c, &log)
		if stopAfter > 0 {
			if !errors.Is(err, errInterrupted) || !strings.Contains(log.String(), "interrupted in epoch") {
				t.Fatalf("stop after %d steps: %v\n%s", stopAfter, err, log.String())
			}
			got, err := loadCheckpoint(ck, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got.a.t != stopAfter || got.state.Done == 0 {
				t.Fatalf("stopped after %d steps: the checkpoint holds %d, %+v", stopAfter, got.a.t, *got.state)
			}
			steps = got.a.t
		} else if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		last = log.String()
		if i > 0 && !strings.Contains(log.String(), fmt.Sprintf("resumed from %s:", ck)) {
			t.Fatalf("no word of the resumption:\n%s", log.String())
		}
	}
	if steps == 0 {
		t.Fatal("no interruption")
	}
	// The report after training measures the resumed net against the run's
	// own target (--wdl, --scale), as the uninterrupted run's does.
	report := func(log string) []string {
		var lines []string
		for l := range strings.Lines(log) {
			if strings.HasPrefix(l, "validation loss, target") || strings.HasPrefix(l, "quantisation:") {
				lines = append(lines, l)
			}
		}
		return lines
	}
	if a, b := report(out.String()), report(last); len(a) == 0 || !slices.Equal(a, b) {
		t.Fatalf("the resumed run's report differs from the uninterrupted run's:\n%s\nagainst\n%s", strings.Join(b, ""), strings.Join(a, ""))
	}
	for _, suffix := range []string{"", ".ckpt", ".ckpt.best"} {
		a, errA := os.ReadFile(whole + suffix)
		b, errB := os.ReadFile(parts + suffix)
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			t.Fatalf("%s: the resumed run's file differs from the uninterrupted run's (%v, %v)\n%s", suffix, errA, errB, out.String())
		}
	}
	return whole
}

// TestRecordSize: a position takes 32 bytes in memory.
func TestRecordSize(t *testing.T) {
	if got := reflect.TypeFor[record]().Size(); got != recordSize {
		t.Fatalf("a record takes %d bytes, recordSize says %d", got, recordSize)
	}
}

// TestDatasetChunks grows a dataset past a chunk, truncates it at and
// around the chunk's end and grows it again: every sample stays where it
// was put.
func TestDatasetChunks(t *testing.T) {
	pos := movegen.NewPosition()
	if err := pos.SetFEN(movegen.StartFEN); err != nil {
		t.Fatal(err)
	}
	const chunk = 1 << chunkBits
	d := newDataset()
	for i := range chunk + 100 {
		d.add(pos, i%1000, 1, false)
	}
	check := func(n int) {
		t.Helper()
		if d.len() != n {
			t.Fatalf("%d samples, want %d", d.len(), n)
		}
		for _, i := range []int{0, 1, chunk - 1, chunk, chunk + 1, n - 1} {
			if i >= 0 && i < n && int(d.score(i)) != i%1000 {
				t.Fatalf("sample %d of %d: score %d", i, n, d.score(i))
			}
		}
	}
	check(chunk + 100)
	for _, n := range []int{chunk + 1, chunk, chunk - 1, 5, 0} {
		d.truncate(n)
		check(n)
	}
	for i := range chunk + 3 {
		d.add(pos, i%1000, 0, false)
	}
	check(chunk + 3)
	if len(d.chunks) != 2 || d.result(chunk) != 0 || len(d.features(chunk, nil)) != 32 {
		t.Fatalf("%d chunks, result %g, %d features", len(d.chunks), d.result(chunk), len(d.features(chunk, nil)))
	}
}

// TestMirroredFeaturesMatchEngine: in the mirrored layout the trainer's
// float inputs of a position, the side to move's and the other side's, are
// the engine's integer net inputs for it (nnue.Net.Feature with each side's
// own king), whichever halves the kings stand on; the file-mirrored copy
// that --mirror would add has the same inputs.
func TestMirroredFeaturesMatchEngine(t *testing.T) {
	_, lines := binaryTestGames(t) // standard, Chess960 and DFRC games
	lines = append(lines, syntheticLines(t, 400, 13)...)
	path := writeTestFile(t, t.TempDir(), "d.txt", []byte(strings.Join(lines, "\n")+"\n"))
	d, _, _, err := load(context.Background(), []string{path}, 0, 1000, 0, trainFilter{})
	if err != nil || d.len() != len(lines) {
		t.Fatalf("%d of %d positions read: %v", d.len(), len(lines), err)
	}
	kb, err := parseKingBuckets(defaultKingBuckets)
	if err != nil {
		t.Fatal(err)
	}
	for _, net := range []*nnue.Net{{Layout: nnue.KingMirrored}, {Layout: nnue.KingBuckets, KingBucket: kb}} {
		featuresMatchEngine(t, d, lines, net)
	}
}

func featuresMatchEngine(t *testing.T, d *dataset, lines []string, net *nnue.Net) {
	halves := map[[2]bool]int{}
	buckets := map[int]bool{}
	for i, line := range lines {
		pos := movegen.NewPosition()
		if err := pos.SetFEN(strings.TrimSpace(strings.Split(line, "|")[0])); err != nil {
			t.Fatal(err)
		}
		stm := pos.SideToMove()
		var wantU, wantT []int
		for occ := pos.Occupied(); occ != 0; {
			sq := occ.PopLSB()
			wantU = append(wantU, net.Feature(stm, pos.PieceOn(sq), sq, pos.KingSquare(stm)))
			wantT = append(wantT, net.Feature(stm^1, pos.PieceOn(sq), sq, pos.KingSquare(stm^1)))
		}
		us, them := d.sideFeatures(i, net, nil, nil)
		fu, ft := d.sideFeaturesFlip(i, true, net, nil, nil)
		for _, s := range [][]int{wantU, wantT, us, them, fu, ft} {
			slices.Sort(s)
		}
		if !slices.Equal(us, wantU) || !slices.Equal(them, wantT) {
			t.Fatalf("%s: the trainer's inputs %v / %v, the engine's %v / %v", line, us, them, wantU, wantT)
		}
		if !slices.Equal(fu, us) || !slices.Equal(ft, them) {
			t.Fatalf("%s: the file-mirrored copy has other inputs", line)
		}
		halves[[2]bool{pos.KingSquare(movegen.White).File() < 4, pos.KingSquare(movegen.Black).File() < 4}]++
		for c := movegen.White; c <= movegen.Black; c++ {
			buckets[int(net.KingBucket[nnue.KingSquare(c, pos.KingSquare(c))])] = true
		}
	}
	if len(halves) != 4 || len(buckets) != net.KingBuckets() {
		t.Fatalf("%s: the kings stand on only %d of the 4 combinations of halves (%v), in %d of %d king buckets", net.Layout, len(halves), halves, len(buckets), net.KingBuckets())
	}
}

// TestTrainMirroredFlags: a resume of a mirrored run with the plain layout,
// and --mirror with the mirrored layout, are refused; --init with another
// --layout starts a net of that layout from the net's weights.
func TestTrainMirroredFlags(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.txt.gz")
	writeGz(t, data, syntheticLines(t, 3000, 14))
	out := filepath.Join(dir, "m.nnue")
	base := []string{"--data", data, "--block", "500", "--holdout", "6", "--batch", "256", "--threads", "2"}
	var stdout bytes.Buffer
	if err := run(context.Background(), slices.Concat(base, []string{"--out", out, "--layout", "mirrored", "--hidden", "32", "--buckets", "2", "--epochs", "1"}), &stdout, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if !strings.Contains(stdout.String(), "H=32 screlu, 2 output buckets, mirrored layout") {
		t.Fatalf("no word of the layout:\n%s", stdout.String())
	}
	for _, bad := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--resume", out + ".ckpt", "--layout", "plain"}, "2 output buckets, mirrored layout, the flags ask for"},
		{[]string{"--layout", "mirrored", "--mirror"}, "--mirror with the mirrored layout"},
		{[]string{"--init", out, "--mirror"}, "--mirror with the mirrored layout"},
		{[]string{"--layout", "king"}, `--layout "king"`},
	} {
		err := run(context.Background(), slices.Concat(base, bad.args, []string{"--out", filepath.Join(dir, "x.nnue"), "--epochs", "2"}), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: %v, want %q", bad.args, err, bad.msg)
		}
	}
	var conv bytes.Buffer
	plain := filepath.Join(dir, "p.nnue")
	if err := run(context.Background(), slices.Concat(base, []string{"--init", out, "--layout", "plain", "--out", plain, "--epochs", "1"}), &conv, io.Discard); err != nil {
		t.Fatal(err)
	}
	if p, err := nnue.LoadFile(plain); err != nil || p.Layout != nnue.Plain || !strings.Contains(conv.String(), "the mirrored net's weights start a net of the plain layout") {
		t.Fatalf("--init of a mirrored net with --layout plain: %v\n%s", err, conv.String())
	}
}

// TestFactorise: the shared rows of --factorise start at zero (the model
// computes what it did), fold into each king bucket's rows (the folded
// model and the written net compute what the factorised one does), travel
// in the checkpoint, and are refused without king buckets; an --init of a
// king-bucket net with --factorise trains on from where the net stands.
func TestFactorise(t *testing.T) {
	kb, err := parseKingBuckets("0,0,0,0,1,1,1,1")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "d.txt.gz")
	writeGz(t, data, syntheticLines(t, 400, 15))
	d, _, _, err := load(context.Background(), []string{data}, 0, 1000, 0, trainFilter{})
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(16, nnue.SCReLU, 4, rand.New(rand.NewPCG(8, 8)))
	if err := m.setFactor(true); err == nil {
		t.Fatal("a plain model took shared rows")
	}
	if err := m.setLayout(nnue.KingBuckets, kb); err != nil {
		t.Fatal(err)
	}
	before := m.clone()
	if err := m.setFactor(true); err != nil {
		t.Fatal(err)
	}
	if m.rows() != 3*nnue.Inputs || len(m.w1) != m.rows()*m.h || m.inputRows() != 2*nnue.Inputs {
		t.Fatalf("%d rows, %d weights", m.rows(), len(m.w1))
	}
	outputs := func(m *model) []float32 {
		var out []float32
		s := m.newScratch()
		for i := range d.len() {
			s.us, s.them = m.features(d, i, false, m.net(), s.us, s.them)
			out = append(out, m.forward(s, s.us, s.them))
		}
		return out
	}
	if !slices.Equal(outputs(m), outputs(before)) {
		t.Fatal("the shared rows do not start at zero")
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range m.w1 {
		m.w1[i] = float32(rng.NormFloat64() * 0.3)
	}
	want := outputs(m)
	if slices.Equal(want, outputs(before)) {
		t.Fatal("the weights changed nothing")
	}
	folded := m.clone()
	if err := folded.setFactor(false); err != nil {
		t.Fatal(err)
	}
	net := m.quantise()
	if folded.factor || len(folded.w1) != 2*nnue.Inputs*16 || len(net.FeatureW) != len(folded.w1) || net.Layout != nnue.KingBuckets {
		t.Fatalf("folded: %d weights, the net %d", len(folded.w1), len(net.FeatureW))
	}
	got := outputs(folded)
	acc := net.NewAccumulators(1)
	var feats []uint16
	for i := range want {
		if math.Abs(float64(got[i]-want[i])) > 1e-4 {
			t.Fatalf("position %d: %g folded, %g factorised", i, got[i], want[i])
		}
		feats = d.features(i, feats[:0])
		acc[0].RefreshFeatures(net, feats)
		if e := float64(net.Evaluate(&acc[0], d.side(i))); math.Abs(e-float64(want[i])*netScale) > 5 {
			t.Fatalf("position %d: the written net says %.0f cp, the factorised model %.1f", i, e, want[i]*netScale)
		}
	}
	// --match-scale fits the factorised model: against its own written net
	// the factor is 1.
	if k, n := evalSlope(net, m, d); n < 100 || math.Abs(k-1) > 0.01 {
		t.Fatalf("the scale of the factorised model against its net: %g over %d positions", k, n)
	}
	// A sum beyond the clip is held to it, and counted.
	_, before0 := m.foldedW1()
	m.w1[5], m.w1[nnue.Inputs*16+5], m.w1[2*nnue.Inputs*16+5] = wClip, -wClip, wClip // the second bucket's sum is 0
	if w, k := m.foldedW1(); w[5] != wClip || k != before0+1 {
		t.Fatalf("folded %g, want the clip %g; %d held, want %d", w[5], wClip, k, before0+1)
	}
	if err := m.setLayout(nnue.Plain, kb); err == nil {
		t.Fatal("a model with shared rows changed its layout")
	}

	// The checkpoint ("KRC6") holds the shared rows; a "KRC5" one of a
	// king-bucket net reads without them.
	ck := filepath.Join(dir, "f.ckpt")
	if err := m.save(ck, newAdam(m, 0.001), &runKey{}, &progress{}); err != nil {
		t.Fatal(err)
	}
	c, err := loadCheckpoint(ck, 0.001)
	if err != nil || !c.m.factor || c.m.kingBucket != kb || !slices.Equal(c.m.w1, m.w1) || len(c.a.m[0]) != len(m.w1) {
		t.Fatalf("the checkpoint: %v", err)
	}
	var old bytes.Buffer
	a := newAdam(folded, 0.001)
	for _, p := range append([]any{[6]uint32{ckMagicV5, 16, uint32(nnue.SCReLU), 3, 4, uint32(nnue.KingBuckets)}, kb, runKey{}, progress{LR: 0.001}}, checkpointArrays(folded, a)...) {
		binary.Write(&old, binary.LittleEndian, p)
	}
	os.WriteFile(ck, old.Bytes(), 0o644)
	if c, err := loadCheckpoint(ck, 0.001); err != nil || c.m.factor || !slices.Equal(c.m.w1, folded.w1) {
		t.Fatalf("a KRC5 checkpoint: %v", err)
	}

	// The flags.
	base := []string{"--data", data, "--block", "100", "--holdout", "4", "--batch", "64", "--threads", "2", "--hidden", "16", "--epochs", "1"}
	kbNet := filepath.Join(dir, "kb.nnue")
	if err := run(context.Background(), slices.Concat(base, []string{"--layout", "kingbuckets", "--king-buckets", "0,0,0,0,1,1,1,1", "--out", kbNet}), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), slices.Concat(base, []string{"--out", filepath.Join(dir, "p.nnue")}), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--factorise"}, "add --layout kingbuckets"},
		{[]string{"--factorise", "--layout", "mirrored"}, "add --layout kingbuckets"},
		{[]string{"--factorise", "--init", filepath.Join(dir, "p.nnue")}, "needs the kingbuckets layout"},
		{[]string{"--resume", kbNet + ".ckpt", "--factorise"}, "kingbuckets layout, the flags ask for H=16 screlu with 1, kingbuckets layout, factorised"},
	} {
		err := run(context.Background(), slices.Concat(base, bad.args, []string{"--out", filepath.Join(dir, "x.nnue")}), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: %v, want %q", bad.args, err, bad.msg)
		}
	}
	var stdout bytes.Buffer
	out := filepath.Join(dir, "f.nnue")
	if err := run(context.Background(), slices.Concat(base, []string{"--init", kbNet, "--factorise", "--out", out, "--lr", "0"}), &stdout, io.Discard); err != nil {
		t.Fatal(err)
	}
	a1, err := os.ReadFile(kbNet)
	if err != nil {
		t.Fatal(err)
	}
	a2, err := os.ReadFile(out)
	if err != nil || !strings.Contains(stdout.String(), "kingbuckets layout, factorised") || !bytes.Equal(a1, a2) {
		t.Fatalf("--init of a king-bucket net with --factorise and --lr 0 wrote another net (%v):\n%s", err, stdout.String())
	}
}

// TestCosineSchedule checks the cosine schedule's rates and its flags.
func TestCosineSchedule(t *testing.T) {
	c := config{lr: 0.001, lrEnd: 0.0001, epochs: 4}
	const n = 1000
	if got := c.cosineLR(1, 0, n); got != 0.001 {
		t.Errorf("first step: %g, want --lr", got)
	}
	if got := c.cosineLR(3, 0, n); math.Abs(got-0.00055) > 1e-12 {
		t.Errorf("half way: %g, want the mean of --lr and --lr-end", got)
	}
	if got := c.cosineLR(5, 0, n); math.Abs(got-0.0001) > 1e-12 {
		t.Errorf("after the last epoch: %g, want --lr-end", got)
	}
	prev := math.Inf(1)
	for e := 1; e <= 4; e++ {
		for done := uint64(0); done < n; done += 100 {
			lr := c.cosineLR(e, done, n)
			if lr >= prev || lr < c.lrEnd {
				t.Fatalf("epoch %d, %d done: %g after %g", e, done, lr, prev)
			}
			prev = lr
		}
	}

	// A run: the rate an epoch ends with falls along the curve.
	dir := t.TempDir()
	data := filepath.Join(dir, "d.txt.gz")
	writeGz(t, data, syntheticLines(t, 2000, 3))
	flags := []string{"--data", data, "--block", "500", "--holdout", "4", "--threads", "1", "--hidden", "16", "--batch", "500", "--epochs", "3",
		"--patience", "0", "--lr", "0.002", "--lr-schedule", "cosine", "--lr-end", "0.0002", "--out", filepath.Join(dir, "c.nnue")}
	var out bytes.Buffer
	if err := run(context.Background(), flags, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	// 1500 training positions, 3 steps an epoch: the last step of epoch e
	// starts at (3e-1)/9 of the run.
	for e := 1; e <= 3; e++ {
		lr := 0.0002 + 0.5*0.0018*(1+math.Cos(math.Pi*float64(3*e-1)/9))
		if want := fmt.Sprintf("epoch %d  lr %.6f ", e, lr); !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	if !strings.Contains(out.String(), "lr 0.002 (cosine to 0.0002 over 3 epochs)") {
		t.Errorf("the schedule is not stated:\n%s", out.String())
	}

	for _, bad := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--lr-schedule", "linear"}, `--lr-schedule "linear"`},
		{[]string{"--lr-schedule", "cosine", "--gamma", "0.5"}, "--gamma is the step schedule's"},
		{[]string{"--lr-end", "0.0001"}, "--lr-end is the cosine schedule's"},
		{[]string{"--lr-schedule", "cosine", "--lr-end", "0.01"}, "--lr-end 0.01: want 0..--lr"},
	} {
		_, err := parseConfig(slices.Concat([]string{"--data", data}, bad.args), io.Discard)
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: %v, want %q", bad.args, err, bad.msg)
		}
	}
}

// TestAddF32 checks the vector adds against one-by-one sums, bit for bit,
// on every length up to three vectors and a tail.
func TestAddF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for n := 0; n <= 27; n++ {
		dst, src := make([]float32, n), make([]float32, n+3) // src may be longer
		for i := range dst {
			dst[i] = rng.Float32()*2 - 1
		}
		for i := range src {
			src[i] = rng.Float32()*1e-3 - 5e-4
		}
		want := slices.Clone(dst)
		for i := range want {
			want[i] += src[i]
		}
		addF32(dst, src)
		if !slices.Equal(dst, want) {
			t.Fatalf("n=%d (vector adds %t): %v, want %v", n, simdAdds, dst, want)
		}
	}
}

// TestForwardBackwardKernels holds forward and backward (the vector
// kernels where the build has them) to the definitions one unit at a time:
// activations and the output exact up to the sum's order, gradients exact.
func TestForwardBackwardKernels(t *testing.T) {
	for _, act := range []nnue.Activation{nnue.CReLU, nnue.SCReLU} {
		rng := rand.New(rand.NewPCG(9, uint64(act)))
		m := newModel(32, act, 2, rng)
		for i := range m.w1 {
			m.w1[i] = rng.Float32()*0.8 - 0.4 // accumulators below 0, inside (0, 1) and above 1
		}
		for i := range m.w2 {
			m.w2[i] = rng.Float32()*2 - 1
		}
		s := m.newScratch()
		us, them := []int{3, 70, 200, 500, 700}, []int{10, 64, 300, 640, 767}
		out := m.forward(s, us, them)
		h, b := m.h, s.bucket
		want := m.b2[b]
		var inside, clipped int
		for i := range h {
			x, y := m.b1[i], m.b1[i]
			for _, f := range us {
				x += m.w1[f*h+i]
			}
			for _, f := range them {
				y += m.w1[f*h+i]
			}
			a, _ := m.activate(x)
			c, _ := m.activate(y)
			if s.hU[i] != a || s.hT[i] != c {
				t.Fatalf("%v unit %d: activations %g, %g, want %g, %g", act, i, s.hU[i], s.hT[i], a, c)
			}
			if x > 0 && x < 1 {
				inside++
			} else {
				clipped++
			}
			want += a*m.w2[b*2*h+i] + c*m.w2[b*2*h+h+i]
		}
		if inside == 0 || clipped == 0 {
			t.Fatalf("%v: %d units inside (0, 1) and %d clipped: the test misses a case", act, inside, clipped)
		}
		if math.Abs(float64(out-want)) > 1e-5*math.Max(1, math.Abs(float64(want))) {
			t.Fatalf("%v: output %g, want %g", act, out, want)
		}
		const gOut = 0.37
		m.backward(s, us, them, gOut)
		g := s.g
		for i := range h {
			_, du := m.activate(s.accU[i])
			_, dt := m.activate(s.accT[i])
			// float32 conversions round each product, so that the compiler
			// fuses none into the sum below (amd64 v3 has FMA).
			dU, dT := float32(gOut*m.w2[b*2*h+i]*du), float32(gOut*m.w2[b*2*h+h+i]*dt)
			if g.w2[b*2*h+i] != gOut*s.hU[i] || g.w2[b*2*h+h+i] != gOut*s.hT[i] || s.dU[i] != dU || s.dT[i] != dT || g.b1[i] != dU+dT {
				t.Fatalf("%v unit %d: gradients %g %g %g %g %g, want %g %g %g %g %g", act, i,
					g.w2[b*2*h+i], g.w2[b*2*h+h+i], s.dU[i], s.dT[i], g.b1[i], gOut*s.hU[i], gOut*s.hT[i], dU, dT, dU+dT)
			}
			if g.w1[us[0]*h+i] != dU || g.w1[them[0]*h+i] != dT {
				t.Fatalf("%v unit %d: first-layer gradients %g, %g, want %g, %g", act, i, g.w1[us[0]*h+i], g.w1[them[0]*h+i], dU, dT)
			}
		}
	}
}

// TestMatchScale: a net matched to a copy of itself with the output layer
// half as large again comes out at that scale.
func TestMatchScale(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "d.txt.gz")
	writeGz(t, data, syntheticLines(t, 2000, 21))
	base := []string{"--data", data, "--block", "250", "--holdout", "4", "--threads", "1", "--hidden", "16", "--buckets", "2", "--batch", "256", "--seed", "3"}
	a := filepath.Join(dir, "a.nnue")
	if err := run(context.Background(), slices.Concat(base, []string{"--epochs", "2", "--out", a}), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	net, err := nnue.LoadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	for i := range net.OutputW {
		net.OutputW[i] = int16(math.Round(float64(net.OutputW[i]) * 1.5))
	}
	for i := range net.OutputB {
		net.OutputB[i] = int32(math.Round(float64(net.OutputB[i]) * 1.5))
	}
	ref := filepath.Join(dir, "ref.nnue")
	f, _ := os.Create(ref)
	if err := net.Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()

	// No training: a's weights, matched to ref.
	b := filepath.Join(dir, "b.nnue")
	var out bytes.Buffer
	if err := run(context.Background(), slices.Concat(base, []string{"--epochs", "0", "--init", a, "--match-scale", ref, "--out", b}), &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var k float64
	var n int
	i := strings.Index(out.String(), "output layer times ")
	if i < 0 {
		t.Fatalf("no scale reported:\n%s", out.String())
	}
	fmt.Sscanf(out.String()[i:], "output layer times %g: the evaluations' least-squares match to", &k)
	if _, err := fmt.Sscanf(out.String()[strings.Index(out.String(), " over ")+6:], "%d validation positions", &n); err != nil || n < 100 {
		t.Fatalf("fitted on %d positions (%v):\n%s", n, err, out.String())
	}
	if math.Abs(k-1.5) > 0.02 {
		t.Fatalf("scale %g, want 1.5:\n%s", k, out.String())
	}
	got, err := nnue.LoadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range got.OutputW {
		if math.Abs(float64(w)-float64(net.OutputW[i])) > 2+0.02*math.Abs(float64(w)) {
			t.Fatalf("output weight %d: %d, the reference's %d", i, w, net.OutputW[i])
		}
	}

	// Without a validation set there is nothing to fit.
	err = run(context.Background(), []string{"--data", data, "--holdout", "0", "--hidden", "16", "--epochs", "0", "--init", a, "--match-scale", ref, "--out", filepath.Join(dir, "c.nnue")}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "--match-scale: no validation position") {
		t.Fatalf("no validation set: %v", err)
	}
}

// TestTrainFilter checks --train-min-ply and --train-skip: they leave out
// training positions only, so the validation set is the unfiltered run's,
// and they leave out the positions they should.
func TestTrainFilter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.txt.gz")
	writeGz(t, path, syntheticLines(t, 2000, 3))
	ctx := context.Background()
	const holdout, block = 4, 100
	baseTrain, baseValid, _, err := load(ctx, []string{path}, holdout, block, 0, trainFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if baseTrain.len() != 1500 || baseValid.len() != 500 {
		t.Fatalf("%d training, %d validation: want 1500 and 500", baseTrain.len(), baseValid.len())
	}

	// The expected count of training positions before ply 40, from the
	// positions themselves (the synthetic games start at move 1).
	r, c, err := openReader(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	early := 0
	for i := 0; ; i++ {
		pos, _, _, err := r.Next()
		if err != nil {
			break
		}
		if (i/block)%holdout != holdout-1 && 2*(pos.FullMove()-1)+int(pos.SideToMove()) < 40 {
			early++
		}
	}
	c.Close()
	if early == 0 || early == 1500 {
		t.Fatalf("%d of 1500 training positions before ply 40: the test needs some of both", early)
	}

	for _, tc := range []struct {
		name           string
		f              trainFilter
		dropLo, dropHi int
	}{
		{"min-ply 40", trainFilter{minPly: 40}, early, early},
		{"skip 0.3", trainFilter{skip: 0.3, seed: 1}, 350, 550},
		{"skip 0.3, another seed", trainFilter{skip: 0.3, seed: 2}, 350, 550},
	} {
		train, valid, st, err := load(ctx, []string{path}, holdout, block, 0, tc.f)
		if err != nil {
			t.Fatal(err)
		}
		if valid.checksum() != baseValid.checksum() || valid.len() != baseValid.len() {
			t.Errorf("%s: the validation set changed", tc.name)
		}
		if st.dropped < tc.dropLo || st.dropped > tc.dropHi || train.len()+st.dropped != 1500 || st.read != 2000 {
			t.Errorf("%s: %d kept, %d left out, %d read: want %d..%d left out of 1500, 2000 read",
				tc.name, train.len(), st.dropped, st.read, tc.dropLo, tc.dropHi)
		}
		again, _, _, _ := load(ctx, []string{path}, holdout, block, 0, tc.f)
		if again.checksum() != train.checksum() {
			t.Errorf("%s: two loads kept different positions", tc.name)
		}
	}
	a, _, _, _ := load(ctx, []string{path}, holdout, block, 0, trainFilter{skip: 0.3, seed: 1})
	b, _, _, _ := load(ctx, []string{path}, holdout, block, 0, trainFilter{skip: 0.3, seed: 2})
	if a.checksum() == b.checksum() {
		t.Error("--train-skip draws the same positions for two seeds")
	}

	var errOut strings.Builder
	for _, args := range [][]string{{"--train-skip", "1"}, {"--train-skip", "-0.1"}, {"--train-min-ply", "-1"}} {
		c, err := parseConfig(append([]string{"--data", path}, args...), &errOut)
		if err == nil {
			err = c.check()
		}
		if err == nil {
			t.Errorf("%v accepted", args)
		}
	}
}

// TestExitCode: a refused command line exits 2, --help 0, a failure 1.
func TestExitCode(t *testing.T) {
	data := filepath.Join(t.TempDir(), "d.txt.gz")
	writeGz(t, data, syntheticLines(t, 50, 1))
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"--help"}, 0},
		{[]string{"--no-such-flag"}, 2},
		{[]string{}, 2}, // no --data
		{[]string{"--data", data, "--train-skip", "1.5"}, 2},
		{[]string{"--data", data, "--hidden", "100"}, 2},
		{[]string{"--data", filepath.Join(t.TempDir(), "none-*.bin")}, 2},
		{[]string{"--data", data, "--compare", filepath.Join(t.TempDir(), "missing.nnue")}, 1},
	} {
		var out, errOut strings.Builder
		err := run(context.Background(), tc.args, &out, &errOut)
		if got := exitCode(err); got != tc.want {
			t.Errorf("train %v: exit %d (%v), want %d", tc.args, got, err, tc.want)
		}
		// --help's usage goes to stdout alone; a bad flag's error, named
		// once with the command, and the usage to stderr.
		switch strings.Join(tc.args, " ") {
		case "--help":
			if !strings.HasPrefix(out.String(), "Usage: train") || errOut.Len() != 0 {
				t.Errorf("--help: stdout %.40q, stderr %.40q", out.String(), errOut.String())
			}
		case "--no-such-flag":
			if out.Len() != 0 || !strings.HasPrefix(errOut.String(), "train: flag provided but not defined") ||
				strings.Count(errOut.String(), "not defined") != 1 || !strings.Contains(errOut.String(), "Usage: train") {
				t.Errorf("a bad flag: stdout %.40q, stderr %q", out.String(), errOut.String())
			}
		}
	}
}

// TestTrainFromPly: --train-from-ply adds the early plies' positions of
// binary games (before selfplay.TrainingFilter's ply 12) to the training
// set only, where their game's block trains, and leaves the validation set
// and the blocks as they were; text data has no plies to add.
func TestTrainFromPly(t *testing.T) {
	bin, lines := binaryTestGames(t)
	dir := t.TempDir()
	path := writeTestFile(t, dir, "games.bin", bin)
	txt := writeTestFile(t, dir, "games.txt", []byte(strings.Join(lines, "\n")+"\n"))
	ctx := context.Background()
	const holdout, block = 3, 40
	baseTrain, baseValid, baseSt, err := load(ctx, []string{path}, holdout, block, 0, trainFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, from := range []int{0, 6} {
		// The expected early positions, from the games themselves: those
		// the filter keeps but for their ply, in a training block (the
		// block of the next position the filter keeps).
		want, inValid, read := 0, 0, 0
		r := selfplay.NewReader(bytes.NewReader(bin))
		for {
			var g selfplay.Game
			if err := r.ReadGame(&g); err != nil {
				break
			}
			pos := g.Start.Clone()
			anyPly := selfplay.TrainingFilter
			anyPly.MinPly = 0
			for i, p := range g.Plies {
				switch {
				case selfplay.TrainingFilter.Keep(pos, p.Move, int(p.Score), i):
					read++
				case i >= from && anyPly.Keep(pos, p.Move, int(p.Score), i):
					if (read/block)%holdout == holdout-1 {
						inValid++
					} else {
						want++
					}
				}
				pos.Make(p.Move)
			}
		}
		if want == 0 || inValid == 0 {
			t.Fatalf("from %d: %d early positions in training blocks, %d in validation ones: the test needs both", from, want, inValid)
		}
		f := trainFilter{early: selfplay.TrainingFilter.MinPly - from}
		train, valid, st, err := load(ctx, []string{path}, holdout, block, 0, f)
		if err != nil {
			t.Fatal(err)
		}
		if valid.checksum() != baseValid.checksum() || valid.len() != baseValid.len() || st.read != baseSt.read || st.valid != baseSt.valid {
			t.Errorf("from %d: the validation set or the blocks changed: %+v against %+v", from, st, baseSt)
		}
		if st.early != want || train.len() != baseTrain.len()+want || st.train != train.len() {
			t.Errorf("from %d: %d training positions, %d early: want %d and %d", from, train.len(), st.early, baseTrain.len()+want, want)
		}
		// Every position of the run without them is still there.
		have := map[record]int{}
		for i := range train.len() {
			have[*train.rec(i)]++
		}
		for i := range baseTrain.len() {
			r := *baseTrain.rec(i)
			if have[r] == 0 {
				t.Fatalf("from %d: training position %d of the default run is missing", from, i)
			}
			have[r]--
		}
	}
	tt, tv, _, _ := load(ctx, []string{txt}, holdout, block, 0, trainFilter{})
	et, ev, est, err := load(ctx, []string{txt}, holdout, block, 0, trainFilter{early: 12})
	if err != nil || est.early != 0 || et.checksum() != tt.checksum() || ev.checksum() != tv.checksum() {
		t.Errorf("text data changed by --train-from-ply: %v, %+v", err, est)
	}

	var errOut strings.Builder
	for _, arg := range []string{"-1", "13"} {
		if _, err := parseConfig([]string{"--data", path, "--train-from-ply", arg}, &errOut); err == nil {
			t.Errorf("--train-from-ply %s accepted", arg)
		}
	}
	for arg, early := range map[string]int{"": 0, "12": 0, "0": 12, "4": 8} {
		args := []string{"--data", path}
		if arg != "" {
			args = append(args, "--train-from-ply", arg)
		}
		c, err := parseConfig(args, &errOut)
		if err != nil || c.filter.early != early {
			t.Errorf("--train-from-ply %q: early %d, %v: want %d", arg, c.filter.early, err, early)
		}
	}
}
