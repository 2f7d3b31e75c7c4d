//go:build !(goexperiment.simd && amd64)

package main

// simdAdds is false where the vector adds are not built.
const simdAdds = false

// cleanUpper has nothing to clear where the kernels are not built.
func cleanUpper() {}

func addF32SIMD(dst, src []float32) { panic("unreachable: no vector adds in this build") }

func activateDotSIMD(screlu bool, accU, accT, hU, hT, wu, wt []float32) float32 {
	panic("unreachable: no vector adds in this build")
}

func backwardSIMD(screlu bool, gOut float32, accU, accT, hU, hT, wu, wt, gu, gt, dU, dT, b1 []float32) {
	panic("unreachable: no vector adds in this build")
}
