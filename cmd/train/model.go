package main

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sync"

	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
)

// Quantisation of the shipped integer net (see eval/nnue).
const (
	qa       = 255
	qb       = 256
	netScale = 400        // centipawns per unit of the float output
	wClip    = 1.98       // first-layer weights and biases stay in [-wClip, wClip]: 1.98*QA*32 < 32767
	w2Clip   = 127.0 / qb // output weights stay in [-w2Clip, w2Clip]: the SIMD path needs |QB*w| <= 127
)

// model is the float network: the same shape as nnue.Net.
type model struct {
	h       int
	act     nnue.Activation
	buckets int         // output buckets (nnue.BucketOf by piece count)
	layout  nnue.Layout // how the inputs see the board (sideFeatures)
	// kingBucket is the king buckets of the KingBuckets layout
	// (nnue.Net.KingBucket), zero in the others.
	kingBucket [nnue.KingSquares]uint8
	// factor: w1 holds, after the king buckets' rows, one more set of
	// nnue.Inputs rows that every bucket shares (--factorise): each input
	// reads its bucket's row plus the shared one, so that what all buckets
	// have in common is learnt from every position. quantise folds the
	// shared rows into each bucket's.
	factor bool
	w1     []float32 // rows() x h, input-major
	b1     []float32 // h
	w2     []float32 // buckets x 2h: side to move's half, then the other side's
	b2     []float32 // buckets
}

func newModel(h int, act nnue.Activation, buckets int, rng *rand.Rand) *model {
	m := &model{h: h, act: act, buckets: buckets, w1: make([]float32, nnue.Inputs*h), b1: make([]float32, h),
		w2: make([]float32, buckets*2*h), b2: make([]float32, buckets)}
	for i := range m.w1 {
		m.w1[i] = float32(rng.NormFloat64() * 0.05)
	}
	for i := range m.b1 {
		m.b1[i] = 0.1
	}
	s := 1 / math.Sqrt(float64(2*h))
	for i := range m.w2 {
		m.w2[i] = float32((rng.Float64()*2 - 1) * s)
	}
	return m
}

// inputRows is the number of first-layer rows: nnue.Inputs per king
// bucket.
func (m *model) inputRows() int { return m.net().InputRows() }

// rows is the number of first-layer rows of the float model: inputRows,
// and with factor the shared rows after them.
func (m *model) rows() int {
	if m.factor {
		return m.inputRows() + nnue.Inputs
	}
	return m.inputRows()
}

// setFactor gives m the shared rows of --factorise (starting at zero, so
// that m computes what it did) or, with on false, folds them into each
// king bucket's rows. Only a KingBuckets model can have them.
func (m *model) setFactor(on bool) error {
	switch {
	case on == m.factor:
		return nil
	case on && m.layout != nnue.KingBuckets:
		return fmt.Errorf("--factorise needs the kingbuckets layout, the net is %s", m.layout)
	case on:
		m.w1 = append(m.w1, make([]float32, nnue.Inputs*m.h)...)
	default:
		m.w1, _ = m.foldedW1()
	}
	m.factor = on
	return nil
}

// foldedW1 returns the first layer of the net m stands for: each king
// bucket's row plus the shared one (factor), held to the clip (Adam holds
// each part to it, so their sum may pass it), and how many weights the
// clip held.
func (m *model) foldedW1() ([]float32, int) {
	n := m.inputRows() * m.h
	if !m.factor {
		return slices.Clone(m.w1[:n]), 0
	}
	w := make([]float32, n)
	shared := m.w1[n:]
	one := nnue.Inputs * m.h
	clipped := 0
	for i := range w {
		x := m.w1[i] + shared[i%one]
		if x < -wClip || x > wClip {
			clipped++
		}
		w[i] = min(max(x, -wClip), wClip)
	}
	return w, clipped
}

// net returns an empty nnue.Net of m's layout, for its layout's methods.
func (m *model) net() *nnue.Net { return &nnue.Net{Layout: m.layout, KingBucket: m.kingBucket} }

