package main

import (
	"math"
	"slices"

	"github.com/kingrook/kingrook/eval"
)

// cell counts the results of the positions with one material count and one
// score (White's view): n[0] White won, n[1] drawn, n[2] Black won.
type cell struct {
	m, s int
	n    [3]float64
}

// model is the polynomial win/draw/loss model of eval/wdl.go: a(m) and b(m)
// are cubic in x = m / eval.WDLMaterialRef, coefficients low to high.
type model struct {
	a, b [4]float64
}

// poly evaluates a cubic (coefficients low to high) at x.
func poly(c [4]float64, x float64) float64 {
	return ((c[3]*x+c[2])*x+c[1])*x + c[0]
}

// matX is the polynomials' variable for material m (clamped to the model's
// range, as eval.WDLParams does).
func matX(m int) float64 {
	return float64(max(eval.WDLMaterialMin, min(eval.WDLMaterialMax, m))) / eval.WDLMaterialRef
}

// params returns a(m) and b(m).
func (md model) params(m int) (a, b float64) {
	x := matX(m)
	return poly(md.a, x), poly(md.b, x)
}

// probs returns the win, draw and loss probabilities of score s under a, b.
func probs(s, a, b float64) (w, d, l float64) {
	w = 1 / (1 + math.Exp((a-s)/b))
	l = 1 / (1 + math.Exp((a+s)/b))
	return w, 1 - w - l, l
}

// minProb bounds the probabilities inside the logarithms, so that a
// parameter set that predicts a result as impossible costs much but not
// infinitely much.
const minProb = 1e-12

// nll returns the negative log-likelihood of the cells' results when
// position (m, s) has parameters ab(m), and the number of positions. A
// draw probability is positive only when a > 0 (and b > 0): other
// parameters cost +Inf.
func nll(cells []cell, ab func(m int) (a, b float64)) (sum, n float64) {
	lastM, a, b := -1, 0.0, 0.0
	for i := range cells {
		c := &cells[i]
		if c.m != lastM {
			lastM = c.m
			a, b = ab(c.m)
			if !(a > 0 && b > 0) {
				return math.Inf(1), 0
			}
		}
		w, d, l := probs(float64(c.s), a, b)
		sum -= c.n[0]*math.Log(max(w, minProb)) + c.n[1]*math.Log(max(d, minProb)) + c.n[2]*math.Log(max(l, minProb))
		n += c.n[0] + c.n[1] + c.n[2]
	}
	return sum, n
}

// meanNLL returns the mean negative log-likelihood per position (nats).
func meanNLL(cells []cell, ab func(m int) (a, b float64)) float64 {
	s, n := nll(cells, ab)
	if n == 0 {
		return math.NaN()
	}
	return s / n
}

// byMaterial splits cells, sorted by material, into runs of one material.
func byMaterial(cells []cell) map[int][]cell {
	out := map[int][]cell{}
	for i := 0; i < len(cells); {
		j := i
		for j < len(cells) && cells[j].m == cells[i].m {
			j++
		}
		out[cells[i].m] = cells[i:j]
		i = j
	}
	return out
}

// sortCells orders cells by material, then score.
func sortCells(cells []cell) {
	slices.SortFunc(cells, func(x, y cell) int {
		if x.m != y.m {
			return x.m - y.m
		}
		return x.s - y.s
	})
}

// materialFit is the free fit of a and b for one material count.
type materialFit struct {
	m    int
	n    float64 // positions
	a, b float64
}

// fitMaterials fits a and b separately for each material count with at
// least minN positions.
func fitMaterials(cells []cell, minN float64) []materialFit {
	var out []materialFit
	groups := byMaterial(cells)
	ms := make([]int, 0, len(groups))
	for m := range groups {
		ms = append(ms, m)
	}
	slices.Sort(ms)
	for _, m := range ms {
		g := groups[m]
		n := 0.0
		for _, c := range g {
			n += c.n[0] + c.n[1] + c.n[2]
		}
		if n < minN {
			continue
		}
		f := func(p []float64) float64 {
			s, _ := nll(g, func(int) (float64, float64) { return p[0], p[1] })
			return s
		}
		p := nelderMead(f, []float64{150, 80}, []float64{40, 20}, 1e-9, 2000)
		p = nelderMead(f, p, []float64{10, 5}, 1e-10, 2000)
		out = append(out, materialFit{m: m, n: n, a: p[0], b: p[1]})
	}
	return out
}

// polyFit returns the cubic (coefficients low to high) of least weighted
// squared error through the points (x[i], y[i]) with weights w[i].
func polyFit(x, y, w []float64) [4]float64 {
	// Normal equations: (V^T W V) c = V^T W y.
	var m [4][5]float64
	for i := range x {
		var pw [4]float64
		pw[0] = 1
		for k := 1; k < 4; k++ {
			pw[k] = pw[k-1] * x[i]
		}
		for r := range 4 {
			for c := range 4 {
				m[r][c] += w[i] * pw[r] * pw[c]
			}
			m[r][4] += w[i] * pw[r] * y[i]
		}
	}
	return solve4(m)
}

