//go:build goexperiment.simd && amd64

package nnue

import (
	"simd/archsimd"
	"unsafe"
)

// simdAvailable tells whether the AVX2 kernels can run for width h.
func simdAvailable(h int) bool { return archsimd.X86.AVX2() && h%16 == 0 }

// simdBuilt is true in builds that contain the SIMD kernels.
const simdBuilt = true

// The kernels view their int16 slices as arrays of 16 lanes (one AVX2
// register each): with every view cut to the destination's length, the loop
// indexes them without bounds checks or per-iteration slicing, and compiles
// to the loads, the adds and the store alone. Every slice they get holds a
// multiple of 16 int16s (H is a multiple of HiddenAlign).

// vecs views s as 16-lane vectors (len(s)/16 of them).
func vecs(s []int16) [][16]int16 {
	return unsafe.Slice((*[16]int16)(unsafe.Pointer(unsafe.SliceData(s))), len(s)/16)
}

func addSIMD(dst, w []int16) {
	if wideFor(len(dst)) {
		add512(dst, w)
	} else {
		d := vecs(dst)
		a := vecs(w)[:len(d)]
		for i := range d {
			archsimd.LoadInt16x16(&d[i]).Add(archsimd.LoadInt16x16(&a[i])).Store(&d[i])
		}
	}
	endVector()
}

func subSIMD(dst, w []int16) {
	if wideFor(len(dst)) {
		sub512(dst, w)
	} else {
		d := vecs(dst)
		a := vecs(w)[:len(d)]
		for i := range d {
			archsimd.LoadInt16x16(&d[i]).Sub(archsimd.LoadInt16x16(&a[i])).Store(&d[i])
		}
	}
	endVector()
}

func addSubSIMD(dst, src, a0, s0 []int16) {
	if wideFor(len(dst)) {
		addSub512(dst, src, a0, s0)
	} else {
		d := vecs(dst)
		s, a, b := vecs(src)[:len(d)], vecs(a0)[:len(d)], vecs(s0)[:len(d)]
		for i := range d {
			x := archsimd.LoadInt16x16(&s[i]).Add(archsimd.LoadInt16x16(&a[i]))
			x.Sub(archsimd.LoadInt16x16(&b[i])).Store(&d[i])
		}
	}
	endVector()
}

func addSubSubSIMD(dst, src, a0, s0, s1 []int16) {
	if wideFor(len(dst)) {
		addSubSub512(dst, src, a0, s0, s1)
	} else {
		d := vecs(dst)
		s, a, b, c := vecs(src)[:len(d)], vecs(a0)[:len(d)], vecs(s0)[:len(d)], vecs(s1)[:len(d)]
		for i := range d {
			x := archsimd.LoadInt16x16(&s[i]).Add(archsimd.LoadInt16x16(&a[i]))
			x = x.Sub(archsimd.LoadInt16x16(&b[i]))
			x.Sub(archsimd.LoadInt16x16(&c[i])).Store(&d[i])
		}
	}
	endVector()
}

func addAddSubSubSIMD(dst, src, a0, a1, s0, s1 []int16) {
	if wideFor(len(dst)) {
		addAddSubSub512(dst, src, a0, a1, s0, s1)
	} else {
		d := vecs(dst)
		s, a, e := vecs(src)[:len(d)], vecs(a0)[:len(d)], vecs(a1)[:len(d)]
		b, c := vecs(s0)[:len(d)], vecs(s1)[:len(d)]
		for i := range d {
			x := archsimd.LoadInt16x16(&s[i]).Add(archsimd.LoadInt16x16(&a[i]))
			x = x.Add(archsimd.LoadInt16x16(&e[i]))
			x = x.Sub(archsimd.LoadInt16x16(&b[i]))
			x.Sub(archsimd.LoadInt16x16(&c[i])).Store(&d[i])
		}
	}
	endVector()
}

// outputSIMD is outputGeneric with AVX2: clamp 16 lanes at a time, multiply
// pairs and add them into eight int32 lanes (VPMADDWD). The loader bounds H,
// QA and the weights so that no int32 lane can overflow.
func outputSIMD(n *Net, us, them, w []int16) int64 {
	if wideFor(n.H) {
		return output512(n, us, them, w)
	}
	h := n.H
	u, t := vecs(us[:h]), vecs(them[:h])
	wu, wt := vecs(w[:h])[:len(u)], vecs(w[h : 2*h])[:len(u)]
	t = t[:len(u)]
	zero := archsimd.BroadcastInt16x16(0)
	qa := archsimd.BroadcastInt16x16(int16(n.QA))
	sum := archsimd.BroadcastInt32x8(0)
	if n.Act == SCReLU {
		for i := range u {
			x := archsimd.LoadInt16x16(&u[i]).Max(zero).Min(qa)
			y := archsimd.LoadInt16x16(&t[i]).Max(zero).Min(qa)
			sum = sum.Add(x.Mul(archsimd.LoadInt16x16(&wu[i])).DotProductPairs(x))
			sum = sum.Add(y.Mul(archsimd.LoadInt16x16(&wt[i])).DotProductPairs(y))
		}
	} else {
		for i := range u {
			x := archsimd.LoadInt16x16(&u[i]).Max(zero).Min(qa)
			y := archsimd.LoadInt16x16(&t[i]).Max(zero).Min(qa)
			sum = sum.Add(x.DotProductPairs(archsimd.LoadInt16x16(&wu[i])))
			sum = sum.Add(y.DotProductPairs(archsimd.LoadInt16x16(&wt[i])))
		}
	}
	s := laneTotal(sum)
	if n.Act == SCReLU {
		s = n.divQA(s)
	}
	return s
}

