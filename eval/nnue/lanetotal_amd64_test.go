//go:build goexperiment.simd && amd64

package nnue

import (
	"math"
	"simd/archsimd"
	"testing"
)

// TestLaneTotal checks that laneTotal adds the eight lanes exactly, as
// int64s: sums beyond the int32 range must not wrap.
func TestLaneTotal(t *testing.T) {
	if !archsimd.X86.AVX2() {
		t.Skip("no AVX2")
	}
	for _, lanes := range [][8]int32{
		{1, 2, 3, 4, 5, 6, 7, 8},
		{-1, -2, -3, -4, 5, 6, 7, 8},
		{math.MaxInt32, math.MaxInt32, math.MaxInt32, math.MaxInt32, math.MaxInt32, math.MaxInt32, math.MaxInt32, math.MaxInt32},
		{math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32, math.MinInt32},
		{math.MaxInt32, 1, math.MinInt32, -1, math.MaxInt32, math.MaxInt32, 0, 7},
	} {
		var want int64
		for _, l := range lanes {
			want += int64(l)
		}
		if got := laneTotal(archsimd.LoadInt32x8(&lanes)); got != want {
			t.Errorf("laneTotal(%v) = %d, want %d", lanes, got, want)
		}
	}
}