// solve4 solves a 4x4 linear system given as an augmented matrix, by
// Gaussian elimination with partial pivoting.
func solve4(m [4][5]float64) [4]float64 {
	for col := range 4 {
		piv := col
		for r := col + 1; r < 4; r++ {
			if math.Abs(m[r][col]) > math.Abs(m[piv][col]) {
				piv = r
			}
		}
		m[col], m[piv] = m[piv], m[col]
		for r := range 4 {
			if r == col || m[col][col] == 0 {
				continue
			}
			f := m[r][col] / m[col][col]
			for c := col; c < 5; c++ {
				m[r][c] -= f * m[col][c]
			}
		}
	}
	var out [4]float64
	for r := range 4 {
		out[r] = m[r][4] / m[r][r]
	}
	return out
}

// nodes are the material counts at which the joint fit moves the
// polynomials: their values there are the fit's variables, which are far
// better conditioned than the coefficients.
var nodes = [4]int{eval.WDLMaterialMin, 37, 57, eval.WDLMaterialMax}

// throughNodes returns the cubic through (nodes[i], v[i]).
func throughNodes(v []float64) [4]float64 {
	var m [4][5]float64
	for r, nm := range nodes {
		x := matX(nm)
		m[r] = [5]float64{1, x, x * x, x * x * x, v[r]}
	}
	return solve4(m)
}

// fitJoint fits the eight parameters of the model together by maximum
// likelihood over all cells, starting from start.
func fitJoint(cells []cell, start model) model {
	toModel := func(p []float64) model {
		return model{a: throughNodes(p[:4]), b: throughNodes(p[4:])}
	}
	f := func(p []float64) float64 {
		md := toModel(p)
		s, _ := nll(cells, md.params)
		return s
	}
	p := make([]float64, 8)
	step := make([]float64, 8)
	for i, nm := range nodes {
		p[i], p[4+i] = start.params(nm)
		step[i], step[4+i] = 0.1*p[i], 0.1*p[4+i]
	}
	// Restarts from the best point with a fresh simplex until it stops
	// improving: Nelder-Mead can stall on a collapsed simplex.
	best := f(p)
	for range 8 {
		p = nelderMead(f, p, step, 1e-12, 4000)
		v := f(p)
		if v > best-1e-6*math.Abs(best) {
			best = min(best, v)
			break
		}
		best = v
		for i := range step {
			step[i] = 0.02 * p[i]
		}
	}
	return toModel(p)
}

// nelderMead minimises f from x0 with an initial simplex of steps along
// each axis, until the values at the simplex's points differ by less than
// tol (relative) or after maxIter iterations.
func nelderMead(f func([]float64) float64, x0, step []float64, tol float64, maxIter int) []float64 {
	n := len(x0)
	pts := make([][]float64, n+1)
	vals := make([]float64, n+1)
	for i := range pts {
		pts[i] = slices.Clone(x0)
		if i > 0 {
			pts[i][i-1] += step[i-1]
		}
		vals[i] = f(pts[i])
	}
	order := make([]int, n+1)
	centroid := make([]float64, n)
	along := func(t float64, worst []float64) []float64 {
		p := make([]float64, n)
		for j := range p {
			p[j] = centroid[j] + t*(worst[j]-centroid[j])
		}
		return p
	}
	for range maxIter {
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(i, j int) int {
			switch {
			case vals[i] < vals[j]:
				return -1
			case vals[i] > vals[j]:
				return 1
			}
			return 0
		})
		lo, hi, second := order[0], order[n], order[n-1]
		if math.Abs(vals[hi]-vals[lo]) <= tol*(math.Abs(vals[lo])+1e-30) {
			break
		}
		for j := range centroid {
			centroid[j] = 0
			for _, i := range order[:n] {
				centroid[j] += pts[i][j] / float64(n)
			}
		}
		refl := along(-1, pts[hi])
		fr := f(refl)
		switch {
		case fr < vals[lo]:
			exp := along(-2, pts[hi])
			if fe := f(exp); fe < fr {
				pts[hi], vals[hi] = exp, fe
			} else {
				pts[hi], vals[hi] = refl, fr
			}
		case fr < vals[second]:
			pts[hi], vals[hi] = refl, fr
		default:
			t := 0.5 // inside contraction
			if fr < vals[hi] {
				t = -0.5 // outside
			}
			con := along(t, pts[hi])
			if fc := f(con); fc < min(fr, vals[hi]) {
				pts[hi], vals[hi] = con, fc
				continue
			}
			for _, i := range order[1:] { // shrink towards the best
				for j := range pts[i] {
					pts[i][j] = pts[lo][j] + 0.5*(pts[i][j]-pts[lo][j])
				}
				vals[i] = f(pts[i])
			}
		}
	}
	best := 0
	for i := range vals {
		if vals[i] < vals[best] {
			best = i
		}
	}
	return pts[best]
}
