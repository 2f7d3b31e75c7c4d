//go:build goexperiment.simd && amd64

package nnue

import "simd/archsimd"

// simdAvailable tells whether the AVX2 kernels can run for width h.
func simdAvailable(h int) bool { return archsimd.X86.AVX2() && h%16 == 0 }

// simdBuilt is true in builds that contain the SIMD kernels.
const simdBuilt = true

func addSIMD(dst, w []int16) {
	w = w[:len(dst)]
	for i := 0; i+16 <= len(dst); i += 16 {
		x := archsimd.LoadInt16x16Slice(dst[i:])
		x.Add(archsimd.LoadInt16x16Slice(w[i:])).StoreSlice(dst[i:])
	}
}

func addSubSIMD(dst, src, a0, s0 []int16) {
	n := len(dst)
	src, a0, s0 = src[:n], a0[:n], s0[:n]
	for i := 0; i+16 <= n; i += 16 {
		x := archsimd.LoadInt16x16Slice(src[i:])
		x = x.Add(archsimd.LoadInt16x16Slice(a0[i:]))
		x = x.Sub(archsimd.LoadInt16x16Slice(s0[i:]))
		x.StoreSlice(dst[i:])
	}
}

func addSubSubSIMD(dst, src, a0, s0, s1 []int16) {
	n := len(dst)
	src, a0, s0, s1 = src[:n], a0[:n], s0[:n], s1[:n]
	for i := 0; i+16 <= n; i += 16 {
		x := archsimd.LoadInt16x16Slice(src[i:])
		x = x.Add(archsimd.LoadInt16x16Slice(a0[i:]))
		x = x.Sub(archsimd.LoadInt16x16Slice(s0[i:]))
		x = x.Sub(archsimd.LoadInt16x16Slice(s1[i:]))
		x.StoreSlice(dst[i:])
	}
}

func addAddSubSubSIMD(dst, src, a0, a1, s0, s1 []int16) {
	n := len(dst)
	src, a0, a1, s0, s1 = src[:n], a0[:n], a1[:n], s0[:n], s1[:n]
	for i := 0; i+16 <= n; i += 16 {
		x := archsimd.LoadInt16x16Slice(src[i:])
		x = x.Add(archsimd.LoadInt16x16Slice(a0[i:]))
		x = x.Add(archsimd.LoadInt16x16Slice(a1[i:]))
		x = x.Sub(archsimd.LoadInt16x16Slice(s0[i:]))
		x = x.Sub(archsimd.LoadInt16x16Slice(s1[i:]))
		x.StoreSlice(dst[i:])
	}
}

// outputSIMD is outputGeneric with AVX2: clamp 16 lanes at a time, multiply
// pairs and add them into eight int32 lanes (VPMADDWD). The loader bounds H,
// QA and the weights so that no int32 lane can overflow.
func outputSIMD(n *Net, us, them, w []int16) int64 {
	h := n.H
	wu, wt := w[:h], w[h:2*h]
	us, them = us[:h], them[:h]
	zero := archsimd.BroadcastInt16x16(0)
	qa := archsimd.BroadcastInt16x16(int16(n.QA))
	sum := archsimd.BroadcastInt32x8(0)
	if n.Act == SCReLU {
		for i := 0; i+16 <= h; i += 16 {
			u := archsimd.LoadInt16x16Slice(us[i:]).Max(zero).Min(qa)
			t := archsimd.LoadInt16x16Slice(them[i:]).Max(zero).Min(qa)
			sum = sum.Add(u.Mul(archsimd.LoadInt16x16Slice(wu[i:])).DotProductPairs(u))
			sum = sum.Add(t.Mul(archsimd.LoadInt16x16Slice(wt[i:])).DotProductPairs(t))
		}
	} else {
		for i := 0; i+16 <= h; i += 16 {
			u := archsimd.LoadInt16x16Slice(us[i:]).Max(zero).Min(qa)
			t := archsimd.LoadInt16x16Slice(them[i:]).Max(zero).Min(qa)
			sum = sum.Add(u.DotProductPairs(archsimd.LoadInt16x16Slice(wu[i:])))
			sum = sum.Add(t.DotProductPairs(archsimd.LoadInt16x16Slice(wt[i:])))
		}
	}
	var lanes [8]int32
	sum.Store(&lanes)
	var s int64
	for _, l := range lanes {
		s += int64(l)
	}
	if n.Act == SCReLU {
		s /= int64(n.QA)
	}
	return s
}
