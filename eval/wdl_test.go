package eval

import (
	"math"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

func TestMaterial(t *testing.T) {
	for _, tc := range []struct {
		fen  string
		want int
	}{
		{movegen.StartFEN, 78},
		{"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1", 78},
		{"8/8/8/4k3/8/8/8/4K3 w - - 0 1", 0},
		{"8/5p2/8/4k3/8/2N5/1Q6/4K3 b - - 0 1", 13},
	} {
		pos := movegen.NewPosition()
		if err := pos.SetFEN(tc.fen); err != nil {
			t.Fatal(err)
		}
		if got := Material(pos); got != tc.want {
			t.Errorf("Material(%s) = %d, want %d", tc.fen, got, tc.want)
		}
	}
}

// TestWDLModel checks the model's shape over its whole range: a and b
// positive (so that the draw chance is never negative), win and loss sum
// with the draw to 1000, win rising and loss falling with the score, and
// the mirror image: WDL(-s) is WDL(s) with win and loss swapped.
func TestWDLModel(t *testing.T) {
	for m := WDLMaterialMin - 2; m <= WDLMaterialMax+2; m++ {
		a, b := WDLParams(m)
		if !(a > 0 && b > 0) {
			t.Fatalf("material %d: a=%g b=%g, want both positive", m, a, b)
		}
		prevW, prevL := -1, 1001
		for s := -3000; s <= 3000; s++ {
			w, d, l := WDL(s, m)
			if w+d+l != 1000 || w < 0 || d < 0 || l < 0 {
				t.Fatalf("WDL(%d, %d) = %d %d %d", s, m, w, d, l)
			}
			if w < prevW || l > prevL {
				t.Fatalf("WDL(%d, %d) = %d %d %d: not monotonic after win %d loss %d", s, m, w, d, l, prevW, prevL)
			}
			prevW, prevL = w, l
			if w2, d2, l2 := WDL(-s, m); w2 != l || d2 != d || l2 != w {
				t.Fatalf("WDL(%d, %d) = %d %d %d, WDL(%d) = %d %d %d: not mirrored", s, m, w, d, l, -s, w2, d2, l2)
			}
			if n := NormalizeCP(s, m); NormalizeCP(-s, m) != -n {
				t.Fatalf("NormalizeCP(%d, %d) = %d, of %d %d", s, m, n, -s, NormalizeCP(-s, m))
			}
		}
		if prevW < 990 {
			t.Errorf("material %d: win %d per mille at +3000", m, prevW)
		}
	}
}

// TestNormalizeCP: the score at which the side ahead wins half of its games
// is reported as 100 cp, at every material count. a(m) is not a whole
// number: its nearest score reports 100 when a(m) >= 100, and 99 or 101
// where a unit of score is worth more than a centipawn.
func TestNormalizeCP(t *testing.T) {
	for m := WDLMaterialMin; m <= WDLMaterialMax; m++ {
		a, _ := WDLParams(m)
		s := int(math.Round(a))
		got := NormalizeCP(s, m)
		if a >= 100 && got != 100 || got < 99 || got > 101 {
			t.Errorf("material %d: a=%.2f, NormalizeCP(%d) = %d, want 100", m, a, s, got)
		}
		if w, _, _ := WDL(s, m); w < 498 || w > 502 {
			t.Errorf("material %d: win at a(m) = %d: %d per mille, want 500", m, s, w)
		}
		if got := WinRate(s, m); math.Abs(got-0.5) > 0.003 {
			t.Errorf("material %d: WinRate(%d) = %g", m, s, got)
		}
		if NormalizeCP(0, m) != 0 {
			t.Errorf("material %d: NormalizeCP(0) = %d", m, NormalizeCP(0, m))
		}
	}
}

// TestMateAndTablebaseScores: mates and tablebase wins keep their values
// and are certain results.
func TestMateAndTablebaseScores(t *testing.T) {
	for _, s := range []int{MateIn(5), MatedIn(8), MateInMaxPly, UnscaledScore, UnscaledScore + 40, -UnscaledScore - 3} {
		if got := NormalizeCP(s, 40); got != s {
			t.Errorf("NormalizeCP(%d) = %d, want it unchanged", s, got)
		}
		w, d, l := WDL(s, 40)
		if want := [3]int{1000, 0, 0}; s < 0 && (w != 0 || d != 0 || l != 1000) || s > 0 && [3]int{w, d, l} != want {
			t.Errorf("WDL(%d) = %d %d %d", s, w, d, l)
		}
	}
	// The largest score below them is scaled.
	if got := NormalizeCP(UnscaledScore-1, 78); got == UnscaledScore-1 {
		t.Errorf("NormalizeCP(%d) unchanged", UnscaledScore-1)
	}
}
