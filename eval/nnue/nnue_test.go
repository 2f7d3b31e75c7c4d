package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// randomNet returns a net of one output bucket with random weights in the
// ranges a trained net uses (and the loader allows).
func randomNet(h int, act Activation, seed uint64) *Net {
	return randomBucketNet(h, act, 1, seed)
}

// randomBucketNet is randomNet with b output buckets.
func randomBucketNet(h int, act Activation, b int, seed uint64) *Net {
	r := rand.New(rand.NewPCG(seed, 7))
	n := &Net{H: h, Act: act, QA: 255, QB: 64, Scale: 400,
		FeatureW: make([]int16, Inputs*h), FeatureB: make([]int16, h), OutputW: make([]int16, b*2*h), OutputB: make([]int32, b)}
	for i := range n.FeatureW {
		n.FeatureW[i] = int16(r.IntN(201) - 100)
	}
	for i := range n.FeatureB {
		n.FeatureB[i] = int16(r.IntN(301) - 50)
	}
	for i := range n.OutputW {
		n.OutputW[i] = int16(r.IntN(255) - 127)
	}
	for i := range n.OutputB {
		n.OutputB[i] = int32(r.IntN(20001) - 10000)
	}
	n.simdOK = simdAvailable(h)
	return n
}

// mirroredNet is randomBucketNet with the KingMirrored layout.
func mirroredNet(h int, act Activation, b int, seed uint64) *Net {
	n := randomBucketNet(h, act, b, seed)
	n.Layout = KingMirrored
	return n
}

// testKingBuckets is a king-bucket map for the tests: on the first rank
// e-f and g-h apart, the second rank, the rest; so that castling, and many
// king moves on the back ranks, change a perspective's bucket.
var testKingBuckets = [KingSquares]uint8{0, 0, 1, 1, 2, 2, 2, 2,
	3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}

// kingBucketNet is randomBucketNet with the KingBuckets layout and the
// king buckets of kb, their first-layer rows each random.
func kingBucketNet(h int, act Activation, b int, kb [KingSquares]uint8, seed uint64) *Net {
	n := randomBucketNet(h, act, b, seed)
	n.Layout, n.KingBucket = KingBuckets, kb
	r := rand.New(rand.NewPCG(seed, 8))
	n.FeatureW = make([]int16, n.InputRows()*h)
	for i := range n.FeatureW {
		n.FeatureW[i] = int16(r.IntN(201) - 100)
	}
	return n
}

// testNets returns nets to test with: the embedded one and random ones of
// both activations and every layout.
func testNets(t testing.TB) map[string]*Net {
	return map[string]*Net{
		"screlu-256-8buckets-kingbuckets": kingBucketNet(256, SCReLU, 8, testKingBuckets, 8),
		"crelu-32-kingbuckets":            kingBucketNet(32, CReLU, 1, testKingBuckets, 9),
		"default":                         Default(),
		"crelu-32":                        randomNet(32, CReLU, 1),
		"screlu-128":                      randomNet(128, SCReLU, 2),
		"screlu-256":                      randomNet(256, SCReLU, 3),
		"crelu-1024":                      randomNet(1024, CReLU, 4),
		"screlu-64-8buckets":              randomBucketNet(64, SCReLU, 8, 5),
		"screlu-256-8buckets-mirror":      mirroredNet(256, SCReLU, 8, 6),
		"crelu-32-mirror":                 mirroredNet(32, CReLU, 1, 7),
	}
}

// forEachPath calls check with every test net on each inference path it
// has: plain Go, and SIMD where the build and the CPU have it (AVX2, and
// AVX-512 as well where the CPU has it).
func forEachPath(t *testing.T, check func(name string, n *Net, simd bool)) {
	defer func(w bool) { wide = w }(wide)
	for name, n := range testNets(t) {
		for _, simd := range []bool{false, true} {
			if simd && !n.simdOK {
				continue
			}
			n.forceNoSIM = !simd
			// The SIMD path twice where the CPU has AVX-512: with the AVX2
			// kernels, then with the AVX-512 ones.
			for _, w := range []bool{false, true} {
				if w && (!simd || !wideOK) {
					continue
				}
				wide = w
				check(name, n, simd)
			}
		}
	}
}