// setLayout gives m the layout l with the king buckets kb (KingBuckets
// only): the first layer gets each king bucket's rows, every bucket
// starting as a copy of the first nnue.Inputs rows, so that a net of
// another layout starts as it was. A KingBuckets net keeps its rows when
// its buckets stay; another change of buckets is refused.
func (m *model) setLayout(l nnue.Layout, kb [nnue.KingSquares]uint8) error {
	if m.factor {
		return fmt.Errorf("the layout of a model with shared rows: fold them first (setFactor(false))")
	}
	if l != nnue.KingBuckets {
		kb = [nnue.KingSquares]uint8{}
	}
	if m.layout == nnue.KingBuckets && (l != nnue.KingBuckets || kb != m.kingBucket) {
		return fmt.Errorf("a %s net's king buckets %v cannot become %s %v", m.layout, m.kingBucket, l, kb)
	}
	m.layout, m.kingBucket = l, kb
	rows := m.inputRows()
	if len(m.w1) == rows*m.h {
		return nil
	}
	w1 := make([]float32, rows*m.h)
	one := nnue.Inputs * m.h
	for o := 0; o < len(w1); o += one {
		copy(w1[o:o+one], m.w1[:one])
	}
	m.w1 = w1
	return nil
}

// activate returns the activation and its derivative at x.
func (m *model) activate(x float32) (float32, float32) {
	if x <= 0 {
		return 0, 0
	}
	if x >= 1 {
		return 1, 0
	}
	if m.act == nnue.SCReLU {
		return x * x, 2 * x
	}
	return x, 1
}

// sample is one training position in the side to move's view.
type sample struct {
	us, them []int // feature indices from the side to move's and the other side's perspective
	target   float32
}

// scratch is one thread's working memory and gradient.
type scratch struct {
	accU, accT, hU, hT, dU, dT []float32
	bucket                     int // the output bucket of the last forward
	g                          *grads
	us, them                   []int
}

type grads struct {
	w1, b1, w2, b2 []float32
	touched        []bool // rows of w1 with a gradient
	loss           float64
}

func (m *model) newGrads() *grads {
	return &grads{w1: make([]float32, len(m.w1)), b1: make([]float32, m.h), w2: make([]float32, len(m.w2)),
		b2: make([]float32, m.buckets), touched: make([]bool, m.rows())}
}

func (m *model) newScratch() *scratch {
	h := m.h
	return &scratch{accU: make([]float32, h), accT: make([]float32, h), hU: make([]float32, h), hT: make([]float32, h),
		dU: make([]float32, h), dT: make([]float32, h), g: m.newGrads()}
}

// forward returns the float output (in units of netScale centipawns) for
// the features (of m.features), leaving accumulators, activations and the
// output bucket (by the number of pieces: len(us), half that with factor)
// in s.
func (m *model) forward(s *scratch, us, them []int) float32 {
	h := m.h
	pieces := len(us)
	if m.factor {
		pieces /= 2
	}
	s.bucket = nnue.BucketOf(pieces, m.buckets)
	w2 := m.w2[s.bucket*2*h : (s.bucket+1)*2*h]
	copy(s.accU, m.b1)
	copy(s.accT, m.b1)
	for _, f := range us {
		addF32(s.accU, m.w1[f*h:f*h+h])
	}
	for _, f := range them {
		addF32(s.accT, m.w1[f*h:f*h+h])
	}
	out := m.b2[s.bucket]
	wu, wt := w2[:h], w2[h:]
	if simdAdds {
		return out + activateDotSIMD(m.act == nnue.SCReLU, s.accU, s.accT, s.hU, s.hT, wu, wt)
	}
	for i := range h {
		a, _ := m.activate(s.accU[i])
		b, _ := m.activate(s.accT[i])
		s.hU[i], s.hT[i] = a, b
		out += a*wu[i] + b*wt[i]
	}
	return out
}

// backward adds the gradient of the output times gOut to s.g.
func (m *model) backward(s *scratch, us, them []int, gOut float32) {
	h := m.h
	g := s.g
	b := s.bucket
	g.b2[b] += gOut
	wu, wt := m.w2[b*2*h:b*2*h+h], m.w2[b*2*h+h:(b+1)*2*h]
	gu, gt := g.w2[b*2*h:b*2*h+h], g.w2[b*2*h+h:(b+1)*2*h]
	if simdAdds {
		backwardSIMD(m.act == nnue.SCReLU, gOut, s.accU, s.accT, s.hU, s.hT, wu, wt, gu, gt, s.dU, s.dT, g.b1)
	}
	for i := 0; i < h && !simdAdds; i++ {
		gu[i] += gOut * s.hU[i]
		gt[i] += gOut * s.hT[i]
		_, du := m.activate(s.accU[i])
		_, dt := m.activate(s.accT[i])
		s.dU[i] = gOut * wu[i] * du
		s.dT[i] = gOut * wt[i] * dt
		g.b1[i] += s.dU[i] + s.dT[i]
	}
	for _, f := range us {
		addF32(g.w1[f*h:f*h+h], s.dU)
		g.touched[f] = true
	}
	for _, f := range them {
		addF32(g.w1[f*h:f*h+h], s.dT)
		g.touched[f] = true
	}
}