// addSubOutputSIMD is addSubSIMD for both perspectives (White's dw = sw +
// aw - bw with its output weights ww, Black's likewise) and, in the same
// pass, outputSIMD's squared clipped ReLU sum of the new values.
func addSubOutputSIMD(n *Net, dw, sw, aw, bw, ww, db, sb, ab, bb, wb []int16) int64 {
	if wideFor(len(dw)) {
		return addSubOutput512(n, dw, sw, aw, bw, ww, db, sb, ab, bb, wb)
	}
	d0 := vecs(dw)
	k := len(d0)
	s0, a0, b0, w0 := vecs(sw)[:k], vecs(aw)[:k], vecs(bw)[:k], vecs(ww)[:k]
	d1, s1, a1, b1, w1 := vecs(db)[:k], vecs(sb)[:k], vecs(ab)[:k], vecs(bb)[:k], vecs(wb)[:k]
	zero := archsimd.BroadcastInt16x16(0)
	qa := archsimd.BroadcastInt16x16(int16(n.QA))
	sum := archsimd.BroadcastInt32x8(0)
	for i := range d0 {
		x := archsimd.LoadInt16x16(&s0[i]).Add(archsimd.LoadInt16x16(&a0[i])).Sub(archsimd.LoadInt16x16(&b0[i]))
		x.Store(&d0[i])
		y := archsimd.LoadInt16x16(&s1[i]).Add(archsimd.LoadInt16x16(&a1[i])).Sub(archsimd.LoadInt16x16(&b1[i]))
		y.Store(&d1[i])
		x = x.Max(zero).Min(qa)
		y = y.Max(zero).Min(qa)
		sum = sum.Add(x.Mul(archsimd.LoadInt16x16(&w0[i])).DotProductPairs(x))
		sum = sum.Add(y.Mul(archsimd.LoadInt16x16(&w1[i])).DotProductPairs(y))
	}
	return n.divQA(laneTotal(sum))
}

// addSubSubOutputSIMD is addSubOutputSIMD for a capture: two rows taken
// away from each perspective.
func addSubSubOutputSIMD(n *Net, dw, sw, aw, bw, cw, ww, db, sb, ab, bb, cb, wb []int16) int64 {
	if wideFor(len(dw)) {
		return addSubSubOutput512(n, dw, sw, aw, bw, cw, ww, db, sb, ab, bb, cb, wb)
	}
	d0 := vecs(dw)
	k := len(d0)
	s0, a0, b0, c0, w0 := vecs(sw)[:k], vecs(aw)[:k], vecs(bw)[:k], vecs(cw)[:k], vecs(ww)[:k]
	d1, s1, a1, b1, c1, w1 := vecs(db)[:k], vecs(sb)[:k], vecs(ab)[:k], vecs(bb)[:k], vecs(cb)[:k], vecs(wb)[:k]
	zero := archsimd.BroadcastInt16x16(0)
	qa := archsimd.BroadcastInt16x16(int16(n.QA))
	sum := archsimd.BroadcastInt32x8(0)
	for i := range d0 {
		x := archsimd.LoadInt16x16(&s0[i]).Add(archsimd.LoadInt16x16(&a0[i]))
		x = x.Sub(archsimd.LoadInt16x16(&b0[i])).Sub(archsimd.LoadInt16x16(&c0[i]))
		x.Store(&d0[i])
		y := archsimd.LoadInt16x16(&s1[i]).Add(archsimd.LoadInt16x16(&a1[i]))
		y = y.Sub(archsimd.LoadInt16x16(&b1[i])).Sub(archsimd.LoadInt16x16(&c1[i]))
		y.Store(&d1[i])
		x = x.Max(zero).Min(qa)
		y = y.Max(zero).Min(qa)
		sum = sum.Add(x.Mul(archsimd.LoadInt16x16(&w0[i])).DotProductPairs(x))
		sum = sum.Add(y.Mul(archsimd.LoadInt16x16(&w1[i])).DotProductPairs(y))
	}
	return n.divQA(laneTotal(sum))
}

// laneTotal adds up the eight int32 lanes of an output-layer sum, widened to
// int64 in the registers: stored and read back, the sum waited on a store
// that cannot forward to the narrower loads. It is the last vector step of
// every output kernel, so it also ends their vector code (see endVector).
func laneTotal(sum archsimd.Int32x8) int64 {
	t := sum.GetLo().ExtendToInt64().Add(sum.GetHi().ExtendToInt64())
	u := t.GetLo().Add(t.GetHi())
	s := u.GetElem(0) + u.GetElem(1)
	endVector()
	return s
}

// endVector clears the upper halves of the vector registers (VZEROUPPER)
// at the end of each kernel. Go does not: its own code around the kernels
// copies and zeroes memory with legacy SSE instructions, and on Intel cores
// each of those, while the upper bits are dirty, waits on the whole register
// and merges into it.
func endVector() { archsimd.ClearAVXUpperBits() }