func mustPos(t testing.TB, fen string) *movegen.Position {
	t.Helper()
	p := movegen.NewPosition()
	if err := p.SetFEN(fen); err != nil {
		t.Fatalf("%s: %v", fen, err)
	}
	return p
}

func TestDefaultNetLoads(t *testing.T) {
	n := Default()
	if n.H%HiddenAlign != 0 || len(n.FeatureW) != n.InputRows()*n.H {
		t.Fatalf("default net: H=%d, %d input rows, %d first-layer weights", n.H, n.InputRows(), len(n.FeatureW))
	}
	var buf bytes.Buffer
	if err := n.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), defaultNet) {
		t.Fatal("Write(Load(default.nnue)) differs from default.nnue")
	}
}

func TestLoadErrors(t *testing.T) {
	var good bytes.Buffer
	if err := randomNet(32, SCReLU, 9).Write(&good); err != nil {
		t.Fatal(err)
	}
	g := good.Bytes()
	if _, err := Load(bytes.NewReader(g)); err != nil {
		t.Fatalf("a good file fails: %v", err)
	}
	patch := func(off int, v uint32) []byte {
		b := bytes.Clone(g)
		b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		return b
	}
	bigW := bytes.Clone(g)
	bigW[len(g)-4-1] = 0x7f // the last output weight's high byte: far outside [-127, 127]
	cases := []struct {
		name, want string
		data       []byte
	}{
		{"empty", "header", nil},
		{"short header", "header", g[:10]},
		{"bad magic", "bad magic", patch(0, 0x12345678)},
		{"version", "version", patch(4, Version+1)},
		{"inputs", "inputs", patch(8, 640)},
		{"H not aligned", "hidden width", patch(12, 33)},
		{"H zero", "hidden width", patch(12, 0)},
		{"H too big for the data", "truncated in the first-layer weights", patch(12, 64)},
		{"H too small for the data", "data after", patch(12, 16)},
		{"activation", "activation", patch(16, 7)},
		{"QA", "QA", patch(20, 256)},
		{"truncated weights", "truncated in the first-layer weights", g[:100]},
		{"truncated biases", "truncated in the first-layer biases", g[:32+Inputs*32*2+10]},
		{"truncated output bias", "truncated in the output biases", g[:len(g)-2]},
		{"trailing byte", "data after", append(bytes.Clone(g), 0)},
		{"screlu weight range", "outside [-127, 127]", bigW},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(bytes.NewReader(c.data))
			if err == nil {
				t.Fatal("loaded a malformed file")
			}
			if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q: want ErrFormat mentioning %q", err, c.want)
			}
		})
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing.nnue")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	// Write refuses what Load would, writing nothing.
	for name, change := range map[string]func(n *Net){
		"QA 0":             func(n *Net) { n.QA = 0 },
		"QB 40000":         func(n *Net) { n.QB = 40000 },
		"Scale 0":          func(n *Net) { n.Scale = 0 },
		"activation 7":     func(n *Net) { n.Act = 7 },
		"screlu weight":    func(n *Net) { n.OutputW[3] = 128 },
		"H beyond the max": func(n *Net) { n.H = MaxHidden + HiddenAlign },
	} {
		n := randomNet(32, SCReLU, 9)
		change(n)
		var buf bytes.Buffer
		if err := n.Write(&buf); err == nil || buf.Len() != 0 {
			t.Errorf("%s: Write gave %v and %d bytes", name, err, buf.Len())
		}
	}
}

