// Command wdlfit fits Kingrook's win/draw/loss model (eval/wdl.go) to
// self-play games: how often the side with a given search score and
// material goes on to win, draw or lose.
//
//	wdlfit [flags] GAMES.bin[.gz]...
//
// It reads cmd/datagen's binary games (plain or gzip-compressed), takes
// every position that has a search score (White's view), not a mate score
// and within --max-score, with its material count (eval.Material, clamped
// to the model's range) and the game's result, and fits by maximum
// likelihood
//
//	win  = 1 / (1 + exp((a(m) - s) / b(m))),  loss = win at -s,  draw = the rest
//
// with a and b cubic polynomials of m / eval.WDLMaterialRef: first a and b
// for each material count alone, then cubics through those (weighted least
// squares), then all eight coefficients together. Every --holdout-th game
// is kept out of the fit; the report gives the mean log-loss per position
// on both sets for the fitted model, the free per-material fit, the model
// before it (one logistic for all material, a=250, b=70) and the bare
// result frequencies, and a calibration table on the held-out games. The
// last lines are the constants for eval/wdl.go.
//
//	go run ./cmd/wdlfit ../shared/data/selfplay/kingrook5-3001.bin.gz
package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/kingrook/kingrook/cmd/internal/selfplay"
	"github.com/kingrook/kingrook/eval"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// The model before the fit (one logistic for all material), for comparison.
const (
	oldMidpoint = 250.0
	oldSpread   = 70.0
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// config holds the flags.
type config struct {
	maxScore int
	minPly   int
	holdout  int
	minN     int
	files    []string
}

// counts are the positions read, by fate.
type counts struct {
	games, heldGames        int
	used, held              int
	noScore, mate, tooLarge int
	early                   int
}

func run(args []string, stdout, stderr io.Writer) int {
	var c config
	fs := pflag.NewFlagSet("wdlfit", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&c.maxScore, "max-score", 2000, "skip positions whose |score| exceeds this (centipawns, search units)")
	fs.IntVar(&c.minPly, "min-ply", 0, "skip the first plies of each game (counted from its stored start)")
	fs.IntVar(&c.holdout, "holdout", 10, "keep every N-th game out of the fit, to measure it on (0: none)")
	fs.IntVar(&c.minN, "min-positions", 2000, "least positions of a material count for its own fit")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: wdlfit [flags] GAMES.bin[.gz]...\n\nFits eval/wdl.go's win/draw/loss model to self-play games.\n\nFlags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "wdlfit: %v\n", err)
		return exitUsage
	}
	c.files = fs.Args()
	switch {
	case len(c.files) == 0:
		fmt.Fprintln(stderr, "wdlfit: give one or more game files")
		return exitUsage
	case c.maxScore < 1:
		fmt.Fprintln(stderr, "wdlfit: --max-score must be at least 1")
		return exitUsage
	case c.minPly < 0 || c.holdout < 0 || c.holdout == 1 || c.minN < 1:
		fmt.Fprintln(stderr, "wdlfit: --min-ply must be at least 0, --holdout 0 or at least 2, --min-positions at least 1")
		return exitUsage
	}
	start := time.Now()
	train, held, cnt, err := collect(c)
	if err != nil {
		fmt.Fprintf(stderr, "wdlfit: %v\n", err)
		return exitFailure
	}
	if len(train) == 0 {
		fmt.Fprintln(stderr, "wdlfit: no positions to fit")
		return exitFailure
	}
	fmt.Fprintf(stdout, "games %d (%d held out); positions %d fitted, %d held out; skipped: %d without a score, %d mate scores, %d beyond %d cp, %d before ply %d (read in %s)\n",
		cnt.games, cnt.heldGames, cnt.used, cnt.held, cnt.noScore, cnt.mate, cnt.tooLarge, c.maxScore, cnt.early, c.minPly,
		time.Since(start).Round(time.Millisecond))
	res := fit(train, float64(c.minN))
	report(stdout, res, train, held)
	return exitOK
}

