//go:build goexperiment.simd && amd64

package nnue

import (
	"simd/archsimd"
	"unsafe"
)

// The AVX-512 kernels: the AVX2 kernels of simd_amd64.go with 32 int16
// lanes a register, half the instructions for the same work. Each AVX2
// kernel hands its work to its twin here when wide is set and the width is
// a multiple of 32. The results are the same bits: the adds wrap the same
// way, and the output layer's integer sum is exact in any lane order.

// wideOK tells whether this CPU runs AVX-512 (F, CD, BW, DQ and VL).
var wideOK = archsimd.X86.AVX512()

// wide selects the AVX-512 kernels; tests clear it to run the AVX2 ones.
var wide = wideOK

// vecs32 views s as 32-lane vectors (len(s)/32 of them).
func vecs32(s []int16) [][32]int16 {
	return unsafe.Slice((*[32]int16)(unsafe.Pointer(unsafe.SliceData(s))), len(s)/32)
}

// wideFor tells whether the kernels for rows of n int16s run with AVX-512.
func wideFor(n int) bool { return wide && n%32 == 0 }

func add512(dst, w []int16) {
	d := vecs32(dst)
	a := vecs32(w)[:len(d)]
	for i := range d {
		archsimd.LoadInt16x32(&d[i]).Add(archsimd.LoadInt16x32(&a[i])).Store(&d[i])
	}
}

func sub512(dst, w []int16) {
	d := vecs32(dst)
	a := vecs32(w)[:len(d)]
	for i := range d {
		archsimd.LoadInt16x32(&d[i]).Sub(archsimd.LoadInt16x32(&a[i])).Store(&d[i])
	}
}

func addSub512(dst, src, a0, s0 []int16) {
	d := vecs32(dst)
	s, a, b := vecs32(src)[:len(d)], vecs32(a0)[:len(d)], vecs32(s0)[:len(d)]
	for i := range d {
		x := archsimd.LoadInt16x32(&s[i]).Add(archsimd.LoadInt16x32(&a[i]))
		x.Sub(archsimd.LoadInt16x32(&b[i])).Store(&d[i])
	}
}

func addSubSub512(dst, src, a0, s0, s1 []int16) {
	d := vecs32(dst)
	s, a, b, c := vecs32(src)[:len(d)], vecs32(a0)[:len(d)], vecs32(s0)[:len(d)], vecs32(s1)[:len(d)]
	for i := range d {
		x := archsimd.LoadInt16x32(&s[i]).Add(archsimd.LoadInt16x32(&a[i]))
		x = x.Sub(archsimd.LoadInt16x32(&b[i]))
		x.Sub(archsimd.LoadInt16x32(&c[i])).Store(&d[i])
	}
}

func addAddSubSub512(dst, src, a0, a1, s0, s1 []int16) {
	d := vecs32(dst)
	s, a, e := vecs32(src)[:len(d)], vecs32(a0)[:len(d)], vecs32(a1)[:len(d)]
	b, c := vecs32(s0)[:len(d)], vecs32(s1)[:len(d)]
	for i := range d {
		x := archsimd.LoadInt16x32(&s[i]).Add(archsimd.LoadInt16x32(&a[i]))
		x = x.Add(archsimd.LoadInt16x32(&e[i]))
		x = x.Sub(archsimd.LoadInt16x32(&b[i]))
		x.Sub(archsimd.LoadInt16x32(&c[i])).Store(&d[i])
	}
}

func output512(n *Net, us, them, w []int16) int64 {
	h := n.H
	u, t := vecs32(us[:h]), vecs32(them[:h])
	wu, wt := vecs32(w[:h])[:len(u)], vecs32(w[h : 2*h])[:len(u)]
	t = t[:len(u)]
	zero := archsimd.BroadcastInt16x32(0)
	qa := archsimd.BroadcastInt16x32(int16(n.QA))
	sum := archsimd.BroadcastInt32x16(0)
	if n.Act == SCReLU {
		for i := range u {
			x := archsimd.LoadInt16x32(&u[i]).Max(zero).Min(qa)
			y := archsimd.LoadInt16x32(&t[i]).Max(zero).Min(qa)
			sum = sum.Add(x.Mul(archsimd.LoadInt16x32(&wu[i])).DotProductPairs(x))
			sum = sum.Add(y.Mul(archsimd.LoadInt16x32(&wt[i])).DotProductPairs(y))
		}
	} else {
		for i := range u {
			x := archsimd.LoadInt16x32(&u[i]).Max(zero).Min(qa)
			y := archsimd.LoadInt16x32(&t[i]).Max(zero).Min(qa)
			sum = sum.Add(x.DotProductPairs(archsimd.LoadInt16x32(&wu[i])))
			sum = sum.Add(y.DotProductPairs(archsimd.LoadInt16x32(&wt[i])))
		}
	}
	s := laneTotal(foldLanes(sum))
	if n.Act == SCReLU {
		s = n.divQA(s)
	}
	return s
}