// TestBucketFiles checks version 2 files: a net of several output buckets
// writes version 2 and loads back equal; a one-bucket net writes version 1;
// bad bucket counts are errors.
func TestBucketFiles(t *testing.T) {
	n := randomBucketNet(32, SCReLU, 8, 11)
	var buf bytes.Buffer
	if err := n.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g := buf.Bytes()
	if v := binary.LittleEndian.Uint32(g[4:]); v != 2 {
		t.Fatalf("an 8-bucket net writes version %d, want 2", v)
	}
	if want := 36 + (Inputs*32+32+8*64)*2 + 8*4; len(g) != want {
		t.Fatalf("8-bucket file of %d bytes, want %d", len(g), want)
	}
	m, err := Load(bytes.NewReader(g))
	if err != nil {
		t.Fatal(err)
	}
	if m.Buckets() != 8 || !slices.Equal(m.OutputW, n.OutputW) || !slices.Equal(m.OutputB, n.OutputB) || !slices.Equal(m.FeatureW, n.FeatureW) {
		t.Fatal("the 8-bucket net does not load back equal")
	}
	var one bytes.Buffer
	if err := randomNet(32, SCReLU, 11).Write(&one); err != nil {
		t.Fatal(err)
	}
	if v := binary.LittleEndian.Uint32(one.Bytes()[4:]); v != 1 {
		t.Fatalf("a one-bucket net writes version %d, want 1", v)
	}
	patch := func(off int, v uint32) []byte {
		b := bytes.Clone(g)
		binary.LittleEndian.PutUint32(b[off:], v)
		return b
	}
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		{"no bucket word", "header", g[:34]},
		{"zero buckets", "output buckets", patch(32, 0)},
		{"17 buckets", "output buckets", patch(32, 17)},
		{"more buckets than data", "truncated in the output weights", patch(32, 9)},
		{"fewer buckets than data", "data after", patch(32, 7)},
		{"version 1 header on version 2 data", "data after", patch(4, 1)},
	} {
		if _, err := Load(bytes.NewReader(c.data)); err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrFormat mentioning %q", c.name, err, c.want)
		}
	}
}

// TestBucketOf checks the piece-count bands.
func TestBucketOf(t *testing.T) {
	for _, c := range []struct{ pieces, b, want int }{
		{2, 8, 0}, {5, 8, 0}, {6, 8, 1}, {17, 8, 3}, {29, 8, 6}, {30, 8, 7}, {32, 8, 7}, {40, 8, 7}, {0, 8, 0},
		{32, 1, 0}, {2, 1, 0}, {32, 4, 3}, {9, 4, 0}, {10, 4, 1}, {32, 16, 15}, {3, 16, 0}, {4, 16, 1},
	} {
		if got := BucketOf(c.pieces, c.b); got != c.want {
			t.Errorf("BucketOf(%d, %d) = %d, want %d", c.pieces, c.b, got, c.want)
		}
	}
	for b := 1; b <= MaxBuckets; b++ {
		seen := make([]bool, b)
		for p := 2; p <= 32; p++ {
			seen[BucketOf(p, b)] = true
		}
		if slices.Contains(seen, false) {
			t.Errorf("%d buckets: some bucket is used by no piece count in 2..32: %v", b, seen)
		}
	}
}

// TestBucketWeights checks that Evaluate uses the weights and the bias of
// the position's bucket: along random games, an 8-bucket net scores every
// position as the one-bucket net made of that bucket's layer does.
func TestBucketWeights(t *testing.T) {
	n := randomBucketNet(64, SCReLU, 8, 14)
	single := make([]*Net, 8)
	for b := range single {
		s := *n
		s.OutputW = n.OutputW[b*2*n.H : (b+1)*2*n.H]
		s.OutputB = n.OutputB[b : b+1]
		single[b] = &s
	}
	acc := n.NewAccumulators(2)
	used := make(map[int]bool)
	forRandomGames(t, 10, 200, 15, func(pos *movegen.Position, m movegen.Move) {
		b := BucketOf(pos.Occupied().Count(), 8)
		used[b] = true
		acc[0].Refresh(n, pos)
		acc[1].Update(n, &acc[0], pos, m)
		pos.Make(m)
		nb := BucketOf(pos.Occupied().Count(), 8)
		for _, simd := range []bool{false, true} {
			n.forceNoSIM, single[b].forceNoSIM, single[nb].forceNoSIM = !simd, !simd, !simd
			pos.Unmake()
			got, want := n.Evaluate(&acc[0], pos.SideToMove()), single[b].Evaluate(&acc[0], pos.SideToMove())
			pos.Make(m)
			got2, want2 := n.Evaluate(&acc[1], pos.SideToMove()), single[nb].Evaluate(&acc[1], pos.SideToMove())
			if got != want || got2 != want2 {
				t.Fatalf("simd=%v %s: %d and %d, want bucket %d's %d and bucket %d's %d", simd, pos.FEN(true), got, got2, b, want, nb, want2)
			}
		}
		pos.Unmake()
	})
	if len(used) < 4 {
		t.Fatalf("the games reached only %d buckets", len(used))
	}
}