// addF32 adds src to dst element by element (the first layer's rows: the
// trainer's main cost), with vector adds where the build has them.
func addF32(dst, src []float32) {
	if simdAdds {
		addF32SIMD(dst, src)
		return
	}
	src = src[:len(dst)]
	for i := range dst {
		dst[i] += src[i]
	}
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// lossConfig maps a sample's labels to the target and the net's output to a
// prediction: target = (1-wdl)*sigmoid(score/scale) + wdl*result,
// prediction = sigmoid(output*netScale/scale), loss = (prediction-target)^2.
type lossConfig struct {
	scale, wdl float64
}

func (c lossConfig) target(score int16, result float32) float32 {
	return float32((1-c.wdl)*sigmoid(float64(score)/c.scale) + c.wdl*float64(result))
}

// sideFeatures fills us and them with the side-to-move and other-side
// feature indices of sample i in the inputs of the layout of n (only its
// Layout and KingBucket are read: those of nnue.Net.Feature); with flip, of
// its mirror image across the d/e file line (the net does not see castling
// rights, so the labels hold).
func (d *dataset) sideFeatures(i int, n *nnue.Net, us, them []int) ([]int, []int) {
	return d.sideFeaturesFlip(i, false, n, us, them)
}

// features is sideFeaturesFlip in m's layout (view is m.net()), and with
// factor each input's shared row after them: the rows forward and backward
// read.
func (m *model) features(d *dataset, i int, flip bool, view *nnue.Net, us, them []int) ([]int, []int) {
	us, them = d.sideFeaturesFlip(i, flip, view, us, them)
	if m.factor {
		shared := m.inputRows()
		for j := range len(us) {
			us = append(us, shared+us[j]%nnue.Inputs)
			them = append(them, shared+them[j]%nnue.Inputs)
		}
	}
	return us, them
}

func (d *dataset) sideFeaturesFlip(i int, flip bool, n *nnue.Net, us, them []int) ([]int, []int) {
	us, them = us[:0], them[:0]
	x := movegen.Square(0)
	if flip {
		x = 7
	}
	r := d.rec(i)
	var kings [2]movegen.Square
	k := 0
	for occ := movegen.Bitboard(r.occ); occ != 0; k++ {
		pc := movegen.Piece(r.pieces[k>>1] >> (4 * (k & 1)) & 15)
		sq := occ.PopLSB() ^ x
		if pc.Type() == movegen.King {
			kings[pc.Color()] = sq
		}
		w := nnue.FeatureIndex(movegen.White, pc, sq)
		b := nnue.MirrorFeature(w)
		if r.stm == movegen.White {
			us, them = append(us, w), append(them, b)
		} else {
			us, them = append(us, b), append(them, w)
		}
	}
	if n.Layout != nnue.Plain { // each side's squares mirrored by its own king's half
		xu, xt := int(nnue.KingMirror(kings[r.stm])), int(nnue.KingMirror(kings[r.stm^1]))
		var bu, bt int // and read in its king's bucket
		if n.Layout == nnue.KingBuckets {
			bu = int(n.KingBucket[nnue.KingSquare(r.stm, kings[r.stm])]) * nnue.Inputs
			bt = int(n.KingBucket[nnue.KingSquare(r.stm^1, kings[r.stm^1])]) * nnue.Inputs
		}
		for j := range us {
			us[j] = bu + (us[j] ^ xu)
			them[j] = bt + (them[j] ^ xt)
		}
	}
	return us, them
}

// step runs forward and backward over samples idx of d on every scratch
// (one goroutine each) and returns the summed loss. Gradients are summed,
// not averaged. An index i >= d.len() is the file-mirrored copy of sample
// i - d.len().
func (m *model) step(d *dataset, idx []uint32, lc lossConfig, work []*scratch) float64 {
	var wg sync.WaitGroup
	view := m.net()
	per := (len(idx) + len(work) - 1) / len(work)
	for t, s := range work {
		lo, hi := min(t*per, len(idx)), min((t+1)*per, len(idx))
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := float32(netScale / lc.scale)
			var loss float64
			for _, j := range idx[lo:hi] {
				i := int(j)
				flip := i >= d.len()
				if flip {
					i -= d.len()
				}
				s.us, s.them = m.features(d, i, flip, view, s.us, s.them)
				out := m.forward(s, s.us, s.them)
				p := float32(sigmoid(float64(out * k)))
				e := p - lc.target(d.score(i), d.result(i))
				loss += float64(e * e)
				m.backward(s, s.us, s.them, 2*e*p*(1-p)*k)
			}
			s.g.loss = loss
		}()
	}
	wg.Wait()
	var loss float64
	for _, s := range work {
		loss += s.g.loss
	}
	return loss
}