// collect reads the games of c.files into cells (sorted by material, then
// score), the fitted and the held-out games apart.
func collect(c config) (train, held []cell, cnt counts, err error) {
	type key struct{ m, s int }
	sets := [2]map[key]*[3]float64{{}, {}}
	var g selfplay.Game
	for _, name := range c.files {
		err := eachGame(name, &g, func(g *selfplay.Game) {
			set := 0
			if c.holdout > 0 && cnt.games%c.holdout == c.holdout-1 {
				set = 1
				cnt.heldGames++
			}
			cnt.games++
			res := 2 - int(g.Result) // index into n: 0 White won, 1 draw, 2 Black won
			pos := g.Start.Clone()
			for i, p := range g.Plies {
				s := int(p.Score)
				switch {
				case s == selfplay.NoScore:
					cnt.noScore++
				case selfplay.IsMate(s):
					cnt.mate++
				case s > c.maxScore || s < -c.maxScore:
					cnt.tooLarge++
				case i < c.minPly:
					cnt.early++
				default:
					k := key{max(eval.WDLMaterialMin, min(eval.WDLMaterialMax, eval.Material(pos))), s}
					n := sets[set][k]
					if n == nil {
						n = new([3]float64)
						sets[set][k] = n
					}
					n[res]++
					if set == 0 {
						cnt.used++
					} else {
						cnt.held++
					}
				}
				pos.Make(p.Move)
			}
		})
		if err != nil {
			return nil, nil, cnt, fmt.Errorf("%s: %w", name, err)
		}
	}
	out := [2][]cell{}
	for i, set := range sets {
		for k, n := range set {
			out[i] = append(out[i], cell{m: k.m, s: k.s, n: *n})
		}
		sortCells(out[i])
	}
	return out[0], out[1], cnt, nil
}

// eachGame calls f with every complete game of a binary game file (plain or
// gzip-compressed).
func eachGame(name string, g *selfplay.Game, f func(*selfplay.Game)) error {
	file, err := os.Open(name)
	if err != nil {
		return err
	}
	defer file.Close()
	br := bufio.NewReader(file)
	var r io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		z, err := gzip.NewReader(br)
		if err != nil {
			return err
		}
		defer z.Close()
		r = z
	}
	sr := selfplay.NewReader(r)
	for {
		err := sr.ReadGame(g)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		f(g)
	}
}

// result is the outcome of the fit.
type result struct {
	perMaterial []materialFit
	initial     model // cubics through the per-material fits
	joint       model // the final model
}

// fit fits the per-material parameters, the cubics through them and then
// the joint model.
func fit(cells []cell, minN float64) result {
	var r result
	r.perMaterial = fitMaterials(cells, minN)
	if len(r.perMaterial) >= 4 {
		var x, ya, yb, w []float64
		for _, f := range r.perMaterial {
			x = append(x, matX(f.m))
			ya = append(ya, f.a)
			yb = append(yb, f.b)
			w = append(w, f.n)
		}
		r.initial = model{a: polyFit(x, ya, w), b: polyFit(x, yb, w)}
	} else {
		// Too few material counts for cubics: start from constants.
		r.initial = model{a: [4]float64{oldMidpoint}, b: [4]float64{oldSpread}}
	}
	r.joint = fitJoint(cells, r.initial)
	return r
}

// report prints the fit: per-material parameters, log-losses, calibration
// and the constants.
func report(w io.Writer, r result, train, held []cell) {
	fmt.Fprintln(w, "\nper material count: positions, free fit a b, model a b")
	for _, f := range r.perMaterial {
		a, b := r.joint.params(f.m)
		fmt.Fprintf(w, "  m=%2d  %8.0f  %6.1f %5.1f   %6.1f %5.1f\n", f.m, f.n, f.a, f.b, a, b)
	}
	free := map[int][2]float64{}
	for _, f := range r.perMaterial {
		free[f.m] = [2]float64{f.a, f.b}
	}
	freeAB := func(m int) (float64, float64) {
		if p, ok := free[m]; ok {
			return p[0], p[1]
		}
		return r.joint.params(m)
	}
	old := func(int) (float64, float64) { return oldMidpoint, oldSpread }
	freqW, freqD, freqL := frequencies(train)
	freq := func(c []cell) float64 {
		s, n := 0.0, 0.0
		for _, x := range c {
			s -= x.n[0]*math.Log(freqW) + x.n[1]*math.Log(freqD) + x.n[2]*math.Log(freqL)
			n += x.n[0] + x.n[1] + x.n[2]
		}
		return s / n
	}
	fmt.Fprintln(w, "\nmean log-loss per position (nats): fitted games, held-out games")
	fmt.Fprintf(w, "  model (cubics, joint fit)        %.5f  %.5f\n", meanNLL(train, r.joint.params), meanNLL(held, r.joint.params))
	fmt.Fprintf(w, "  cubics through per-material fits %.5f  %.5f\n", meanNLL(train, r.initial.params), meanNLL(held, r.initial.params))
	fmt.Fprintf(w, "  free fit per material count      %.5f  %.5f\n", meanNLL(train, freeAB), meanNLL(held, freeAB))
	fmt.Fprintf(w, "  one logistic (a=%.0f, b=%.0f)      %.5f  %.5f\n", oldMidpoint, oldSpread, meanNLL(train, old), meanNLL(held, old))
	fmt.Fprintf(w, "  result frequencies only           %.5f  %.5f  (W %.3f D %.3f L %.3f)\n", freq(train), freq(held), freqW, freqD, freqL)
	if len(held) > 0 {
		calibration(w, r.joint, held)
	}
	fmt.Fprintln(w, "\n// The fitted parameters (cmd/wdlfit).\nconst (")
	for i := range 4 {
		fmt.Fprintf(w, "\twdlA%d = %.6g\n", i, r.joint.a[i])
	}
	for i := range 4 {
		fmt.Fprintf(w, "\twdlB%d = %.6g\n", i, r.joint.b[i])
	}
	fmt.Fprintln(w, ")")
	a, b := r.joint.params(eval.WDLMaterialRef)
	a78, b78 := r.joint.params(eval.WDLMaterialMax)
	fmt.Fprintf(w, "a, b at material %d: %.1f %.1f; at %d (the start): %.1f %.1f\n", eval.WDLMaterialRef, a, b, eval.WDLMaterialMax, a78, b78)
}

