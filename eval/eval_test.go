package eval

import (
	"bufio"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/kingrook/kingrook/movegen"
)

// dataDir holds samples of the perft suites and opening books (origin in
// testdata/README.md).
const dataDir = "testdata"

// flipFEN returns the colour-flipped position: ranks mirrored, colours
// swapped, the other side to move, castling letters and the en-passant
// rank mirrored. Its evaluation from the side to move must be identical.
func flipFEN(t testing.TB, fen string) string {
	t.Helper()
	f := strings.Fields(fen)
	if len(f) < 4 {
		t.Fatalf("short FEN %q", fen)
	}
	ranks := strings.Split(f[0], "/")
	for i, j := 0, len(ranks)-1; i < j; i, j = i+1, j-1 {
		ranks[i], ranks[j] = ranks[j], ranks[i]
	}
	board := swapCase(strings.Join(ranks, "/"))
	side := "w"
	if f[1] == "w" {
		side = "b"
	}
	castling := f[2]
	if castling != "-" {
		castling = swapCase(castling)
	}
	ep := f[3]
	if ep != "-" {
		ep = string(ep[0]) + string(rune('1'+'8'-rune(ep[1])))
	}
	out := []string{board, side, castling, ep}
	return strings.Join(append(out, f[4:]...), " ")
}

func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

// readFENs returns the FEN of every line of an EPD file: its first four
// fields, and the move counters when the line has them.
func readFENs(t testing.TB, path string) []string {
	t.Helper()
	file, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	var fens []string
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if i := strings.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) < 4 {
			continue
		}
		fen := strings.Join(f[:4], " ")
		if len(f) >= 6 {
			if _, err := strconv.Atoi(f[4]); err == nil {
				fen += " " + f[4] + " " + f[5]
			}
		}
		fens = append(fens, fen)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(fens) == 0 {
		t.Fatalf("%s: no positions", path)
	}
	return fens
}

func mustPos(t testing.TB, fen string) *movegen.Position {
	t.Helper()
	var p movegen.Position
	if err := p.SetFEN(fen); err != nil {
		t.Fatalf("SetFEN(%q): %v", fen, err)
	}
	return &p
}

// testPositions gathers the perft suites and a few hundred book positions.
func testPositions(t *testing.T) []string {
	t.Helper()
	var all []string
	for _, name := range []string{"standard.epd", "fischer-sample.epd", "books-sample.epd"} {
		all = append(all, readFENs(t, filepath.Join(dataDir, name))...)
	}
	return all
}

// playouts extends fens with positions reached by seeded random games, to
// reach middlegames and endgames the suites lack.
func playouts(t *testing.T, fens []string, every, plies int) []string {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	var out []string
	var ml movegen.MoveList
	for i, fen := range fens {
		if i%every != 0 {
			continue
		}
		p := mustPos(t, fen)
		for ply := 0; ply < plies; ply++ {
			ml.Clear()
			p.GenerateLegal(&ml)
			if ml.Len() == 0 {
				break
			}
			// Prefer captures now and then so material comes off.
			m := ml.At(rng.IntN(ml.Len()))
			for try := 0; try < 3 && p.PieceOn(m.To()) == movegen.NoPiece; try++ {
				m = ml.At(rng.IntN(ml.Len()))
			}
			p.Make(m)
			if ply%4 == 3 {
				out = append(out, p.FEN(true))
			}
		}
	}
	return out
}