// evalLoss returns the mean loss of d under the model (no gradients).
func (m *model) evalLoss(d *dataset, lc lossConfig, work []*scratch) float64 {
	if d.len() == 0 {
		return math.NaN()
	}
	var wg sync.WaitGroup
	view := m.net()
	per := (d.len() + len(work) - 1) / len(work)
	sums := make([]float64, len(work))
	for t, s := range work {
		lo, hi := min(t*per, d.len()), min((t+1)*per, d.len())
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := float32(netScale / lc.scale)
			for i := lo; i < hi; i++ {
				s.us, s.them = m.features(d, i, false, view, s.us, s.them)
				p := float32(sigmoid(float64(m.forward(s, s.us, s.them) * k)))
				e := p - lc.target(d.score(i), d.result(i))
				sums[t] += float64(e * e)
			}
		}()
	}
	wg.Wait()
	var sum float64
	for _, x := range sums {
		sum += x
	}
	return sum / float64(d.len())
}

// adam holds the optimiser's moments for every parameter.
type adam struct {
	lr, beta1, beta2, eps float64
	t                     int
	m, v                  [4][]float32 // w1, b1, w2, b2
}

func newAdam(m *model, lr float64) *adam {
	a := &adam{lr: lr, beta1: 0.9, beta2: 0.999, eps: 1e-8}
	for i, n := range []int{len(m.w1), len(m.b1), len(m.w2), len(m.b2)} {
		a.m[i], a.v[i] = make([]float32, n), make([]float32, n)
	}
	return a
}

// update takes one Adam step for the parameters p with gradients g (which
// it clears). Its loop is scalar float code, one first-layer row (H
// parameters) a call: it clears the vector registers' upper halves first
// (simd_amd64.go), which the kernels it follows leave clean but an
// asynchronous preemption does not. Without it, an epoch of 570,000
// positions in the king-bucket layout (five times the rows a step touches)
// took 8 s instead of 3 on the 2-core Xeon.
func (a *adam) update(p, g, mom, vel []float32, scale float32, c1, c2 float64, clip float32) {
	b1, b2 := float32(a.beta1), float32(a.beta2)
	lr1, lr2 := float32(a.lr/c1), float32(1/c2)
	eps := float32(a.eps)
	cleanUpper()
	g = g[:len(p)]
	mom, vel = mom[:len(p)], vel[:len(p)]
	for i := range p {
		gi := g[i] * scale
		mom[i] = b1*mom[i] + (1-b1)*gi
		vel[i] = b2*vel[i] + (1-b2)*gi*gi
		x := p[i] - lr1*mom[i]/(float32(math.Sqrt(float64(vel[i]*lr2)))+eps)
		p[i] = min(max(x, -clip), clip)
		g[i] = 0
	}
}

