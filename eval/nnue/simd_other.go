//go:build !(goexperiment.simd && amd64)

package nnue

// This build has no SIMD kernels: every Net runs the plain Go path.

func simdAvailable(int) bool { return false }

const simdBuilt = false

// No AVX-512 kernels either.
const wideOK = false

var wide = false

func addSIMD(dst, w []int16)                       { addGeneric(dst, w) }
func subSIMD(dst, w []int16)                       { subGeneric(dst, w) }
func addSubSIMD(dst, src, a0, s0 []int16)          { addSubGeneric(dst, src, a0, s0) }
func addSubSubSIMD(dst, src, a0, s0, s1 []int16)   { addSubSubGeneric(dst, src, a0, s0, s1) }
func outputSIMD(n *Net, us, them, w []int16) int64 { return outputGeneric(n, us, them, w) }
func addAddSubSubSIMD(dst, src, a0, a1, s0, s1 []int16) {
	addAddSubSubGeneric(dst, src, a0, a1, s0, s1)
}

// The fused kernels are never called without SIMD (ApplyEvaluate checks).
func addSubOutputSIMD(n *Net, dw, sw, aw, bw, ww, db, sb, ab, bb, wb []int16) int64 {
	panic("nnue: no SIMD kernels in this build")
}

func addSubSubOutputSIMD(n *Net, dw, sw, aw, bw, cw, ww, db, sb, ab, bb, cb, wb []int16) int64 {
	panic("nnue: no SIMD kernels in this build")
}