func TestFlipFEN(t *testing.T) {
	got := flipFEN(t, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
	want := "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b kqKQ - 0 1"
	if got != want {
		t.Fatalf("flipFEN = %q, want %q", got, want)
	}
	if got := flipFEN(t, "4k3/8/8/3pP3/8/8/8/4K3 w HAha d6 0 1"); got != "4k3/8/8/8/3Pp3/8/8/4K3 b haHA d3 0 1" {
		t.Fatalf("flipFEN = %q", got)
	}
}

func TestColourSymmetry(t *testing.T) {
	fens := testPositions(t)
	fens = append(fens, playouts(t, fens, 3, 160)...)
	e := NewEvaluator(nil)
	checked := 0
	for _, fen := range fens {
		p := mustPos(t, fen)
		ffen := flipFEN(t, fen)
		q := mustPos(t, ffen)
		a, b := Evaluate(p), Evaluate(q)
		if a != b {
			t.Fatalf("asymmetric: %d for %s, %d for %s\n%s\n%s", a, fen, b, ffen, Trace(p), Trace(q))
		}
		if c := e.Evaluate(p); c != a {
			t.Fatalf("cached evaluator %d, plain %d for %s", c, a, fen)
		}
		if c := e.Evaluate(q); c != b {
			t.Fatalf("cached evaluator %d, plain %d for %s", c, b, ffen)
		}
		checked++
	}
	t.Logf("%d positions and their mirrors", checked)
	if checked < 1500 {
		t.Fatalf("only %d positions checked", checked)
	}
}

func TestStartPosition(t *testing.T) {
	p := mustPos(t, movegen.StartFEN)
	if v := Evaluate(p); v <= 0 || v >= 50 {
		t.Fatalf("start position %d, want small and positive (tempo)", v)
	}
	// Every 960 start is near equal too.
	for n := 0; n < 960; n += 37 {
		fen, err := movegen.Chess960FEN(n)
		if err != nil {
			t.Fatal(err)
		}
		if v := Evaluate(mustPos(t, fen)); v <= -50 || v >= 50 {
			t.Fatalf("960 start %d (%s) scores %d", n, fen, v)
		}
	}
}

func TestMaterialSign(t *testing.T) {
	cases := []struct {
		fen      string
		min, max int
	}{
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1", -1500, -600}, // white lacks the queen
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1", 600, 1500},
		{"rnbqkb1r/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 200, 500},  // black lacks a knight
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Kkq - 0 1", -700, -300}, // white lacks a rook
		{"rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 20, 200},   // a pawn up
	}
	for _, c := range cases {
		if v := Evaluate(mustPos(t, c.fen)); v < c.min || v > c.max {
			t.Errorf("%s: %d, want in [%d, %d]", c.fen, v, c.min, c.max)
		}
	}
}

func TestInsufficientMaterial(t *testing.T) {
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/2N1K3 b - - 0 1",
		"4k3/2n5/8/8/8/8/8/4K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1",
		"1nn1k3/8/8/8/8/8/8/4K3 b - - 0 1",
	} {
		if v := Evaluate(mustPos(t, fen)); v != 0 {
			t.Errorf("%s: %d, want 0", fen, v)
		}
	}
	// Mating material is not a dead draw.
	for _, fen := range []string{
		"4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1",
		"4k3/8/8/8/8/8/8/3RK3 w - - 0 1",
		"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
	} {
		if v := Evaluate(mustPos(t, fen)); v < 100 {
			t.Errorf("%s: %d, want a clear white edge", fen, v)
		}
	}
}

func TestDrawishEndgamesScaled(t *testing.T) {
	// Three extra pawns with opposite-coloured bishops against the same
	// with same-coloured bishops.
	ocb := Evaluate(mustPos(t, "8/4k3/3b4/8/2P5/1P6/P3B3/4K3 w - - 0 1"))
	same := Evaluate(mustPos(t, "8/4k3/4b3/8/2P5/1P6/P3B3/4K3 w - - 0 1"))
	if ocb <= 0 || 2*ocb >= same {
		t.Errorf("opposite bishops %d, same-coloured %d: want a strong scale-down", ocb, same)
	}
	// Rook against a minor without pawns is mostly drawn; queen against
	// rook is a win.
	if v := Evaluate(mustPos(t, "4k3/8/8/3b4/8/8/8/3RK3 w - - 0 1")); v < 0 || v > 60 {
		t.Errorf("KRvKB: %d, want small", v)
	}
	if v := Evaluate(mustPos(t, "4k3/8/8/3n4/8/8/8/3RK3 b - - 0 1")); v > 0 || v < -60 {
		t.Errorf("KRvKN: %d, want small", v)
	}
	if v := Evaluate(mustPos(t, "4k3/8/8/3r4/8/8/8/3QK3 w - - 0 1")); v < 300 {
		t.Errorf("KQvKR: %d, want a winning edge", v)
	}
	// A minor and nothing else cannot win against pawns.
	if v := Evaluate(mustPos(t, "4k3/8/8/8/8/8/8/3NK3 w - - 0 1")); v != 0 {
		t.Errorf("KNvK: %d", v)
	}
	// The 50-move counter fades the score.
	fresh := Evaluate(mustPos(t, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"))
	late := Evaluate(mustPos(t, "4k3/8/8/8/8/8/8/3QK3 w - - 90 80"))
	if late <= 0 || late >= fresh {
		t.Errorf("fade: %d at rule50 0, %d at rule50 90", fresh, late)
	}
}

func TestCornerBishop960(t *testing.T) {
	// White's a1 bishop: boxed by b2, free with the b-pawn on b3, boxed and
	// blocked with b2 and a knight on b3.
	boxed := "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w - - 0 1"
	free := "bqnbrkrn/pppppppp/8/8/8/1P6/P1PPPPPP/BQNBRKRN w - - 0 1"
	blocked := "bqnbrkrn/pppppppp/8/8/8/1N6/PPPPPPPP/BQ1BRKRN w - - 0 1"
	e := NewEvaluator(nil)
	count := func(fen string, term int) int32 {
		for _, f := range e.Features(mustPos(t, fen), nil).Terms {
			if int(f.Index) == term {
				return f.Count
			}
		}
		return 0
	}
	// Both sides' a-bishops are boxed at the start: they cancel.
	if n := count(boxed, iCornerBishop); n != 0 {
		t.Errorf("start: corner bishop net count %d, want 0", n)
	}
	if n := count(free, iCornerBishop); n != -1 {
		t.Errorf("free white bishop: net count %d, want -1 (only black's is boxed)", n)
	}
	if n := count(blocked, iCornerBlocked); n != 1 {
		t.Errorf("blocked white bishop: net blocked count %d, want 1", n)
	}
	// The penalty's effect on the score: evaluate with the corner terms
	// zeroed and compare.
	p := DefaultParams()
	p[iCornerBishop], p[iCornerBlocked] = Pair{}, Pair{}
	zero := NewEvaluator(&p)
	pen := func(fen string) int {
		pos := mustPos(t, fen)
		return e.Evaluate(pos) - zero.Evaluate(pos)
	}
	if d := pen(free); d <= 0 {
		t.Errorf("only black boxed: white gains %d, want > 0", d)
	}
	if d := pen(flipFEN(t, free)); d <= 0 {
		t.Errorf("mirrored, only white boxed: black-to-move gains %d, want > 0", d)
	}
	if a, b := pen(boxed), pen(blocked); b >= a {
		t.Errorf("blocked b3 penalty %d not worse than plain boxed %d", b, a)
	}
	// The h1/g2 corner too.
	hboxed := "nrkrbqnb/pppppppp/8/8/8/8/PPPPPPPP/NRKRBQNB w - - 0 1"
	hfree := "nrkrbqnb/pppppppp/8/8/8/6P1/PPPPPP1P/NRKRBQNB w - - 0 1"
	if n := count(hboxed, iCornerBishop); n != 0 {
		t.Errorf("h-corner start: net %d", n)
	}
	if n := count(hfree, iCornerBishop); n != -1 {
		t.Errorf("h-corner free white bishop: net %d, want -1", n)
	}
}

func TestPassedPawnRank(t *testing.T) {
	seventh := Evaluate(mustPos(t, "7k/P7/8/8/8/8/8/4K3 w - - 0 1"))
	third := Evaluate(mustPos(t, "7k/8/8/8/8/P7/8/4K3 w - - 0 1"))
	if seventh <= third+100 {
		t.Fatalf("pawn on the 7th %d, on the 3rd %d", seventh, third)
	}
	// Isolated, doubled pawns hurt.
	healthy := Evaluate(mustPos(t, "4k3/pppp4/8/8/8/8/PPP5/4K3 w - - 0 1"))
	if Evaluate(mustPos(t, "4k3/pppp4/8/8/8/2P5/P1P5/4K3 w - - 0 1")) >= healthy {
		t.Errorf("doubled and isolated pawns not penalized")
	}
}

func TestSideRelative(t *testing.T) {
	tempo := 2 * max(handParams()[iTempo].MG, handParams()[iTempo].EG)
	for _, fen := range []string{
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"4k3/8/8/8/8/8/4P3/3RK3 w - - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1",
	} {
		w := Evaluate(mustPos(t, fen))
		b := Evaluate(mustPos(t, strings.Replace(fen, " w ", " b ", 1)))
		if d := w + b; d < 0 || d > tempo+2 {
			t.Errorf("%s: %d with white to move, %d with black: sum %d, want within tempo", fen, w, b, d)
		}
	}
}

func TestTraceMatchesEvaluate(t *testing.T) {
	fens := readFENs(t, filepath.Join(dataDir, "standard.epd"))
	fens = append(fens, "4k3/8/8/8/8/8/8/2N1K3 w - - 0 1")
	for _, fen := range fens {
		p := mustPos(t, fen)
		text := Trace(p)
		i := strings.LastIndex(text, "Final evaluation: ")
		if i < 0 {
			t.Fatalf("no final line in trace:\n%s", text)
		}
		var v int
		if _, err := fmtSscan(text[i+len("Final evaluation: "):], &v); err != nil {
			t.Fatalf("bad final line: %v\n%s", err, text)
		}
		if want := Evaluate(p); v != want {
			t.Fatalf("%s: trace says %d, Evaluate %d\n%s", fen, v, want, text)
		}
	}
	if text := Trace(mustPos(t, movegen.StartFEN)); !strings.Contains(text, "Mobility knight") || !strings.Contains(text, "Tempo") {
		t.Errorf("trace lacks term rows:\n%s", text)
	}
}

func fmtSscan(s string, v *int) (int, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, strconv.ErrSyntax
	}
	n, err := strconv.Atoi(f[0])
	*v = n
	return 1, err
}

// TestFeaturesLinear rebuilds the score from the linear form, in the same
// integer arithmetic, and requires exact agreement: the trace misses no
// term.
func TestFeaturesLinear(t *testing.T) {
	fens := testPositions(t)
	fens = append(fens, playouts(t, fens, 10, 120)...)
	p := DefaultParams()
	e := NewEvaluator(&p)
	var buf []Feature
	for _, fen := range fens {
		pos := mustPos(t, fen)
		f := e.Features(pos, buf)
		buf = f.Terms
		want := Evaluate(pos)
		if f.Drawn {
			if want != 0 {
				t.Fatalf("%s drawn but %d", fen, want)
			}
			continue
		}
		mg, eg := 0, 0
		for _, ft := range f.Terms {
			mg += int(ft.Count) * p[ft.Index].MG
			eg += int(ft.Count) * p[ft.Index].EG
		}
		v := (mg*f.Phase + eg*(PhaseMax-f.Phase)*f.Scale/ScaleNormal) / PhaseMax
		v = v * (FadeBase - f.Rule50) / FadeBase
		if v != f.White {
			t.Fatalf("%s: linear form %d, evaluation %d", fen, v, f.White)
		}
		if pos.SideToMove() == black {
			v = -v
		}
		if v != want {
			t.Fatalf("%s: linear form %d, Evaluate %d", fen, v, want)
		}
	}
}

func TestTermGroupsTile(t *testing.T) {
	next := 0
	for _, g := range TermGroups() {
		if g.Start != next || g.Len <= 0 || g.Cols <= 0 {
			t.Fatalf("group %q starts at %d (len %d), want start %d", g.Name, g.Start, g.Len, next)
		}
		next += g.Len
	}
	if next != NumTerms {
		t.Fatalf("groups cover %d terms, NumTerms is %d", next, NumTerms)
	}
	var p Params
	v := p.Vector()
	if len(v) != 2*NumTerms {
		t.Fatalf("Vector has %d entries", len(v))
	}
	*v[2*iTempo+1] = 7
	if p[iTempo].EG != 7 {
		t.Fatal("Vector does not alias the params")
	}
}

func TestScorePacking(t *testing.T) {
	for _, mg := range []int{-20000, -300, -1, 0, 1, 5, 12345} {
		for _, eg := range []int{-20000, -77, -1, 0, 1, 9, 30000} {
			s := mkScore(mg, eg)
			if s.mg() != mg || s.eg() != eg {
				t.Fatalf("mkScore(%d, %d) unpacks to (%d, %d)", mg, eg, s.mg(), s.eg())
			}
			if d := s * 3; mg*3 >= -32768 && mg*3 < 32768 && eg*3 >= -32768 && eg*3 < 32768 &&
				(d.mg() != 3*mg || d.eg() != 3*eg) {
				t.Fatalf("3 x (%d, %d) = (%d, %d)", mg, eg, d.mg(), d.eg())
			}
		}
	}
}

// benchFENs mixes openings (standard and 960), middlegames and endgames.
var benchFENs = []string{
	movegen.StartFEN,
	"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
	"r1bq1rk1/ppp2ppp/2n2n2/3pp3/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 7",
	"r1b2rk1/pp3ppp/2n5/q2p4/3Pn3/P1PBPN2/2Q2PPP/R3K2R b KQ - 0 12",
	"2r2rk1/1b2qppp/p3pn2/1p6/3N4/P1B1P3/1P2BPPP/2RQ1RK1 w - - 0 18",
	"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
	"6k1/5ppp/p1r5/1p6/8/P1R3P1/1P3P1P/6K1 w - - 0 30",
	"8/5pk1/6p1/3P4/2K5/8/8/8 w - - 0 1",
	"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
	"4k3/8/3b4/8/2P5/1P6/P3B3/4K3 b - - 0 40",
	"r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
}

func benchPositions(b *testing.B) []*movegen.Position {
	var ps []*movegen.Position
	for _, fen := range benchFENs {
		ps = append(ps, mustPos(b, fen))
	}
	return ps
}

func BenchmarkEvaluate(b *testing.B) {
	ps := benchPositions(b)
	b.ReportAllocs()
	b.ResetTimer()
	sum := 0
	for i := 0; i < b.N; i++ {
		sum += Evaluate(ps[i%len(ps)])
	}
	_ = sum
}

func BenchmarkEvaluatorCached(b *testing.B) {
	ps := benchPositions(b)
	e := NewEvaluator(nil)
	b.ReportAllocs()
	b.ResetTimer()
	sum := 0
	for i := 0; i < b.N; i++ {
		sum += e.Evaluate(ps[i%len(ps)])
	}
	_ = sum
}

// TestFormatParams parses the generated source back and compares every
// weight.
func TestFormatParams(t *testing.T) {
	p := HandParams()
	p[iTempo] = Pair{-3, 17}
	p[NumTerms-2] = Pair{123, -456}
	src, err := FormatParams(&p, "tuned on nothing\nloss 0")
	if err != nil {
		t.Fatal(err)
	}
	f, err := parser.ParseFile(token.NewFileSet(), "params_tuned.go", src, parser.ParseComments)
	if err != nil {
		t.Fatalf("generated source does not parse: %v\n%s", err, src)
	}
	var got []Pair
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || lit.Type != nil {
			return true
		}
		var v [2]int
		for i, el := range lit.Elts {
			x := el
			neg := false
			if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.SUB {
				x, neg = u.X, true
			}
			bl, ok := x.(*ast.BasicLit)
			if !ok || i > 1 {
				t.Fatalf("unexpected element %T", el)
			}
			n, _ := strconv.Atoi(bl.Value)
			if neg {
				n = -n
			}
			v[i] = n
		}
		got = append(got, Pair{v[0], v[1]})
		return false
	})
	if len(got) != NumTerms {
		t.Fatalf("generated %d pairs, want %d", len(got), NumTerms)
	}
	for i := range got {
		if got[i] != p[i] {
			t.Fatalf("pair %d: generated %v, want %v", i, got[i], p[i])
		}
	}
	if !strings.Contains(string(src), "// loss 0\n") || !strings.Contains(string(src), "func tunedParams() *Params") {
		t.Errorf("header or function missing:\n%s", src[:300])
	}
}