// apply reduces the threads' gradients into the first one, averages over n
// samples and takes one Adam step. Only rows of w1 that some sample touched
// are updated and cleared (sparse first layer).
func (a *adam) apply(m *model, work []*scratch, n int) {
	a.t++
	c1 := 1 - math.Pow(a.beta1, float64(a.t))
	c2 := 1 - math.Pow(a.beta2, float64(a.t))
	g := work[0].g
	scale := float32(1 / float64(n))
	h := m.h
	for _, s := range work[1:] {
		o := s.g
		for f, t := range o.touched {
			if t {
				addF32(g.w1[f*h:f*h+h], o.w1[f*h:f*h+h])
				clear(o.w1[f*h : f*h+h])
				g.touched[f], o.touched[f] = true, false
			}
		}
		addF32(g.b1, o.b1)
		addF32(g.w2, o.w2)
		addF32(g.b2, o.b2)
		clear(o.b1)
		clear(o.w2)
		clear(o.b2)
	}
	for f, t := range g.touched {
		if t {
			a.update(m.w1[f*h:f*h+h], g.w1[f*h:f*h+h], a.m[0][f*h:f*h+h], a.v[0][f*h:f*h+h], scale, c1, c2, wClip)
			g.touched[f] = false
		}
	}
	a.update(m.b1, g.b1, a.m[1], a.v[1], scale, c1, c2, wClip)
	a.update(m.w2, g.w2, a.m[2], a.v[2], scale, c1, c2, w2Clip)
	a.update(m.b2, g.b2, a.m[3], a.v[3], scale, c1, c2, 1e9)
}

// scaleOutput multiplies the output layer (weights and biases) by k, so
// that every evaluation is k times as large, and returns how many weights
// the clip then held short of that.
func (m *model) scaleOutput(k float64) int {
	clipped := 0
	for i, w := range m.w2 {
		x := float64(w) * k
		if math.Abs(x) > w2Clip {
			x = math.Copysign(w2Clip, x)
			clipped++
		}
		m.w2[i] = float32(x)
	}
	for i, b := range m.b2 {
		m.b2[i] = float32(float64(b) * k)
	}
	return clipped
}

// clone returns a copy of m's weights.
func (m *model) clone() *model {
	return &model{h: m.h, act: m.act, buckets: m.buckets, layout: m.layout, kingBucket: m.kingBucket, factor: m.factor, w1: slices.Clone(m.w1), b1: slices.Clone(m.b1), w2: slices.Clone(m.w2), b2: slices.Clone(m.b2)}
}

// quantise returns the integer net of m (with factor, of its folded first
// layer).
func (m *model) quantise() *nnue.Net {
	w1, _ := m.foldedW1()
	n := &nnue.Net{H: m.h, Act: m.act, QA: qa, QB: qb, Scale: netScale, Layout: m.layout, KingBucket: m.kingBucket,
		FeatureW: make([]int16, len(w1)), FeatureB: make([]int16, m.h), OutputW: make([]int16, len(m.w2)), OutputB: make([]int32, m.buckets)}
	round := func(x float32, s float64) int16 { return int16(math.Round(float64(x) * s)) }
	for i, w := range w1 {
		n.FeatureW[i] = round(w, qa)
	}
	for i, w := range m.b1 {
		n.FeatureB[i] = round(w, qa)
	}
	for i, w := range m.w2 {
		n.OutputW[i] = round(w, qb)
	}
	for i, b := range m.b2 {
		n.OutputB[i] = int32(math.Round(float64(b) * qa * qb))
	}
	return n
}

// modelFromNet returns the float model whose quantisation is n: the
// inverse of quantise, for nets written with this trainer's QA, QB and scale.
func modelFromNet(n *nnue.Net) (*model, error) {
	if n.QA != qa || n.QB != qb || n.Scale != netScale {
		return nil, fmt.Errorf("quantised with QA=%d QB=%d scale %d, the trainer uses QA=%d QB=%d scale %d",
			n.QA, n.QB, n.Scale, qa, qb, netScale)
	}
	m := &model{h: n.H, act: n.Act, buckets: n.Buckets(), layout: n.Layout, kingBucket: n.KingBucket, w1: make([]float32, len(n.FeatureW)), b1: make([]float32, len(n.FeatureB)),
		w2: make([]float32, len(n.OutputW)), b2: make([]float32, len(n.OutputB))}
	for i, w := range n.FeatureW {
		m.w1[i] = float32(w) / qa
	}
	for i, w := range n.FeatureB {
		m.b1[i] = float32(w) / qa
	}
	for i, w := range n.OutputW {
		m.w2[i] = float32(w) / qb
	}
	for i, b := range n.OutputB {
		m.b2[i] = float32(float64(b) / (qa * qb))
	}
	return m, nil
}