// TestBucketChoice checks that Evaluate reads the bucket of the position's
// piece count, along Refresh, Update (captures, en passant, promotions) and
// RefreshFeatures alike: a net whose buckets differ only in the output bias
// scores each position with its own bucket's bias.
func TestBucketChoice(t *testing.T) {
	n := randomBucketNet(32, SCReLU, 8, 12)
	clear(n.OutputW)
	for b := range n.OutputB {
		n.OutputB[b] = int32(b) * 255 * 64 // b units: 400*b cp
	}
	acc := n.NewAccumulators(3)
	var feats []uint16
	forRandomGames(t, 10, 200, 13, func(pos *movegen.Position, m movegen.Move) {
		want := 400 * BucketOf(pos.Occupied().Count(), 8)
		acc[0].Refresh(n, pos)
		if got := n.Evaluate(&acc[0], pos.SideToMove()); got != want {
			t.Fatalf("%s: %d after Refresh, want %d", pos.FEN(true), got, want)
		}
		feats = AppendFeatures(feats[:0], pos)
		acc[2].RefreshFeatures(n, feats)
		if got := n.Evaluate(&acc[2], pos.SideToMove()); got != want {
			t.Fatalf("%s: %d after RefreshFeatures, want %d", pos.FEN(true), got, want)
		}
		acc[1].Update(n, &acc[0], pos, m)
		pos.Make(m)
		want = 400 * BucketOf(pos.Occupied().Count(), 8)
		if got, p := n.Evaluate(&acc[1], pos.SideToMove()), acc[1].Pieces(); got != want || p != pos.Occupied().Count() {
			t.Fatalf("%s: %d (%d pieces) after Update, want %d (%d)", pos.FEN(true), got, p, want, pos.Occupied().Count())
		}
		pos.Unmake()
	})
}

