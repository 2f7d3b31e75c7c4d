// Command train trains Kingrook's evaluation network (eval/nnue) on
// self-play positions and writes it as a .nnue file.
//
// It reads "FEN | score | result" lines (score in centipawns and result
// 1.0/0.5/0.0, both from White's view) and cmd/datagen's binary games
// (cmd/internal/selfplay, positions chosen by selfplay.TrainingFilter like the
// shared corpus), either plain or gzip-compressed (other formats plug in
// through the Reader interface), keeps every --holdout-th block of
// --block consecutive positions back for validation, and trains the float
// network 768 -> H (x2 perspectives) -> 1 (with --buckets output buckets
// chosen by the number of pieces, nnue.BucketOf) with Adam on mini-batches over
// every core: each goroutine sums its share of the batch's gradient, the
// sums are reduced, and only first-layer rows that some position used are
// updated. The loss is the mean squared error between
// sigmoid(output*400/scale) and the target
// (1-wdl)*sigmoid(score/scale) + wdl*result, both from the side to move's
// view. Positions are shuffled every epoch (--seed; --mirror adds their
// mirror images across the d/e line), the validation loss is printed per
// epoch and a checkpoint (float weights and Adam state, --resume to
// continue) is written after each; the best epoch is kept (--patience stops
// early). At the end the net is quantised to integers (eval/nnue's format)
// and the quantisation error is reported: the mean absolute difference in
// centipawns between the float and the integer outputs on the validation
// set, next to the hand-written evaluation's validation loss for comparison. See eval/nnue/README.md for
// the commands that made the shipped net.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/kingrook/kingrook/eval/nnue"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

// config holds the settings of a training run.
type config struct {
	data                                                           []string // the training files, globs expanded
	hidden, buckets, epochs, batch, threads, holdout, block, limit int
	lr, gamma, scale, wdl                                          float64
	act                                                            nnue.Activation
	seed                                                           uint64
	keepBest, mirror                                               bool
	hiddenSet, actSet, bucketsSet                                  bool // --hidden, --act, --buckets given
	patience, trainLimit                                           int
	maxTime                                                        time.Duration
	out, checkpoint, resume, compare, init                         string
}

func run(args []string, stdout, stderr io.Writer) error {
	c, err := parseConfig(args, stderr)
	if err != nil {
		return err
	}
	t0 := time.Now()
	train, valid, st, err := load(c.data, c.holdout, c.block, c.limit)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "read %d positions from %d files in %v: %d training, %d validation, %d malformed lines skipped\n",
		st.read, len(c.data), time.Since(t0).Round(time.Millisecond), st.train, st.valid, st.bad)
	if c.trainLimit > 0 && c.trainLimit < train.len() {
		train.truncate(c.trainLimit)
		fmt.Fprintf(stdout, "training on the first %d positions only\n", c.trainLimit)
	}
	if train.len() == 0 && c.compare == "" {
		return fmt.Errorf("no training positions")
	}
	if c.compare != "" {
		net, err := nnue.LoadFile(c.compare)
		if err != nil {
			return err
		}
		report(c, nil, net, valid, stdout)
		return nil
	}
	m, err := trainNet(c, train, valid, stdout)
	if err != nil {
		return err
	}
	return finish(c, m, valid, stdout)
}

