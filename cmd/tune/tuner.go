package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// sample is one training position in linear form: its score from white's
// view with weights w is Σ count·(mgF·w[2i] + egF·w[2i+1]) over its terms.
type sample struct {
	start, end int32   // its terms in dataset.terms
	mgF, egF   float32 // phase, scale and 50-move fade folded in
	result     float32 // 1 white won, 0.5 draw, 0 black won
}

// dataset holds all samples with their terms in one slice.
type dataset struct {
	terms   []eval.Feature
	samples []sample
}

// split moves every k-th block of blockSize consecutive samples into a
// validation set (consecutive positions mostly come from the same game, so
// whole blocks keep games apart). Both share the terms slice.
func (d *dataset) split(k, blockSize int) (train, valid *dataset) {
	train, valid = &dataset{terms: d.terms}, &dataset{terms: d.terms}
	for i, s := range d.samples {
		if k > 0 && (i/blockSize)%k == k-1 {
			valid.samples = append(valid.samples, s)
		} else {
			train.samples = append(train.samples, s)
		}
	}
	return train, valid
}

// loadStats counts what reading the data did with each line.
type loadStats struct {
	lines, used, drawn, inCheck, bad int
}

// add appends pos with its game result, unless it is a dead draw (its
// evaluation does not depend on the weights).
func (d *dataset) add(ev *eval.Evaluator, pos *movegen.Position, result float64, buf []eval.Feature) ([]eval.Feature, bool) {
	f := ev.Features(pos, buf)
	if f.Drawn {
		return f.Terms, false
	}
	fade := float64(eval.FadeBase-f.Rule50) / eval.FadeBase
	mgF := fade * float64(f.Phase) / eval.PhaseMax
	egF := fade * float64(eval.PhaseMax-f.Phase) / eval.PhaseMax * float64(f.Scale) / eval.ScaleNormal
	start := int32(len(d.terms))
	d.terms = append(d.terms, f.Terms...)
	d.samples = append(d.samples, sample{start: start, end: int32(len(d.terms)),
		mgF: float32(mgF), egF: float32(egF), result: float32(result)})
	return f.Terms, true
}

// load reads "FEN result" lines (see parseLine). Blank lines and lines
// starting with '#' are ignored; malformed ones are counted as bad. limit
// > 0 stops after that many usable positions.
func load(r io.Reader, ev *eval.Evaluator, keepCheck bool, limit int) (*dataset, loadStats, error) {
	d := &dataset{}
	var st loadStats
	var pos movegen.Position
	var buf []eval.Feature
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		st.lines++
		fen, res, err := parseLine(line)
		if err == nil {
			err = pos.SetFEN(fen)
		}
		if err != nil {
			st.bad++
			continue
		}
		if pos.InCheck() && !keepCheck {
			st.inCheck++
			continue
		}
		var ok bool
		if buf, ok = d.add(ev, &pos, res, buf); !ok {
			st.drawn++
			continue
		}
		st.used++
		if limit > 0 && st.used >= limit {
			break
		}
	}
	return d, st, sc.Err()
}

// parseLine splits a data line into FEN and result. The result may follow
// the FEN bare or in brackets or quotes, as 1-0 / 1/2-1/2 / 0-1 or as a
// number 1.0 / 0.5 / 0.0 (white's score): "FEN [1.0]", "FEN 0-1",
// `FEN c9 "1/2-1/2";`.
func parseLine(line string) (fen string, result float64, err error) {
	var tok string
	rest := line
	switch {
	case strings.ContainsRune(line, '['):
		i := strings.IndexByte(line, '[')
		j := strings.IndexByte(line[i:], ']')
		if j < 0 {
			return "", 0, fmt.Errorf("unclosed bracket in %q", line)
		}
		tok, rest = line[i+1:i+j], line[:i]
	case strings.ContainsRune(line, '"'):
		i := strings.IndexByte(line, '"')
		j := strings.IndexByte(line[i+1:], '"')
		if j < 0 {
			return "", 0, fmt.Errorf("unclosed quote in %q", line)
		}
		tok, rest = line[i+1:i+1+j], line[:i]
	default:
		f := strings.Fields(line)
		if len(f) < 5 {
			return "", 0, fmt.Errorf("no result in %q", line)
		}
		tok = f[len(f)-1]
		rest = strings.Join(f[:len(f)-1], " ")
	}
	switch strings.TrimSpace(tok) {
	case "1-0", "1.0":
		result = 1
	case "0-1", "0.0":
		result = 0
	case "1/2-1/2", "0.5", "1/2":
		result = 0.5
	default:
		return "", 0, fmt.Errorf("unknown result %q", tok)
	}
	f := strings.Fields(strings.TrimRight(strings.TrimSpace(rest), ";"))
	if len(f) < 4 {
		return "", 0, fmt.Errorf("short FEN in %q", line)
	}
	n := 4
	for n < len(f) && n < 6 {
		if _, err := strconv.Atoi(f[n]); err != nil {
			break
		}
		n++
	}
	return strings.Join(f[:n], " "), result, nil
}

// sigmoid maps a score in centipawns to an expected result, Texel style.
func sigmoid(k, cp float64) float64 { return 1 / (1 + math.Pow(10, -k*cp/400)) }

// tuner fits weights to a dataset.
type tuner struct {
	d       *dataset
	w       []float64 // 2 per term: mg, eg
	w0      []float64 // the starting weights, for regularization
	frozen  []bool
	threads int
	l2      float64 // loss += l2 · Σ (w - w0)²
}