// frequencies returns the shares of wins, draws and losses (White's view).
func frequencies(cells []cell) (w, d, l float64) {
	var n [3]float64
	for _, c := range cells {
		for i := range n {
			n[i] += c.n[i]
		}
	}
	t := n[0] + n[1] + n[2]
	return n[0] / t, n[1] / t, n[2] / t
}

// calibration prints, for ten bins of the predicted expected score (White's
// view), the predicted and observed win/draw/loss shares; and the results
// of the side ahead in the positions scored within 10 of +-a(m), where the
// model says it wins half of its games.
func calibration(w io.Writer, md model, cells []cell) {
	type bin struct{ n, pw, pd, pl, ow, od, ol float64 }
	var bins [10]bin
	var near [3]float64
	for _, c := range cells {
		a, b := md.params(c.m)
		pw, pd, pl := probs(float64(c.s), a, b)
		e := pw + pd/2
		k := min(9, int(e*10))
		t := c.n[0] + c.n[1] + c.n[2]
		bn := &bins[k]
		bn.n += t
		bn.pw += t * pw
		bn.pd += t * pd
		bn.pl += t * pl
		bn.ow += c.n[0]
		bn.od += c.n[1]
		bn.ol += c.n[2]
		// Scored near +a(m) or -a(m): the side ahead's results.
		if math.Abs(float64(c.s)-a) <= 10 {
			near[0], near[1], near[2] = near[0]+c.n[0], near[1]+c.n[1], near[2]+c.n[2]
		}
		if math.Abs(float64(c.s)+a) <= 10 {
			near[0], near[1], near[2] = near[0]+c.n[2], near[1]+c.n[1], near[2]+c.n[0]
		}
	}
	fmt.Fprintln(w, "\ncalibration on the held-out games, by predicted expected score (White's view):")
	fmt.Fprintln(w, "  bin        positions   predicted W/D/L %     observed W/D/L %    expected score pred/obs")
	worst := 0.0
	for k, bn := range bins {
		if bn.n == 0 {
			continue
		}
		pe, oe := (bn.pw+bn.pd/2)/bn.n, (bn.ow+bn.od/2)/bn.n
		worst = max(worst, math.Abs(pe-oe))
		fmt.Fprintf(w, "  %.1f-%.1f  %10.0f   %5.1f %5.1f %5.1f   %5.1f %5.1f %5.1f    %.3f %.3f\n",
			float64(k)/10, float64(k+1)/10, bn.n, 100*bn.pw/bn.n, 100*bn.pd/bn.n, 100*bn.pl/bn.n,
			100*bn.ow/bn.n, 100*bn.od/bn.n, 100*bn.ol/bn.n, pe, oe)
	}
	fmt.Fprintf(w, "  largest |predicted - observed| expected score in a bin: %.3f\n", worst)
	if t := near[0] + near[1] + near[2]; t > 0 {
		fmt.Fprintf(w, "  positions scored within 10 of +-a(m) (model: the side ahead wins 50%%): %.0f, it won %.1f%%, drew %.1f%%, lost %.1f%%\n",
			t, 100*near[0]/t, 100*near[1]/t, 100*near[2]/t)
	}
}