// parseConfig reads the flags and checks them.
func parseConfig(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	data := fs.String("data", "", "training data: comma-separated files or globs: text .txt or cmd/datagen binary games, either optionally .gz (required)")
	fs.StringVar(&c.out, "out", "net.nnue", "the quantised network to write")
	fs.StringVar(&c.checkpoint, "checkpoint", "", "float checkpoint written after every epoch (default: <out>.ckpt)")
	fs.StringVar(&c.resume, "resume", "", "continue from this checkpoint (its H, activation and bucket count win over the flags)")
	fs.StringVar(&c.init, "init", "", "start from the weights of this .nnue file (fine-tuning; its activation and bucket count win over the flags, and a larger --hidden widens it), with a fresh Adam state")
	fs.StringVar(&c.compare, "compare", "", "train nothing: report this net's and the hand-written evaluation's validation losses")
	fs.IntVar(&c.hidden, "hidden", 256, "accumulator width H (a multiple of 16)")
	fs.IntVar(&c.buckets, "buckets", 1, "output buckets, chosen by the number of pieces (1..16; 1 writes a version 1 file)")
	act := fs.String("act", "screlu", "hidden activation: crelu or screlu")
	fs.IntVar(&c.epochs, "epochs", 20, "passes over the training data")
	fs.DurationVar(&c.maxTime, "max-time", 0, "stop before an epoch that would end after this much training time (0: no limit)")
	fs.IntVar(&c.batch, "batch", 16384, "positions per Adam step")
	fs.Float64Var(&c.lr, "lr", 0.001, "Adam learning rate")
	fs.Float64Var(&c.gamma, "gamma", 0.9, "learning rate factor after every epoch")
	fs.Float64Var(&c.scale, "scale", 400, "sigmoid scale in centipawns: a score s counts as sigmoid(s/scale)")
	fs.Float64Var(&c.wdl, "wdl", 0.3, "weight of the game result in the target (0: score only, 1: result only)")
	fs.IntVar(&c.threads, "threads", runtime.GOMAXPROCS(0), "worker goroutines")
	fs.IntVar(&c.holdout, "holdout", 20, "keep every N-th block out of training for validation (0: none)")
	fs.IntVar(&c.block, "block", 10000, "positions per holdout block")
	fs.IntVar(&c.limit, "limit", 0, "read at most this many positions (0: all)")
	fs.IntVar(&c.trainLimit, "train-limit", 0, "train on at most this many of the training positions, validation unchanged: for learning curves (0: all)")
	fs.BoolVar(&c.keepBest, "keep-best", true, "quantise the epoch with the lowest validation loss, not the last (its checkpoint is <checkpoint>.best)")
	fs.IntVar(&c.patience, "patience", 2, "stop after this many epochs without a better validation loss (0: never)")
	fs.BoolVar(&c.mirror, "mirror", false, "also train on every position mirrored across the d/e file line")
	fs.Uint64Var(&c.seed, "seed", 1, "seed for the initial weights and the shuffling")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "hidden":
			c.hiddenSet = true
		case "act":
			c.actSet = true
		case "buckets":
			c.bucketsSet = true
		}
	})
	switch *act {
	case "crelu":
		c.act = nnue.CReLU
	case "screlu":
		c.act = nnue.SCReLU
	default:
		return c, fmt.Errorf("--act %q: want crelu or screlu", *act)
	}
	if *data == "" {
		fs.Usage()
		return c, fmt.Errorf("--data is required")
	}
	if err := c.check(); err != nil {
		return c, err
	}
	if c.checkpoint == "" {
		c.checkpoint = c.out + ".ckpt"
	}
	var err error
	c.data, err = expandGlobs(*data)
	return c, err
}

// check reports a setting out of its range.
func (c *config) check() error {
	switch {
	case c.hidden < 16 || c.hidden > 1024 || c.hidden%16 != 0:
		return fmt.Errorf("--hidden %d: want a multiple of 16 in 16..1024", c.hidden)
	case c.buckets < 1 || c.buckets > nnue.MaxBuckets:
		return fmt.Errorf("--buckets %d: want 1..%d", c.buckets, nnue.MaxBuckets)
	case c.batch < 1 || c.threads < 1 || c.block < 1 || c.epochs < 0:
		return fmt.Errorf("--batch, --threads and --block must be positive, --epochs not negative")
	case c.wdl < 0 || c.wdl > 1 || c.scale <= 0:
		return fmt.Errorf("--wdl must be in [0, 1] and --scale positive")
	case c.init != "" && c.resume != "":
		return fmt.Errorf("--init and --resume: give one starting point")
	}
	return nil
}

// shapeDiffers tells whether --act or --buckets was given and differs from
// the starting model m's.
func (c *config) shapeDiffers(m *model) bool {
	return c.actSet && m.act != c.act || c.bucketsSet && m.buckets != c.buckets
}

