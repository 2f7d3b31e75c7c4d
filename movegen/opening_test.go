package movegen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestOpenings draws openings from an even mix: each kind comes up, each
// opening has the asked number of plies and a legal move, and the weights
// are checked and followed; a mix that cannot be drawn from, or negative
// plies, is an error.
func TestOpenings(t *testing.T) {
	mix := VariantMix{Standard: 1, Chess960: 1, DFRC: 1}
	seen := map[Variant]int{}
	var pos Position
	for i := range 300 {
		rng := rand.New(rand.NewPCG(9, uint64(i)))
		v, err := RandomOpening(&pos, mix, 8, rng)
		if err != nil {
			t.Fatal(err)
		}
		seen[v]++
		if pos.Ply() != 8 || !pos.HasLegalMove() {
			t.Fatalf("%s: ply %d", pos.FEN(true), pos.Ply())
		}
	}
	for _, v := range []Variant{Standard, Chess960, DFRC} {
		if seen[v] < 60 {
			t.Errorf("%s: %d of 300 openings", v, seen[v])
		}
	}
	for _, bad := range []VariantMix{{}, {Standard: -1, DFRC: 2}, {Chess960: math.NaN()}, {Standard: math.Inf(1)}, {DFRC: math.NaN(), Standard: 1}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
		if _, err := RandomOpening(&pos, bad, 8, nil); err == nil {
			t.Errorf("RandomOpening drew from %+v", bad)
		}
	}
	if err := RandomPlies(&pos, StartFEN, -1, nil); err == nil {
		t.Error("RandomPlies took -1 plies")
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "no move made") {
				t.Errorf("Unmake with no move: recovered %v", r)
			}
		}()
		NewPosition().Unmake()
	}()
	only := VariantMix{Chess960: 1}
	for i := range 20 {
		if v := only.Pick(rand.New(rand.NewPCG(10, uint64(i)))); v != Chess960 {
			t.Fatalf("drew %s from %+v", v, only)
		}
	}
}
