package selfplay

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

func TestParseEvalComment(t *testing.T) {
	cases := []struct {
		in   string
		want int
		ok   bool
	}{
		{"+0.35/12 0.52s", 35, true},
		{"-1.20/9 1.1s", -120, true},
		{"0.00/1 0s", 0, true},
		{"-0.20/11, 0.310s, n=12345", -20, true},
		{"+M5/20 0.1s", eval.Mate - 9, true},
		{"-M5/20 0.1s", -(eval.Mate - 10), true},
		{"+M1/1", eval.Mate - 1, true},
		{"+400.00/3", eval.MateInMaxPly - 1, true},
		{"book", 0, false},
		{"White wins by adjudication", 0, false},
		{"", 0, false},
		{"+x/3 1/2", 0, false},
	}
	for _, c := range cases {
		got, ok := parseEvalComment(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("%q: %d %v, want %d %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestPGNFile reads testdata/evals.pgn, written by hand.
func TestPGNFile(t *testing.T) {
	f, err := os.Open("testdata/evals.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type want struct {
		start  string
		scores []int
		result byte
	}
	wants := []want{
		{"rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w HAha - 0 2",
			[]int{30, 25, 40, 30, 31, 20, 25, 21, 20, 15}, WhiteWins},
		{"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", []int{10, 5, 0, 0}, Draw},
		{"7k/P7/6K1/8/8/8/8/8 w - - 0 1", []int{eval.Mate - 1}, WhiteWins},
		{"6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", []int{eval.Mate - 2, eval.Mate - 1, eval.Mate - 198, 500}, WhiteWins},
		{movegen.StartFEN, []int{20, 10, NoScore, NoScore, 15}, Draw},
	}
	r := NewPGNReader(f)
	var games []*Game
	var bad []int
	for {
		g, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		var pe *PGNError
		if errors.As(err, &pe) {
			bad = append(bad, pe.Game)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	if len(bad) != 2 || bad[0] != 5 || bad[1] != 6 {
		t.Errorf("bad games %v, want [5 6]", bad)
	}
	if len(games) != len(wants) {
		t.Fatalf("%d games, want %d", len(games), len(wants))
	}
	for i, g := range games {
		w := wants[i]
		start := movegen.NewPosition()
		if err := start.SetFEN(w.start); err != nil {
			t.Fatal(err)
		}
		if got := g.Start.FEN(true); got != start.FEN(true) {
			t.Errorf("game %d: start %s, want %s", i+1, got, start.FEN(true))
		}
		if g.Result != w.result {
			t.Errorf("game %d: result %d, want %d", i+1, g.Result, w.result)
		}
		var scores []int
		for _, p := range g.Plies {
			scores = append(scores, int(p.Score))
		}
		if len(scores) != len(w.scores) {
			t.Fatalf("game %d: scores %v, want %v", i+1, scores, w.scores)
		}
		for j := range scores {
			if scores[j] != w.scores[j] {
				t.Fatalf("game %d: scores %v, want %v", i+1, scores, w.scores)
			}
		}
	}
	// The special moves came through: en passant, castling both ways, promotion.
	var kinds []string
	for _, g := range games[:3] {
		for _, p := range g.Plies {
			if p.Move.Kind() != movegen.Normal {
				kinds = append(kinds, p.Move.UCI(true))
			}
		}
	}
	if got := strings.Join(kinds, " "); got != "e5d6 e8h8 e1h1 f1g1 f8g8 a7a8q" {
		t.Errorf("special moves %q", got)
	}
}

func TestPGNErrors(t *testing.T) {
	for _, in := range []string{
		"[Event \"x\"\n",
		"1. e4 {unterminated",
		"1. e4 (1. d4 ",
		"[FEN \"not a fen\"]\n1. e4 1-0",
		"[Event \"x\"]\n1. e4 e5",
		"[Event \"x\"]\n",
	} {
		r := NewPGNReader(strings.NewReader(in))
		g, err := r.Next()
		var pe *PGNError
		if !errors.As(err, &pe) {
			t.Errorf("%q: %v %v, want a PGNError", in, g, err)
		}
	}
	r := NewPGNReader(strings.NewReader("  \n"))
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("blank input: %v", err)
	}
}