func newTuner(d *dataset, p *eval.Params, threads int) *tuner {
	t := &tuner{d: d, w: make([]float64, 2*eval.NumTerms), frozen: make([]bool, 2*eval.NumTerms), threads: max(threads, 1)}
	for i, pr := range p {
		t.w[2*i], t.w[2*i+1] = float64(pr.MG), float64(pr.EG)
	}
	t.w0 = append([]float64(nil), t.w...)
	return t
}

// freeze keeps the named term groups at their starting values.
func (t *tuner) freeze(names []string) error {
	groups := eval.TermGroups()
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		found := false
		for _, g := range groups {
			if strings.EqualFold(g.Name, name) {
				for i := 2 * g.Start; i < 2*(g.Start+g.Len); i++ {
					t.frozen[i] = true
				}
				found = true
			}
		}
		if !found {
			return fmt.Errorf("unknown term group %q", name)
		}
	}
	return nil
}

// params rounds the current weights.
func (t *tuner) params() eval.Params {
	var p eval.Params
	for i, v := range p.Vector() {
		*v = int(math.Round(t.w[i]))
	}
	return p
}

func (t *tuner) score(s *sample) float64 {
	var v float64
	mgF, egF := float64(s.mgF), float64(s.egF)
	for _, f := range t.d.terms[s.start:s.end] {
		i := 2 * int(f.Index)
		v += float64(f.Count) * (mgF*t.w[i] + egF*t.w[i+1])
	}
	return v
}

// pass computes the mean squared error at scaling k and, when grad is not
// nil, adds its gradient with respect to the weights to grad.
func (t *tuner) pass(k float64, grad []float64) float64 {
	n := len(t.d.samples)
	if n == 0 {
		return 0
	}
	chunk := (n + t.threads - 1) / t.threads
	losses := make([]float64, t.threads)
	grads := make([][]float64, t.threads)
	var wg sync.WaitGroup
	for w := 0; w < t.threads; w++ {
		lo, hi := w*chunk, min((w+1)*chunk, n)
		if lo >= hi {
			continue
		}
		if grad != nil {
			grads[w] = make([]float64, len(t.w))
		}
		wg.Add(1)
		go func(w, lo, hi int) {
			defer wg.Done()
			g := grads[w]
			var sum float64
			for i := lo; i < hi; i++ {
				s := &t.d.samples[i]
				p := sigmoid(k, t.score(s))
				diff := float64(s.result) - p
				sum += diff * diff
				if g == nil {
					continue
				}
				// d(diff²)/dscore = -2·diff·p·(1-p)·ln10·k/400
				d := -2 * diff * p * (1 - p) * math.Ln10 * k / 400
				dm, de := d*float64(s.mgF), d*float64(s.egF)
				for _, f := range t.d.terms[s.start:s.end] {
					j := 2 * int(f.Index)
					g[j] += float64(f.Count) * dm
					g[j+1] += float64(f.Count) * de
				}
			}
			losses[w] = sum
		}(w, lo, hi)
	}
	wg.Wait()
	var loss float64
	for w := range losses {
		loss += losses[w]
		if grad != nil && grads[w] != nil {
			for i, v := range grads[w] {
				grad[i] += v / float64(n)
			}
		}
	}
	return loss / float64(n)
}

// fitK finds the sigmoid scaling that best fits the current weights, by
// golden-section search.
func (t *tuner) fitK() float64 {
	lo, hi := 0.05, 5.0
	phi := (math.Sqrt(5) - 1) / 2
	a, b := hi-phi*(hi-lo), lo+phi*(hi-lo)
	fa, fb := t.pass(a, nil), t.pass(b, nil)
	for i := 0; i < 50; i++ {
		if fa < fb {
			hi, b, fb = b, a, fa
			a = hi - phi*(hi-lo)
			fa = t.pass(a, nil)
		} else {
			lo, a, fa = a, b, fb
			b = lo + phi*(hi-lo)
			fb = t.pass(b, nil)
		}
	}
	return (lo + hi) / 2
}

// adam runs full-batch Adam for epochs steps of learning rate lr (in
// centipawns), calling report every reportEvery epochs with the loss.
func (t *tuner) adam(k float64, epochs int, lr float64, reportEvery int, report func(epoch int, loss float64)) float64 {
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	m := make([]float64, len(t.w))
	v := make([]float64, len(t.w))
	grad := make([]float64, len(t.w))
	loss := 0.0
	for e := 1; e <= epochs; e++ {
		clear(grad)
		loss = t.pass(k, grad)
		if t.l2 > 0 {
			for i, w := range t.w {
				grad[i] += 2 * t.l2 * (w - t.w0[i])
			}
		}
		if report != nil && reportEvery > 0 && (e == 1 || e%reportEvery == 0) {
			report(e, loss)
		}
		c1 := 1 - math.Pow(beta1, float64(e))
		c2 := 1 - math.Pow(beta2, float64(e))
		for i, g := range grad {
			if t.frozen[i] || g == 0 {
				continue
			}
			m[i] = beta1*m[i] + (1-beta1)*g
			v[i] = beta2*v[i] + (1-beta2)*g*g
			t.w[i] -= lr * (m[i] / c1) / (math.Sqrt(v[i]/c2) + eps)
		}
	}
	return t.pass(k, nil)
}