func addSubOutput512(n *Net, dw, sw, aw, bw, ww, db, sb, ab, bb, wb []int16) int64 {
	d0 := vecs32(dw)
	k := len(d0)
	s0, a0, b0, w0 := vecs32(sw)[:k], vecs32(aw)[:k], vecs32(bw)[:k], vecs32(ww)[:k]
	d1, s1, a1, b1, w1 := vecs32(db)[:k], vecs32(sb)[:k], vecs32(ab)[:k], vecs32(bb)[:k], vecs32(wb)[:k]
	zero := archsimd.BroadcastInt16x32(0)
	qa := archsimd.BroadcastInt16x32(int16(n.QA))
	sum := archsimd.BroadcastInt32x16(0)
	for i := range d0 {
		x := archsimd.LoadInt16x32(&s0[i]).Add(archsimd.LoadInt16x32(&a0[i])).Sub(archsimd.LoadInt16x32(&b0[i]))
		x.Store(&d0[i])
		y := archsimd.LoadInt16x32(&s1[i]).Add(archsimd.LoadInt16x32(&a1[i])).Sub(archsimd.LoadInt16x32(&b1[i]))
		y.Store(&d1[i])
		x = x.Max(zero).Min(qa)
		y = y.Max(zero).Min(qa)
		sum = sum.Add(x.Mul(archsimd.LoadInt16x32(&w0[i])).DotProductPairs(x))
		sum = sum.Add(y.Mul(archsimd.LoadInt16x32(&w1[i])).DotProductPairs(y))
	}
	return n.divQA(laneTotal(foldLanes(sum)))
}

func addSubSubOutput512(n *Net, dw, sw, aw, bw, cw, ww, db, sb, ab, bb, cb, wb []int16) int64 {
	d0 := vecs32(dw)
	k := len(d0)
	s0, a0, b0, c0, w0 := vecs32(sw)[:k], vecs32(aw)[:k], vecs32(bw)[:k], vecs32(cw)[:k], vecs32(ww)[:k]
	d1, s1, a1, b1, c1, w1 := vecs32(db)[:k], vecs32(sb)[:k], vecs32(ab)[:k], vecs32(bb)[:k], vecs32(cb)[:k], vecs32(wb)[:k]
	zero := archsimd.BroadcastInt16x32(0)
	qa := archsimd.BroadcastInt16x32(int16(n.QA))
	sum := archsimd.BroadcastInt32x16(0)
	for i := range d0 {
		x := archsimd.LoadInt16x32(&s0[i]).Add(archsimd.LoadInt16x32(&a0[i]))
		x = x.Sub(archsimd.LoadInt16x32(&b0[i])).Sub(archsimd.LoadInt16x32(&c0[i]))
		x.Store(&d0[i])
		y := archsimd.LoadInt16x32(&s1[i]).Add(archsimd.LoadInt16x32(&a1[i]))
		y = y.Sub(archsimd.LoadInt16x32(&b1[i])).Sub(archsimd.LoadInt16x32(&c1[i]))
		y.Store(&d1[i])
		x = x.Max(zero).Min(qa)
		y = y.Max(zero).Min(qa)
		sum = sum.Add(x.Mul(archsimd.LoadInt16x32(&w0[i])).DotProductPairs(x))
		sum = sum.Add(y.Mul(archsimd.LoadInt16x32(&w1[i])).DotProductPairs(y))
	}
	return n.divQA(laneTotal(foldLanes(sum)))
}

// foldLanes adds the upper eight int32 lanes of an output-layer sum to the
// lower eight: lane j then holds the products an AVX2 lane j holds (pairs
// 32i+2j and 32i+16+2j), so within the same bounds, for laneTotal.
func foldLanes(sum archsimd.Int32x16) archsimd.Int32x8 {
	return sum.GetLo().Add(sum.GetHi())
}