// widen returns m with an accumulator of h columns (h > m.h): the first
// m.h columns are m's, the new ones start with random input weights, the
// initial bias and zero output weights, so the wider net computes exactly
// what m does and the new columns learn from there.
func (m *model) widen(h int, rng *rand.Rand) *model {
	w := newModel(h, m.act, m.buckets, rng)
	if err := w.setLayout(m.layout, m.kingBucket); err != nil {
		panic(err) // a fresh model takes any layout
	}
	if err := w.setFactor(m.factor); err != nil {
		panic(err) // m's layout has m's factor
	}
	for f := range m.rows() {
		copy(w.w1[f*h:f*h+m.h], m.w1[f*m.h:f*m.h+m.h])
	}
	copy(w.b1, m.b1)
	for b := range m.buckets {
		for side := range 2 {
			dst := w.w2[b*2*h+side*h : b*2*h+side*h+h]
			copy(dst, m.w2[b*2*m.h+side*m.h:b*2*m.h+side*m.h+m.h])
			clear(dst[m.h:])
		}
	}
	copy(w.b2, m.b2)
	return w
}

// checkpoint layout, little-endian: magic "KRC6", H, activation, Adam
// step, output buckets, the net's input layout (nnue.Layout), factor (1:
// the shared rows of --factorise after the king buckets' in w1; uint32
// each), in a KingBuckets net its 32 king buckets (uint8), the run's
// settings and data (runKey) and where it stands (progress), then float32
// w1, b1, w2, b2 and Adam's first and second moments in the same order.
// Earlier layouts: "KRC5" (no factor word), "KRC4" (a runKeyV4: the step
// schedule; no king buckets), and of Plain nets "KRC3" (no layout word),
// and with the weights and moments only, "KRC2" (no runKey and progress)
// and "KRCK" (neither a bucket word: one bucket).
const (
	ckMagic   uint32 = 'K' | 'R'<<8 | 'C'<<16 | '6'<<24
	ckMagicV5 uint32 = 'K' | 'R'<<8 | 'C'<<16 | '5'<<24
	ckMagicV4 uint32 = 'K' | 'R'<<8 | 'C'<<16 | '4'<<24
	ckMagicV3 uint32 = 'K' | 'R'<<8 | 'C'<<16 | '3'<<24
	ckMagicV2 uint32 = 'K' | 'R'<<8 | 'C'<<16 | '2'<<24
	ckMagicV1 uint32 = 'K' | 'R'<<8 | 'C'<<16 | 'K'<<24
)

// runKeyV4 is the run key of "KRC3" and "KRC4" checkpoints, written before
// the cosine schedule.
type runKeyV4 struct {
	Seed                  uint64
	Batch                 uint32
	Mirror                uint32 // 1: --mirror
	LR, Gamma, Scale, WDL float64
	Epochs, Patience      uint32
	Train, Valid          uint64 // positions
	TrainSum, ValidSum    uint64 // dataset.checksum
	Threads               uint32 // the float sums' order: another count continues, not bit for bit
}

// runKey is what a resumed run must share with the run that wrote the
// checkpoint: the settings that shape the training (its flags win over the
// defaults of a resumed run; --epochs and --patience may be given anew) and
// the data, by count and checksum.
type runKey struct {
	runKeyV4
	Cosine uint32  // 1: --lr-schedule cosine (0 in the earlier layouts: step)
	LREnd  float64 // --lr-end
}

// progress is where a run stands between two Adam steps.
type progress struct {
	Epoch     uint32  // epochs completed
	Done      uint64  // positions of the current epoch's order trained on
	LR        float64 // the learning rate of the current epoch
	TrainLoss float64 // the current epoch's summed loss so far
	BestLoss  float64 // the lowest validation loss after an epoch (+Inf: none yet)
	BestEpoch uint32  // its epoch (0: none)
}

// checkpoint is a checkpoint file's content.
type checkpoint struct {
	m     *model
	a     *adam
	key   *runKey   // nil in the earlier layouts
	state *progress // nil in the earlier layouts
}

// save writes m, a, key and st to path atomically: to a temporary file
// beside it, synced, then renamed over it.
func (m *model) save(path string, a *adam, key *runKey, st *progress) error {
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return err
	}
	factor := uint32(0)
	if m.factor {
		factor = 1
	}
	header := [7]uint32{ckMagic, uint32(m.h), uint32(m.act), uint32(a.t), uint32(m.buckets), uint32(m.layout), factor}
	parts := []any{header}
	if m.layout == nnue.KingBuckets {
		parts = append(parts, m.kingBucket)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	for _, p := range append(append(parts, key, st), checkpointArrays(m, a)...) {
		if err = binary.Write(bw, binary.LittleEndian, p); err != nil {
			break
		}
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path + ".tmp")
		return err
	}
	return os.Rename(path+".tmp", path)
}