// expandGlobs returns the files named by a comma-separated list of files
// and globs; a name that matches nothing is an error.
func expandGlobs(list string) ([]string, error) {
	var paths []string
	for _, g := range strings.Split(list, ",") {
		m, err := filepath.Glob(g)
		if err != nil {
			return nil, fmt.Errorf("--data %q: %w", g, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("--data %q: no such file", g)
		}
		paths = append(paths, m...)
	}
	return paths, nil
}

// trainNet runs the epochs and returns the float model.
func trainNet(c config, train, valid *dataset, stdout io.Writer) (*model, error) {
	rng := rand.New(rand.NewPCG(c.seed, c.seed^0x9e3779b97f4a7c15))
	m := newModel(c.hidden, c.act, c.buckets, rng)
	opt := newAdam(m, c.lr)
	if c.resume != "" {
		var err error
		if m, opt, err = loadCheckpoint(c.resume, c.lr); err != nil {
			return nil, err
		}
		if c.shapeDiffers(m) || c.hiddenSet && m.h != c.hidden {
			return nil, fmt.Errorf("--resume %s: the checkpoint is H=%d %s with %d output buckets, the flags ask for H=%d %s with %d",
				c.resume, m.h, m.act, m.buckets, c.hidden, c.act, c.buckets)
		}
		fmt.Fprintf(stdout, "resumed from %s after %d steps\n", c.resume, opt.t)
	}
	if c.init != "" {
		net, err := nnue.LoadFile(c.init)
		if err != nil {
			return nil, err
		}
		if m, err = modelFromNet(net); err != nil {
			return nil, fmt.Errorf("--init %s: %w", c.init, err)
		}
		if c.shapeDiffers(m) || c.hiddenSet && m.h > c.hidden {
			return nil, fmt.Errorf("--init %s: the net is H=%d %s with %d output buckets, the flags ask for H=%d %s with %d",
				c.init, m.h, m.act, m.buckets, c.hidden, c.act, c.buckets)
		}
		fmt.Fprintf(stdout, "starting from the weights of %s\n", c.init)
		if c.hiddenSet && c.hidden > m.h {
			fmt.Fprintf(stdout, "widened from H=%d to H=%d: the new columns start with zero output weights\n", m.h, c.hidden)
			m = m.widen(c.hidden, rng)
		}
		opt = newAdam(m, c.lr)
	}
	lc := lossConfig{scale: c.scale, wdl: c.wdl}
	work := make([]*scratch, c.threads)
	for i := range work {
		work[i] = m.newScratch()
	}
	fmt.Fprintf(stdout, "H=%d %s, %d output buckets, batch %d, lr %g (x%g per epoch), scale %g, wdl %g, %d threads, seed %d\n",
		m.h, m.act, m.buckets, c.batch, c.lr, c.gamma, c.scale, c.wdl, c.threads, c.seed)
	fmt.Fprintf(stdout, "epoch 0  validation %.6f\n", m.evalLoss(valid, lc, work))
	n := train.len()
	if c.mirror {
		n *= 2 // i >= train.len() stands for the file-mirrored copy
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	start := time.Now()
	var last time.Duration
	best, bestLoss, bestEpoch := m, math.Inf(1), 0
	for e := 1; e <= c.epochs; e++ {
		if c.maxTime > 0 && time.Since(start)+last > c.maxTime {
			fmt.Fprintf(stdout, "stopping: another epoch would pass --max-time %v\n", c.maxTime)
			break
		}
		t := time.Now()
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		var loss float64
		for b := 0; b < len(idx); b += c.batch {
			batch := idx[b:min(b+c.batch, len(idx))]
			loss += m.step(train, batch, lc, work)
			opt.apply(m, work, len(batch))
		}
		last = time.Since(t)
		vl := m.evalLoss(valid, lc, work)
		fmt.Fprintf(stdout, "epoch %d  lr %.6f  train %.6f  validation %.6f  (%v)\n",
			e, opt.lr, loss/float64(len(idx)), vl, last.Round(time.Second))
		if err := m.save(c.checkpoint, opt); err != nil {
			return nil, fmt.Errorf("checkpoint: %w", err)
		}
		if math.IsNaN(vl) { // no validation set: nothing to compare
		} else if vl < bestLoss {
			best, bestLoss, bestEpoch = m.clone(), vl, e
			if err := m.save(c.checkpoint+".best", opt); err != nil {
				return nil, fmt.Errorf("checkpoint: %w", err)
			}
		} else if c.patience > 0 && e-bestEpoch >= c.patience {
			fmt.Fprintf(stdout, "stopping: no better validation loss for %d epochs\n", c.patience)
			break
		}
		opt.lr *= c.gamma
	}
	if c.keepBest && bestEpoch > 0 {
		fmt.Fprintf(stdout, "keeping epoch %d: the lowest validation loss, %.6f\n", bestEpoch, bestLoss)
		return best, nil
	}
	return m, nil
}

// finish quantises m, reports the quantisation error and the comparison
// with the hand-written evaluation on the validation set, and writes the net.
func finish(c config, m *model, valid *dataset, stdout io.Writer) error {
	net := m.quantise()
	report(c, m, net, valid, stdout)
	f, err := os.Create(c.out)
	if err != nil {
		return err
	}
	if err := net.Write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (H=%d %s, %d output buckets)\n", c.out, net.H, net.Act, net.Buckets())
	return nil
}

// report prints, on the validation set, the quantisation error (when the
// float model m is given) and the losses of the integer net and of the
// hand-written evaluation against three targets: the training one, scores
// only and results only, each at --scale and at the prediction scale that
// suits each evaluation best.
func report(c config, m *model, net *nnue.Net, d *dataset, stdout io.Writer) {
	if d.len() == 0 {
		return
	}
	n := d.len()
	intCP, hand := make([]float64, n), make([]float64, n)
	acc := net.NewAccumulators(1)
	var s *scratch
	if m != nil {
		s = m.newScratch()
	}
	var sumAbs, maxAbs float64
	for i := range n {
		acc[0].RefreshFeatures(net, d.features(i))
		intCP[i] = float64(net.Evaluate(&acc[0], d.stm[i]))
		hand[i] = float64(d.hand[i])
		if m != nil {
			s.us, s.them = d.sideFeatures(i, s.us, s.them)
			diff := math.Abs(float64(m.forward(s, s.us, s.them))*netScale - intCP[i])
			sumAbs += diff
			maxAbs = max(maxAbs, diff)
		}
	}
	if m != nil {
		fmt.Fprintf(stdout, "quantisation: mean |float - integer| = %.3f cp, max %.0f cp over %d validation positions\n", sumAbs/float64(n), maxAbs, n)
	}
	for _, wdl := range []float64{c.wdl, 0, 1} {
		lc := lossConfig{scale: c.scale, wdl: wdl}
		ns, nb := bestScale(intCP, d, lc)
		hs, hb := bestScale(hand, d, lc)
		fmt.Fprintf(stdout, "validation loss, target wdl=%g: net %.6f (%.6f at its best scale %.0f), hand-written eval %.6f (%.6f at its best scale %.0f)\n",
			wdl, cpLoss(intCP, d, lc, c.scale), nb, ns, cpLoss(hand, d, lc, c.scale), hb, hs)
	}
}

func sq(x float64) float64 { return x * x }

// cpLoss is the mean loss of scores cp (side to move's view) predicted
// through sigmoid(cp/predScale) against lc's targets.
func cpLoss(cp []float64, d *dataset, lc lossConfig, predScale float64) float64 {
	var s float64
	for i, x := range cp {
		s += sq(sigmoid(x/predScale) - float64(lc.target(d.score[i], d.result[i])))
	}
	return s / float64(len(cp))
}

// bestScale finds the prediction scale that minimises cpLoss (golden
// section search over 50..2000 cp).
func bestScale(cp []float64, d *dataset, lc lossConfig) (scale, loss float64) {
	lo, hi := 50.0, 2000.0
	g := (math.Sqrt(5) - 1) / 2
	for range 40 {
		a, b := hi-g*(hi-lo), lo+g*(hi-lo)
		if cpLoss(cp, d, lc, a) < cpLoss(cp, d, lc, b) {
			hi = b
		} else {
			lo = a
		}
	}
	scale = (lo + hi) / 2
	return scale, cpLoss(cp, d, lc, scale)
}