// TestEvaluateByHand checks the output formula on a net small enough to
// work out: H=16, one feature row set, everything else zero.
func TestEvaluateByHand(t *testing.T) {
	for _, act := range []Activation{CReLU, SCReLU} {
		n := &Net{H: 16, Act: act, QA: 255, QB: 64, Scale: 400,
			FeatureW: make([]int16, Inputs*16), FeatureB: make([]int16, 16), OutputW: make([]int16, 32), OutputB: make([]int32, 1)}
		// A white queen on d1 seen by White puts 100 in lane 0 (and 300 in
		// lane 1, which clamps to QA); seen by Black it is an enemy queen on d8.
		wq := FeatureIndex(movegen.White, movegen.WhiteQueen, 3)
		n.FeatureW[wq*16+0], n.FeatureW[wq*16+1] = 100, 300
		n.OutputW[0], n.OutputW[1] = 64, 32 // side to move's lanes 0 and 1
		n.OutputB[0] = 255 * 64 * 10        // 10 units of QA*QB: 4000 cp
		n.simdOK = simdAvailable(16)
		pos := mustPos(t, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1")
		acc := n.NewAccumulators(1)
		acc[0].Refresh(n, pos)
		var sum int64
		if act == CReLU {
			sum = 100*64 + 255*32
		} else {
			sum = (100*100*64 + 255*255*32) / 255
		}
		sum += int64(n.OutputB[0])
		want := int(sum * 400 / (255 * 64))
		for _, simd := range []bool{false, true} {
			n.forceNoSIM = !simd
			if got := n.Evaluate(&acc[0], movegen.White); got != want {
				t.Errorf("%v simd=%v: White to move %d, want %d", act, simd && n.simdOK, got, want)
			}
			// Black to move: Black's accumulator has only zeros in lanes 0-1.
			if got, want := n.Evaluate(&acc[0], movegen.Black), 10*400; got != want {
				t.Errorf("%v simd=%v: Black to move %d, want %d", act, simd && n.simdOK, got, want)
			}
		}
	}
}

func TestFeatureIndexMirror(t *testing.T) {
	for pc := movegen.WhitePawn; pc <= movegen.BlackKing; pc++ {
		if pc.Type() == movegen.NoPieceType || pc.Type() > movegen.King {
			continue
		}
		for sq := movegen.Square(0); sq < 64; sq++ {
			w, b := FeatureIndex(movegen.White, pc, sq), FeatureIndex(movegen.Black, pc, sq)
			if w < 0 || w >= Inputs || MirrorFeature(w) != b || MirrorFeature(b) != w {
				t.Fatalf("%v on %v: white %d, black %d, mirror(white) %d", pc, sq, w, b, MirrorFeature(w))
			}
		}
	}
}

// mirrorFEN returns the colour-flipped position: ranks reversed, colours
// swapped, the other side to move.
func mirrorFEN(t *testing.T, fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	swap := func(s string) string {
		b := []byte(s)
		for i, c := range b {
			switch {
			case c >= 'a' && c <= 'z':
				b[i] = c - 'a' + 'A'
			case c >= 'A' && c <= 'Z':
				b[i] = c - 'A' + 'a'
			}
		}
		return string(b)
	}
	side := map[string]string{"w": "b", "b": "w"}[f[1]]
	castle := f[2]
	if castle != "-" {
		castle = swap(castle)
	}
	ep := f[3]
	if ep != "-" {
		ep = ep[:1] + string('1'+'8'-ep[1])
	}
	return strings.Join(append([]string{swap(strings.Join(ranks, "/")), side, castle, ep}, f[4:]...), " ")
}

// twinScores refreshes acc[0] from pos and acc[1] from the position of
// twin(pos's FEN), and returns that position and n's scores of both.
func twinScores(t *testing.T, n *Net, acc []Accumulator, pos *movegen.Position, twin func(*testing.T, string) string) (*movegen.Position, int, int) {
	m := mustPos(t, twin(t, pos.FEN(true)))
	acc[0].Refresh(n, pos)
	acc[1].Refresh(n, m)
	return m, n.Evaluate(&acc[0], pos.SideToMove()), n.Evaluate(&acc[1], m.SideToMove())
}

func TestColourFlipSymmetry(t *testing.T) {
	for name, n := range testNets(t) {
		acc := n.NewAccumulators(2)
		checked := 0
		forRandomGames(t, 20, 60, 11, func(pos *movegen.Position, _ movegen.Move) {
			if m, a, b := twinScores(t, n, acc, pos, mirrorFEN); a != b {
				t.Fatalf("%s: %s scores %d, its mirror %s scores %d", name, pos.FEN(true), a, m.FEN(true), b)
			}
			checked++
		})
		if checked < 1000 {
			t.Fatalf("only %d positions checked", checked)
		}
	}
}

func TestEvaluateBounded(t *testing.T) {
	n := randomNet(16, SCReLU, 1)
	for i := range n.OutputW {
		n.OutputW[i] = 127
	}
	for i := range n.FeatureB {
		n.FeatureB[i] = 255
	}
	acc := n.NewAccumulators(1)
	acc[0].RefreshFeatures(n, nil)
	if got := n.Evaluate(&acc[0], movegen.White); got != MaxScore {
		t.Fatalf("saturated net scores %d, want %d", got, MaxScore)
	}
	for i := range n.OutputW {
		n.OutputW[i] = -127
	}
	if got := n.Evaluate(&acc[0], movegen.Black); got != -MaxScore {
		t.Fatalf("saturated net scores %d, want %d", got, -MaxScore)
	}
}

// materialCases are positions whose verdict is clear, with the score range
// a trained net must give.
var materialCases = []struct {
	fen    string
	lo, hi int
}{
	{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", -80, 120},
	{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 500, MaxScore},   // a queen up
	{"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", -MaxScore, -500}, // a queen down
	{"r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 150, MaxScore},   // a knight up
}

// TestDefaultNetKnowsMaterial checks the shipped net on positions whose
// verdict is clear.
func TestDefaultNetKnowsMaterial(t *testing.T) {
	n := Default()
	for _, c := range materialCases {
		if got := n.EvaluatePosition(mustPos(t, c.fen)); got < c.lo || got > c.hi {
			t.Errorf("%s: %d, want %d..%d", c.fen, got, c.lo, c.hi)
		}
	}
}