// checkpointArrays returns the arrays a checkpoint holds after its header,
// in file order: the weights, then Adam's first and second moments.
func checkpointArrays(m *model, a *adam) []any {
	parts := []any{m.w1, m.b1, m.w2, m.b2}
	for i := range 4 {
		parts = append(parts, a.m[i])
	}
	for i := range 4 {
		parts = append(parts, a.v[i])
	}
	return parts
}

// loadCheckpoint reads a checkpoint of any layout; lr is the Adam rate of
// a layout that does not hold it.
func loadCheckpoint(path string, lr float64) (*checkpoint, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 1<<20)
	truncated := func(err error) error {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("%s: truncated checkpoint", path)
		}
		return fmt.Errorf("%s: %w", path, err)
	}
	var hdr [4]uint32
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
		return nil, truncated(err)
	}
	magic := hdr[0]
	buckets, layout, factor := uint32(1), uint32(nnue.Plain), uint32(0)
	if magic == ckMagic || magic == ckMagicV5 || magic == ckMagicV4 || magic == ckMagicV3 || magic == ckMagicV2 {
		if err := binary.Read(r, binary.LittleEndian, &buckets); err != nil {
			return nil, truncated(err)
		}
	}
	if magic == ckMagic || magic == ckMagicV5 || magic == ckMagicV4 {
		if err := binary.Read(r, binary.LittleEndian, &layout); err != nil {
			return nil, truncated(err)
		}
	}
	if magic == ckMagic {
		if err := binary.Read(r, binary.LittleEndian, &factor); err != nil {
			return nil, truncated(err)
		}
	}
	kbMagic := magic == ckMagic || magic == ckMagicV5 // the layouts that know king buckets
	if (!kbMagic && magic != ckMagicV4 && magic != ckMagicV3 && magic != ckMagicV2 && magic != ckMagicV1) || hdr[1] == 0 || hdr[1] > 4096 || hdr[2] > 1 ||
		buckets < 1 || buckets > nnue.MaxBuckets || layout > uint32(nnue.KingBuckets) || layout == uint32(nnue.KingBuckets) && !kbMagic ||
		factor > 1 || factor == 1 && layout != uint32(nnue.KingBuckets) {
		return nil, fmt.Errorf("%s: not a checkpoint", path)
	}
	var kb [nnue.KingSquares]uint8
	if layout == uint32(nnue.KingBuckets) {
		if err := binary.Read(r, binary.LittleEndian, &kb); err != nil {
			return nil, truncated(err)
		}
		if slices.Max(kb[:]) >= nnue.MaxKingBuckets {
			return nil, fmt.Errorf("%s: not a checkpoint", path)
		}
	}
	ck := &checkpoint{}
	if kbMagic || magic == ckMagicV4 || magic == ckMagicV3 {
		ck.key, ck.state = new(runKey), new(progress)
		var key any = ck.key
		if !kbMagic {
			key = &ck.key.runKeyV4 // the step schedule
		}
		if err := binary.Read(r, binary.LittleEndian, key); err != nil {
			return nil, truncated(err)
		}
		if err := binary.Read(r, binary.LittleEndian, ck.state); err != nil {
			return nil, truncated(err)
		}
		lr = ck.state.LR
	}
	m := &model{h: int(hdr[1]), act: nnue.Activation(hdr[2]), buckets: int(buckets), layout: nnue.Layout(layout), kingBucket: kb, factor: factor == 1}
	m.w1, m.b1 = make([]float32, m.rows()*m.h), make([]float32, m.h)
	m.w2, m.b2 = make([]float32, m.buckets*2*m.h), make([]float32, m.buckets)
	a := newAdam(m, lr)
	a.t = int(hdr[3])
	for _, p := range checkpointArrays(m, a) {
		if err := binary.Read(r, binary.LittleEndian, p); err != nil {
			return nil, truncated(err)
		}
	}
	ck.m, ck.a = m, a
	return ck, nil
}
