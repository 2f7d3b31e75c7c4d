//go:build goexperiment.simd && amd64

package main

import (
	"simd/archsimd"
	"unsafe"
)

// simdAdds tells whether addF32 runs eight lanes at a time (AVX).
var simdAdds = archsimd.X86.AVX()

// Each kernel ends with VZEROUPPER (archsimd.ClearAVXUpperBits): Go emits
// none, and the trainer's scalar float code is legacy SSE, whose every
// instruction on an Intel core waits on and merges into the whole register
// while the upper halves are dirty.
//
// The runtime dirties them too: in a GOEXPERIMENT=simd build, a goroutine
// resumed after an asynchronous preemption (sysmon's signal, every 10 ms of
// running) comes back with the upper halves dirty, and a long run of scalar
// float code with no kernel in it then pays on every instruction: math.Exp,
// whose assembly mixes legacy SSE with VEX FMA, took some 900 ns a call
// instead of 9 on the 2-core Xeon. Such loops call cleanUpper first (a
// short loop, as adam.update's row) or every cleanEvery iterations.

// cleanUpper clears the upper halves of the vector registers (VZEROUPPER).
func cleanUpper() { archsimd.ClearAVXUpperBits() }

// lanes8 views s as 8-lane vectors (len(s)/8 of them).
func lanes8(s []float32) [][8]float32 {
	return unsafe.Slice((*[8]float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s)/8)
}

// addF32SIMD is addF32 eight lanes at a time: each element's sum is the
// same single rounding as one by one, so the results are the same bits.
func addF32SIMD(dst, src []float32) {
	src = src[:len(dst)]
	d := lanes8(dst)
	s := lanes8(src)[:len(d)]
	for i := range d {
		archsimd.LoadFloat32x8(&d[i]).Add(archsimd.LoadFloat32x8(&s[i])).Store(&d[i])
	}
	archsimd.ClearAVXUpperBits()
	for i := len(d) * 8; i < len(dst); i++ {
		dst[i] += src[i]
	}
}

// activateDotSIMD sets hU and hT to the activations of accU and accT and
// returns Σ hU·wu + hT·wt: forward's output layer, eight lanes at a time.
// The sum is taken in eight partial sums added at the end, so it may differ
// from the one-by-one sum in its last bits.
func activateDotSIMD(screlu bool, accU, accT, hU, hT, wu, wt []float32) float32 {
	zero, one := archsimd.BroadcastFloat32x8(0), archsimd.BroadcastFloat32x8(1)
	au, at := lanes8(accU), lanes8(accT)
	n := len(au)
	at, hu, ht, u, t := at[:n], lanes8(hU)[:n], lanes8(hT)[:n], lanes8(wu)[:n], lanes8(wt)[:n]
	sum := zero
	for i := range au {
		a := archsimd.LoadFloat32x8(&au[i]).Max(zero).Min(one)
		b := archsimd.LoadFloat32x8(&at[i]).Max(zero).Min(one)
		if screlu {
			a, b = a.Mul(a), b.Mul(b)
		}
		a.Store(&hu[i])
		b.Store(&ht[i])
		sum = a.MulAdd(archsimd.LoadFloat32x8(&u[i]), sum)
		sum = b.MulAdd(archsimd.LoadFloat32x8(&t[i]), sum)
	}
	var parts [8]float32
	sum.Store(&parts)
	archsimd.ClearAVXUpperBits()
	return ((parts[0] + parts[1]) + (parts[2] + parts[3])) + ((parts[4] + parts[5]) + (parts[6] + parts[7]))
}

// backwardSIMD is backward's loop over the hidden units, eight at a time:
// the output weights' gradients gu, gt, the gradients dU, dT at the
// accumulators (gOut times the output weight times the activation's
// derivative, zero where it is clipped) and the first layer's bias b1.
func backwardSIMD(screlu bool, gOut float32, accU, accT, hU, hT, wu, wt, gu, gt, dU, dT, b1 []float32) {
	zero, one := archsimd.BroadcastFloat32x8(0), archsimd.BroadcastFloat32x8(1)
	g := archsimd.BroadcastFloat32x8(gOut)
	au := lanes8(accU)
	n := len(au)
	at, hu, ht, u, t := lanes8(accT)[:n], lanes8(hU)[:n], lanes8(hT)[:n], lanes8(wu)[:n], lanes8(wt)[:n]
	gU, gT, du, dt, bias := lanes8(gu)[:n], lanes8(gt)[:n], lanes8(dU)[:n], lanes8(dT)[:n], lanes8(b1)[:n]
	for i := range au {
		archsimd.LoadFloat32x8(&hu[i]).MulAdd(g, archsimd.LoadFloat32x8(&gU[i])).Store(&gU[i])
		archsimd.LoadFloat32x8(&ht[i]).MulAdd(g, archsimd.LoadFloat32x8(&gT[i])).Store(&gT[i])
		x := archsimd.LoadFloat32x8(&au[i])
		y := archsimd.LoadFloat32x8(&at[i])
		dx, dy := one, one
		if screlu {
			dx, dy = x.Add(x), y.Add(y)
		}
		dx = dx.Masked(x.Greater(zero).And(x.Less(one)))
		dy = dy.Masked(y.Greater(zero).And(y.Less(one)))
		a := g.Mul(archsimd.LoadFloat32x8(&u[i])).Mul(dx)
		b := g.Mul(archsimd.LoadFloat32x8(&t[i])).Mul(dy)
		a.Store(&du[i])
		b.Store(&dt[i])
		archsimd.LoadFloat32x8(&bias[i]).Add(a.Add(b)).Store(&bias[i])
	}
	archsimd.ClearAVXUpperBits()
}
