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
// chosen by the number of pieces, nnue.BucketOf; with --layout mirrored,
// each side's inputs mirrored across the d/e line while its own king stands
// on files a-d, nnue.KingMirrored; with --layout kingbuckets, mirrored so
// and read in the first-layer rows of its king's bucket, --king-buckets,
// nnue.KingBuckets, and with --factorise a set of rows all king buckets
// share besides, folded into each bucket's when the net is written) with
// Adam on mini-batches over
// every core: each goroutine sums its share of the batch's gradient, the
// sums are reduced, and only first-layer rows that some position used are
// updated. The loss is the mean squared error between
// sigmoid(output*400/scale) and the target
// (1-wdl)*sigmoid(score/scale) + wdl*result, both from the side to move's
// view. Positions are shuffled every epoch (the order of epoch e drawn from
// --seed and e alone; --mirror adds their mirror images across the d/e
// line), the validation loss is printed per epoch and the best epoch is kept
// (--patience stops early). At the end the net is quantised to integers
// (eval/nnue's format) and the quantisation error is reported: the mean
// absolute difference in centipawns between the float and the integer
// outputs on the validation set, next to the hand-written evaluation's
// validation loss for comparison. See eval/nnue/README.md for the commands
// that made the shipped net.
//
// # Memory
//
// A position is held as its board and labels in 32 bytes (record), whatever
// the net's inputs; the features of both perspectives, mirrored or not, are
// computed when a batch needs them. The epoch's order takes 4 bytes per
// training position (8 with --mirror). So 40 million positions take about
// 1.45 GB, 1.6 GB with --mirror, besides the net (for H = 256, a few MB with
// Adam's moments and a gradient per thread); reading binary games decodes
// each once, about two million positions a second on one core.
//
// # Checkpoints and --resume
//
// The checkpoint (--checkpoint, default <out>.ckpt) holds the float
// weights, Adam's moments and step, the run's settings and a checksum of its
// data, and where it stands: the epochs done, the positions of the current
// epoch's order done, the learning rate, the best validation loss so far
// and its epoch (that epoch's model is <checkpoint>.best). It is written,
// to a temporary file renamed over it, after every epoch, every
// --checkpoint-every (10 minutes) between two Adam steps, and at SIGINT or
// SIGTERM, which then end the run (exit code 1, with the command to go on).
// --resume CKPT continues that run where it stopped, into the same
// checkpoint: give the same --data (a glob that now matches more files is
// other data) and --holdout, --block, --limit and --train-limit, which the
// counts and checksum check; the checkpoint's shape and
// training settings (--hidden --act --buckets --layout --factorise --seed --batch --lr --gamma
// --lr-schedule --lr-end --scale --wdl --mirror, and --epochs and --patience
// unless given anew; under the cosine schedule another --epochs stretches or
// shrinks the rest of the curve)
// apply, and a flag that contradicts them is an error. With the same
// --threads the resumed run is bit for bit the uninterrupted one (the
// test resumes twice and compares the files); another thread count sums in
// another order, which the run notes. A checkpoint of the earlier layouts
// (weights and moments only) restarts the epochs from 1.
//
//	train --data 'games/*.bin' --out k11.nnue --mirror --epochs 20   # SIGINT: checkpoint, stop
//	train --data 'games/*.bin' --resume k11.nnue.ckpt                # the next session: k11.nnue
//
// Without --out, a resumed run writes the net its checkpoint is named after
// (k11.nnue for k11.nnue.ckpt). --match-scale, which acts after training,
// is not in the checkpoint: give it again.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kingrook/kingrook/cmd/internal/selfplay"
	"github.com/kingrook/kingrook/eval/nnue"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	var r *reported
	if err != nil && !errors.Is(err, flag.ErrHelp) && !errors.As(err, &r) {
		fmt.Fprintln(os.Stderr, "train:", err)
	}
	os.Exit(exitCode(err))
}

// usageError is a command line the trainer refuses (a flag, its value, no
// data files): exit status 2, as Go's flag package and the other commands
// give.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// reported is an error already printed (with the usage after it).
type reported struct{ err error }

func (e *reported) Error() string { return e.err.Error() }
func (e *reported) Unwrap() error { return e.err }

// exitCode is the process's exit status after run returned err: 0 on
// success and for --help, 2 for a refused command line, 1 for a failure.
func exitCode(err error) int {
	var u *usageError
	switch {
	case err == nil || errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &u):
		return 2
	}
	return 1
}

// config holds the settings of a training run.
type config struct {
	data                                                           []string // the training files, globs expanded
	hidden, buckets, epochs, batch, threads, holdout, block, limit int
	lr, gamma, scale, wdl                                          float64
	cosine                                                         bool    // --lr-schedule cosine
	lrEnd                                                          float64 // --lr-end
	act                                                            nnue.Activation
	layout                                                         nnue.Layout
	kingBucket                                                     [nnue.KingSquares]uint8 // --king-buckets
	seed                                                           uint64
	keepBest, mirror                                               bool
	factorise                                                      bool // --factorise
	hiddenSet, actSet, bucketsSet                                  bool // --hidden, --act, --buckets given
	patience, trainLimit                                           int
	filter                                                         trainFilter // --train-min-ply, --train-skip (its seed: --seed), --train-from-ply
	maxTime, checkpointEvery                                       time.Duration
	out, checkpoint, resume, compare, init                         string
	matchScale                                                     string          // --match-scale
	set                                                            map[string]bool // the flags given
	stopAfter                                                      int             // tests: stop as SIGINT does after this many Adam steps
}

// run is main without the process: ctx is cancelled by SIGINT or SIGTERM.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := parseConfigTo(args, stdout, stderr)
	if err != nil {
		return &usageError{err}
	}
	return runConfig(ctx, c, stdout)
}

func runConfig(ctx context.Context, c config, stdout io.Writer) error {
	t0 := time.Now()
	c.filter.seed = c.seed
	train, valid, st, err := load(ctx, c.data, c.holdout, c.block, c.limit, c.filter)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "read %d positions from %d files in %v: %d training, %d validation, %d malformed lines skipped\n",
		st.read, len(c.data), time.Since(t0).Round(time.Millisecond), st.train, st.valid, st.bad)
	if st.dropped > 0 {
		fmt.Fprintf(stdout, "left out %d training positions (--train-min-ply, --train-skip); validation unchanged\n", st.dropped)
	}
	if c.filter.early > 0 {
		fmt.Fprintf(stdout, "%d of the training positions are from games' plies %d..%d (--train-from-ply); validation unchanged\n",
			st.early, selfplay.TrainingFilter.MinPly-c.filter.early, selfplay.TrainingFilter.MinPly-1)
	}
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
	// trainNet adopts a resumed run's settings into c: the report after
	// training measures the net against the target it was trained for.
	m, err := trainNet(ctx, &c, train, valid, stdout)
	if err != nil {
		return err
	}
	return finish(c, m, valid, stdout)
}

// parseConfig reads the flags and checks them; --help's usage and a bad
// flag's error go to stderr.
func parseConfig(args []string, stderr io.Writer) (config, error) {
	return parseConfigTo(args, stderr, stderr)
}

// parseConfigTo is parseConfig with --help's usage to stdout (flag.ErrHelp).
func parseConfigTo(args []string, stdout, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: train --data FILES [--out net.nnue] [flags]\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var c config
	data := fs.String("data", "", "training data: comma-separated files or globs: text .txt or cmd/datagen binary games, either optionally .gz (required)")
	fs.StringVar(&c.out, "out", "net.nnue", "the quantised network to write")
	fs.StringVar(&c.checkpoint, "checkpoint", "", "checkpoint written after every epoch, every --checkpoint-every and at SIGINT/SIGTERM (default: the --resume file, else <out>.ckpt)")
	fs.DurationVar(&c.checkpointEvery, "checkpoint-every", 10*time.Minute, "also write the checkpoint this often within an epoch (0: at epoch ends and SIGINT/SIGTERM only)")
	fs.StringVar(&c.resume, "resume", "", "continue the run that wrote this checkpoint where it stopped (its shape and training settings win over the flags' defaults; same --data)")
	fs.StringVar(&c.init, "init", "", "start from the weights of this .nnue file (fine-tuning; its activation, bucket count and layout win over the flags, a larger --hidden widens it and another --layout takes its weights to that layout), with a fresh Adam state")
	fs.StringVar(&c.matchScale, "match-scale", "", "after training, scale the output layer so that the net's evaluations match this .nnue file's on the validation positions (least squares; positions it scores within ±1000 cp): the search's margins are set in its units")
	fs.StringVar(&c.compare, "compare", "", "train nothing: report this net's and the hand-written evaluation's validation losses")
	fs.IntVar(&c.hidden, "hidden", 256, "accumulator width H (a multiple of 16)")
	fs.IntVar(&c.buckets, "buckets", 1, "output buckets, chosen by the number of pieces (1..16; 1 writes a version 1 file)")
	act := fs.String("act", "screlu", "hidden activation: crelu or screlu")
	layout := fs.String("layout", "plain", "input layout: plain, mirrored (each side's inputs mirrored across the d/e line while its king stands on files a-d), or kingbuckets (mirrored so, each side reading the first-layer rows of its king's bucket, --king-buckets)")
	kingBuckets := fs.String("king-buckets", defaultKingBuckets, "with --layout kingbuckets: the king bucket (0..15) of each square a king is seen on, comma-separated: 32 (rank 1 files e-h, then rank 2, ... rank 8, from the side's own view) or 8 (one per rank)")
	fs.BoolVar(&c.factorise, "factorise", false, "with the kingbuckets layout: train, besides each king bucket's first-layer rows, one set that all buckets share (each input reads both; folded into every bucket's rows when the net is written), so that what the buckets have in common learns from every position")
	fs.IntVar(&c.epochs, "epochs", 20, "passes over the training data")
	fs.DurationVar(&c.maxTime, "max-time", 0, "stop before an epoch that would end after this much training time (0: no limit)")
	fs.IntVar(&c.batch, "batch", 16384, "positions per Adam step")
	fs.Float64Var(&c.lr, "lr", 0.001, "Adam learning rate")
	fs.Float64Var(&c.gamma, "gamma", 0.9, "learning rate factor after every epoch (the step schedule)")
	schedule := fs.String("lr-schedule", "step", "learning rate schedule: step (times --gamma after every epoch) or cosine (from --lr to --lr-end along half a cosine over all --epochs, set at every step)")
	fs.Float64Var(&c.lrEnd, "lr-end", 0, "the cosine schedule's last learning rate")
	fs.Float64Var(&c.scale, "scale", 400, "sigmoid scale in centipawns: a score s counts as sigmoid(s/scale)")
	fs.Float64Var(&c.wdl, "wdl", 0.3, "weight of the game result in the target (0: score only, 1: result only)")
	fs.IntVar(&c.threads, "threads", runtime.GOMAXPROCS(0), "worker goroutines")
	fs.IntVar(&c.holdout, "holdout", 20, "keep every N-th block out of training for validation (0: none)")
	fs.IntVar(&c.block, "block", 10000, "positions per holdout block")
	fs.IntVar(&c.limit, "limit", 0, "read at most this many positions (0: all)")
	fs.IntVar(&c.trainLimit, "train-limit", 0, "train on at most this many of the training positions, validation unchanged: for learning curves (0: all)")
	fs.IntVar(&c.filter.minPly, "train-min-ply", 0, "leave out training positions before this game ply (from the full-move number), validation unchanged (0: none; datagen's games yield none before ply 20: 8 random plies, then the filter's 12)")
	fromPly := fs.Int("train-from-ply", selfplay.TrainingFilter.MinPly, "also train on binary games' positions from this ply of the stored game (after the random opening moves) on, before the filter's first (12); validation unchanged")
	fs.Float64Var(&c.filter.skip, "train-skip", 0, "leave out each training position with this probability (drawn from --seed and its index), validation unchanged")
	fs.BoolVar(&c.keepBest, "keep-best", true, "quantise the epoch with the lowest validation loss, not the last (its checkpoint is <checkpoint>.best)")
	fs.IntVar(&c.patience, "patience", 2, "stop after this many epochs without a better validation loss (0: never)")
	fs.BoolVar(&c.mirror, "mirror", false, "also train on every position mirrored across the d/e file line")
	fs.Uint64Var(&c.seed, "seed", 1, "seed for the initial weights and the shuffling")
	// The flag package prints a bad flag's error and the usage itself; the
	// error is printed once, by main, with the command's name, then the
	// usage.
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		return c, err
	case err != nil:
		fmt.Fprintf(stderr, "train: %v\n\n", err)
		fs.Usage()
		return c, &reported{err}
	}
	c.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) {
		c.set[f.Name] = true
		switch f.Name {
		case "hidden":
			c.hiddenSet = true
		case "act":
			c.actSet = true
		case "buckets":
			c.bucketsSet = true
		}
	})
	if *fromPly < 0 || *fromPly > selfplay.TrainingFilter.MinPly {
		return c, fmt.Errorf("--train-from-ply %d: want 0..%d", *fromPly, selfplay.TrainingFilter.MinPly)
	}
	c.filter.early = selfplay.TrainingFilter.MinPly - *fromPly
	if c.act, err = named("act", *act, nnue.CReLU, nnue.SCReLU); err != nil {
		return c, err
	}
	if c.layout, err = named("layout", *layout, nnue.Plain, nnue.KingMirrored, nnue.KingBuckets); err != nil {
		return c, err
	}
	if c.kingBucket, err = parseKingBuckets(*kingBuckets); err != nil {
		return c, err
	}
	if c.set["king-buckets"] && c.layout != nnue.KingBuckets {
		return c, fmt.Errorf("--king-buckets without --layout kingbuckets")
	}
	if c.layout != nnue.KingBuckets {
		c.kingBucket = [nnue.KingSquares]uint8{}
	}
	switch *schedule {
	case "step":
	case "cosine":
		c.cosine = true
	default:
		return c, fmt.Errorf("--lr-schedule %q: want step or cosine", *schedule)
	}
	if *data == "" {
		fs.Usage()
		return c, fmt.Errorf("--data is required")
	}
	if err := c.check(); err != nil {
		return c, err
	}
	if c.resume != "" && !c.set["out"] && strings.HasSuffix(c.resume, ".ckpt") {
		// The run goes on into the net its checkpoint is named after.
		c.out = strings.TrimSuffix(c.resume, ".ckpt")
	}
	switch {
	case c.checkpoint != "":
	case c.resume != "":
		c.checkpoint = c.resume
	default:
		c.checkpoint = c.out + ".ckpt"
	}
	c.data, err = expandGlobs(*data)
	return c, err
}

// defaultKingBuckets is --king-buckets' default: four buckets, the king on
// its first rank towards the centre (e-f, after the mirroring) or in the
// corner (g-h), on the second rank, or further up.
const defaultKingBuckets = "0,0,1,1,2,2,2,2,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3"

// parseKingBuckets reads --king-buckets: 32 buckets, or 8, one per rank.
func parseKingBuckets(s string) ([nnue.KingSquares]uint8, error) {
	var kb [nnue.KingSquares]uint8
	f := strings.Split(s, ",")
	if len(f) != nnue.KingSquares && len(f) != 8 {
		return kb, fmt.Errorf("--king-buckets %q: want 32 buckets (or 8, one per rank), got %d", s, len(f))
	}
	for i := range kb {
		v := f[i*len(f)/nnue.KingSquares] // 8: one per rank of 4 squares
		b, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || b < 0 || b >= nnue.MaxKingBuckets {
			return kb, fmt.Errorf("--king-buckets %q: bucket %q, want 0..%d", s, v, nnue.MaxKingBuckets-1)
		}
		kb[i] = uint8(b)
	}
	return kb, nil
}

// named returns the value among values whose String is s, the value of
// flag --name.
func named[T fmt.Stringer](name, s string, values ...T) (T, error) {
	var names []string
	for _, v := range values {
		if v.String() == s {
			return v, nil
		}
		names = append(names, v.String())
	}
	var zero T
	return zero, fmt.Errorf("--%s %q: want %s", name, s, strings.Join(names, " or "))
}

// check reports a setting out of its range.
func (c *config) check() error {
	switch {
	case c.hidden < nnue.HiddenAlign || c.hidden > nnue.MaxHidden || c.hidden%nnue.HiddenAlign != 0:
		return fmt.Errorf("--hidden %d: want a multiple of %d in %d..%d", c.hidden, nnue.HiddenAlign, nnue.HiddenAlign, nnue.MaxHidden)
	case c.buckets < 1 || c.buckets > nnue.MaxBuckets:
		return fmt.Errorf("--buckets %d: want 1..%d", c.buckets, nnue.MaxBuckets)
	case c.batch < 1 || c.threads < 1 || c.block < 1 || c.epochs < 0 || c.checkpointEvery < 0:
		return fmt.Errorf("--batch, --threads and --block must be positive, --epochs and --checkpoint-every not negative")
	case c.wdl < 0 || c.wdl > 1 || c.scale <= 0:
		return fmt.Errorf("--wdl must be in [0, 1] and --scale positive")
	case c.init != "" && c.resume != "":
		return fmt.Errorf("--init and --resume: give one starting point")
	case c.factorise && c.layout != nnue.KingBuckets && (c.set["layout"] || c.init == "" && c.resume == ""):
		return fmt.Errorf("--factorise shares rows between king buckets: add --layout kingbuckets")
	case c.cosine && c.set["gamma"]:
		return fmt.Errorf("--gamma is the step schedule's factor: the cosine schedule ends at --lr-end")
	case !c.cosine && c.set["lr-end"]:
		return fmt.Errorf("--lr-end is the cosine schedule's: add --lr-schedule cosine")
	case c.filter.minPly < 0 || c.filter.skip < 0 || c.filter.skip >= 1:
		return fmt.Errorf("--train-min-ply must not be negative and --train-skip in [0, 1)")
	case c.lrEnd < 0 || c.lrEnd > c.lr:
		return fmt.Errorf("--lr-end %g: want 0..--lr (%g)", c.lrEnd, c.lr)
	}
	return nil
}

// shapeDiffers tells whether --act, --buckets, --layout or --factorise was
// given and differs from the starting model m's.
func (c *config) shapeDiffers(m *model) bool {
	return c.actSet && m.act != c.act || c.bucketsSet && m.buckets != c.buckets || c.set["layout"] && (m.layout != c.layout || m.kingBucket != c.kingBucket) ||
		c.set["factorise"] && m.factor != c.factorise
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

// shuffle sets idx to the training order of epoch e: a permutation drawn
// from the seed and the epoch alone, so that a resumed run trains in the
// same order as an uninterrupted one.
func shuffle(idx []uint32, seed uint64, e int) {
	for i := range idx {
		idx[i] = uint32(i)
	}
	rng := rand.New(rand.NewPCG(seed^0x5851f42d4c957f2d, uint64(e)))
	rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
}

// runKey returns the key of a run with c's settings on train and valid.
func (c *config) runKey(train, valid *dataset) runKey {
	mirror := uint32(0)
	if c.mirror {
		mirror = 1
	}
	cosine := uint32(0)
	if c.cosine {
		cosine = 1
	}
	return runKey{runKeyV4: runKeyV4{Seed: c.seed, Batch: uint32(c.batch), Mirror: mirror, LR: c.lr, Gamma: c.gamma, Scale: c.scale, WDL: c.wdl,
		Epochs: uint32(c.epochs), Patience: uint32(c.patience),
		Train: uint64(train.len()), Valid: uint64(valid.len()), TrainSum: train.checksum(), ValidSum: valid.checksum(), Threads: uint32(c.threads)},
		Cosine: cosine, LREnd: c.lrEnd}
}

// cosineLR is the cosine schedule's learning rate for the Adam step after
// done of the n positions of epoch e (from 1): from --lr at the first step
// to --lr-end after the last of --epochs.
func (c *config) cosineLR(e int, done, n uint64) float64 {
	t := (float64(e-1)*float64(n) + float64(done)) / (float64(c.epochs) * float64(n))
	return c.lrEnd + 0.5*(c.lr-c.lrEnd)*(1+math.Cos(math.Pi*min(t, 1)))
}

// adopt takes the training settings of the checkpoint's run: a flag given
// with another value is an error, but for --epochs and --patience, which
// may lengthen or shorten the run.
func (c *config) adopt(k *runKey) error {
	var diffs []string
	take := func(name string, mine *float64, theirs float64) {
		if c.set[name] && *mine != theirs {
			diffs = append(diffs, fmt.Sprintf("--%s %g (the checkpoint's run: %g)", name, *mine, theirs))
		}
		*mine = theirs
	}
	take("lr", &c.lr, k.LR)
	take("gamma", &c.gamma, k.Gamma)
	take("lr-end", &c.lrEnd, k.LREnd)
	if c.set["lr-schedule"] && c.cosine != (k.Cosine == 1) {
		diffs = append(diffs, fmt.Sprintf("--lr-schedule %s (the checkpoint's run: %s)", scheduleName(c.cosine), scheduleName(k.Cosine == 1)))
	}
	c.cosine = k.Cosine == 1
	take("scale", &c.scale, k.Scale)
	take("wdl", &c.wdl, k.WDL)
	if c.set["seed"] && c.seed != k.Seed {
		diffs = append(diffs, fmt.Sprintf("--seed %d (the checkpoint's run: %d)", c.seed, k.Seed))
	}
	if c.set["batch"] && c.batch != int(k.Batch) {
		diffs = append(diffs, fmt.Sprintf("--batch %d (the checkpoint's run: %d)", c.batch, k.Batch))
	}
	if c.set["mirror"] && c.mirror != (k.Mirror == 1) {
		diffs = append(diffs, fmt.Sprintf("--mirror=%t (the checkpoint's run: %t)", c.mirror, k.Mirror == 1))
	}
	c.seed, c.batch, c.mirror = k.Seed, int(k.Batch), k.Mirror == 1
	if !c.set["epochs"] {
		c.epochs = int(k.Epochs)
	}
	if !c.set["patience"] {
		c.patience = int(k.Patience)
	}
	if len(diffs) > 0 {
		return fmt.Errorf("--resume %s: %s: resume with the run's own settings (leave those flags out)", c.resume, strings.Join(diffs, ", "))
	}
	return nil
}

// errInterrupted ends a run stopped by SIGINT or SIGTERM after its
// checkpoint is written.
var errInterrupted = errors.New("interrupted")

// scheduleName is the --lr-schedule value of cosine.
func scheduleName(cosine bool) string {
	if cosine {
		return "cosine"
	}
	return "step"
}

// trainNet runs the epochs and returns the float model. Between two Adam
// steps it writes a checkpoint every --checkpoint-every and when ctx is
// cancelled (then it returns an error wrapping errInterrupted); after every
// epoch it writes one too, and one of the best epoch's model.
func trainNet(ctx context.Context, c *config, train, valid *dataset, stdout io.Writer) (*model, error) {
	rng := rand.New(rand.NewPCG(c.seed, c.seed^0x9e3779b97f4a7c15))
	m := newModel(c.hidden, c.act, c.buckets, rng)
	if err := m.setLayout(c.layout, c.kingBucket); err != nil {
		return nil, err
	}
	if err := m.setFactor(c.factorise && c.layout == nnue.KingBuckets); err != nil {
		return nil, err
	}
	opt := newAdam(m, c.lr)
	st := progress{LR: c.lr, BestLoss: math.Inf(1)}
	var best *model
	resumed := false
	if c.resume != "" {
		ck, err := loadCheckpoint(c.resume, c.lr)
		if err != nil {
			return nil, err
		}
		m, opt = ck.m, ck.a
		if c.shapeDiffers(m) || c.hiddenSet && m.h != c.hidden {
			asked := c.layout
			if !c.set["layout"] {
				asked = m.layout
			}
			return nil, fmt.Errorf("--resume %s: the checkpoint is H=%d %s with %d output buckets, %s, the flags ask for H=%d %s with %d, %s",
				c.resume, m.h, m.act, m.buckets, layoutName(m.layout, m.factor), c.hidden, c.act, c.buckets, layoutName(asked, c.factorise))
		}
		if ck.state == nil {
			fmt.Fprintf(stdout, "resumed from %s after %d steps: the weights and Adam's moments of a checkpoint without the run's state, trained from epoch 1\n", c.resume, opt.t)
		} else {
			if err := c.adopt(ck.key); err != nil {
				return nil, err
			}
			key := c.runKey(train, valid)
			if k := *ck.key; k.Train != key.Train || k.Valid != key.Valid || k.TrainSum != key.TrainSum || k.ValidSum != key.ValidSum {
				return nil, fmt.Errorf("--resume %s: the checkpoint's run trained on %d positions and validated on %d (checksums %016x, %016x), these are %d and %d (%016x, %016x): give the same --data in the same order and the same --holdout, --block, --limit, --train-limit, --train-min-ply, --train-skip, --train-from-ply and --seed",
					c.resume, k.Train, k.Valid, k.TrainSum, k.ValidSum, key.Train, key.Valid, key.TrainSum, key.ValidSum)
			}
			if ck.key.Threads != key.Threads {
				fmt.Fprintf(stdout, "note: the checkpoint's run had %d threads, this one %d: sums are taken in another order, so it continues the run but not bit for bit\n", ck.key.Threads, key.Threads)
			}
			st, resumed = *ck.state, true
			if st.BestEpoch > 0 {
				b, err := loadCheckpoint(c.resume+".best", st.LR)
				if err != nil {
					return nil, fmt.Errorf("the best epoch's checkpoint: %w", err)
				}
				best = b.m
			}
			fmt.Fprintf(stdout, "resumed from %s: %d epochs and %d positions of epoch %d done, %d steps\n", c.resume, st.Epoch, st.Done, st.Epoch+1, opt.t)
		}
	}
	if c.init != "" {
		net, err := nnue.LoadFile(c.init)
		if err != nil {
			return nil, err
		}
		if m, err = modelFromNet(net); err != nil {
			return nil, fmt.Errorf("--init %s: %w", c.init, err)
		}
		if c.set["layout"] && (m.layout != c.layout || m.kingBucket != c.kingBucket) {
			fmt.Fprintf(stdout, "the %s net's weights start a net of the %s layout\n", m.layout, c.layout)
			if err := m.setLayout(c.layout, c.kingBucket); err != nil {
				return nil, fmt.Errorf("--init %s: %w", c.init, err)
			}
		}
		if err := m.setFactor(c.factorise); err != nil {
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
	if c.mirror && m.layout != nnue.Plain {
		return nil, fmt.Errorf("--mirror with the %s layout: a position and its mirror image have the same inputs, so it would only count each position twice", m.layout)
	}
	key := c.runKey(train, valid)
	lc := lossConfig{scale: c.scale, wdl: c.wdl}
	work := make([]*scratch, c.threads)
	for i := range work {
		work[i] = m.newScratch()
	}
	sched := fmt.Sprintf("x%g per epoch", c.gamma)
	if c.cosine {
		sched = fmt.Sprintf("cosine to %g over %d epochs", c.lrEnd, c.epochs)
	}
	fmt.Fprintf(stdout, "H=%d %s, %d output buckets, %s, batch %d, lr %g (%s), scale %g, wdl %g, %d threads, seed %d\n",
		m.h, m.act, m.buckets, layoutName(m.layout, m.factor), c.batch, c.lr, sched, c.scale, c.wdl, c.threads, c.seed)
	if !resumed {
		fmt.Fprintf(stdout, "epoch 0  validation %.6f\n", m.evalLoss(valid, lc, work))
	}
	n := train.len()
	if c.mirror {
		n *= 2 // i >= train.len() stands for the file-mirrored copy
	}
	if n > math.MaxUint32 {
		return nil, fmt.Errorf("%d training positions: at most %d (half as many with --mirror)", train.len(), uint32(math.MaxUint32))
	}
	idx := make([]uint32, n)
	save := func() error {
		if err := m.save(c.checkpoint, opt, &key, &st); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
		return nil
	}
	start := time.Now()
	saved := start
	var last time.Duration
	for e := int(st.Epoch) + 1; e <= c.epochs; e++ {
		if st.Done == 0 && c.maxTime > 0 && time.Since(start)+last > c.maxTime {
			fmt.Fprintf(stdout, "stopping: another epoch would pass --max-time %v\n", c.maxTime)
			break
		}
		t := time.Now()
		shuffle(idx, c.seed, e)
		for int(st.Done) < n {
			batch := idx[st.Done:min(int(st.Done)+c.batch, n)]
			st.TrainLoss += m.step(train, batch, lc, work)
			if c.cosine {
				opt.lr = c.cosineLR(e, st.Done, uint64(n))
			}
			opt.apply(m, work, len(batch))
			st.Done += uint64(len(batch))
			stop := ctx.Err() != nil || c.stopAfter > 0 && opt.t >= c.stopAfter
			if stop || c.checkpointEvery > 0 && time.Since(saved) >= c.checkpointEvery {
				if err := save(); err != nil {
					return nil, err
				}
				saved = time.Now()
			}
			if stop {
				fmt.Fprintf(stdout, "interrupted in epoch %d after %d of %d positions; checkpoint %s\n", e, st.Done, n, c.checkpoint)
				again := ""
				if c.matchScale != "" {
					again = " and --match-scale " + c.matchScale
				}
				return nil, fmt.Errorf("%w: continue with --resume %s and the same --data, --holdout, --block, --limit and --train-limit%s", errInterrupted, c.checkpoint, again)
			}
		}
		last = time.Since(t)
		vl := m.evalLoss(valid, lc, work)
		fmt.Fprintf(stdout, "epoch %d  lr %.6f  train %.6f  validation %.6f  (%v)\n",
			e, opt.lr, st.TrainLoss/float64(n), vl, last.Round(time.Second))
		st.Epoch, st.Done, st.TrainLoss = uint32(e), 0, 0
		stopEarly := false
		if math.IsNaN(vl) { // no validation set: nothing to compare
		} else if vl < st.BestLoss {
			st.BestLoss, st.BestEpoch = vl, uint32(e)
			best = m.clone()
			if err := m.save(c.checkpoint+".best", opt, &key, &st); err != nil {
				return nil, fmt.Errorf("checkpoint: %w", err)
			}
		} else if c.patience > 0 && e-int(st.BestEpoch) >= c.patience {
			stopEarly = true
		}
		if !c.cosine {
			opt.lr *= c.gamma
		}
		st.LR = opt.lr
		if err := save(); err != nil {
			return nil, err
		}
		saved = time.Now()
		if stopEarly {
			fmt.Fprintf(stdout, "stopping: no better validation loss for %d epochs\n", c.patience)
			break
		}
	}
	if c.keepBest && st.BestEpoch > 0 {
		fmt.Fprintf(stdout, "keeping epoch %d: the lowest validation loss, %.6f\n", st.BestEpoch, st.BestLoss)
		return best, nil
	}
	return m, nil
}

// finish quantises m, reports the quantisation error and the comparison
// with the hand-written evaluation on the validation set, and writes the net.
func finish(c config, m *model, valid *dataset, stdout io.Writer) error {
	if c.matchScale != "" {
		ref, err := nnue.LoadFile(c.matchScale)
		if err != nil {
			return err
		}
		k, n := evalSlope(ref, m, valid)
		if n == 0 {
			return fmt.Errorf("--match-scale: no validation position within ±%d cp of %s's evaluation to fit on", matchWithin, c.matchScale)
		}
		clipped := m.scaleOutput(k)
		fmt.Fprintf(stdout, "output layer times %.4f: the evaluations' least-squares match to %s over %d validation positions", k, c.matchScale, n)
		if clipped > 0 {
			fmt.Fprintf(stdout, " (%d output weights held at the clip)", clipped)
		}
		fmt.Fprintln(stdout)
	}
	if _, k := m.foldedW1(); k > 0 {
		fmt.Fprintf(stdout, "%d first-layer weights held at the clip (±%g) where a king bucket's row and the shared one add up beyond it\n", k, wClip)
	}
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
	fmt.Fprintf(stdout, "wrote %s (H=%d %s, %d output buckets, %s layout)\n", c.out, net.H, net.Act, net.Buckets(), net.Layout)
	return nil
}

// layoutName names a layout in the run's messages: "kingbuckets layout,
// factorised" with the shared rows of --factorise.
func layoutName(l nnue.Layout, factor bool) string {
	if factor {
		return l.String() + " layout, factorised"
	}
	return l.String() + " layout"
}

// matchWithin bounds the reference's evaluations that --match-scale fits.
const matchWithin = 1000

// evalSlope returns k minimising the squared differences between ref's
// evaluations and k times m's, over the positions of d that ref scores
// within ±matchWithin cp, and their number.
func evalSlope(ref *nnue.Net, m *model, d *dataset) (float64, int) {
	acc := ref.NewAccumulators(1)
	s := m.newScratch()
	var feats []uint16
	var sxy, sxx float64
	n := 0
	for i := range d.len() {
		feats = d.features(i, feats[:0])
		acc[0].RefreshFeatures(ref, feats)
		y := float64(ref.Evaluate(&acc[0], d.side(i)))
		if math.Abs(y) > matchWithin {
			continue
		}
		s.us, s.them = m.features(d, i, false, m.net(), s.us, s.them)
		x := float64(m.forward(s, s.us, s.them)) * netScale
		sxy += x * y
		sxx += x * x
		n++
	}
	if n == 0 || sxx == 0 {
		return 1, 0
	}
	return sxy / sxx, n
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
	var feats []uint16
	var s *scratch
	if m != nil {
		s = m.newScratch()
	}
	var sumAbs, maxAbs float64
	for i := range n {
		feats = d.features(i, feats[:0])
		acc[0].RefreshFeatures(net, feats)
		intCP[i] = float64(net.Evaluate(&acc[0], d.side(i)))
		hand[i] = float64(d.hand(i))
		if m != nil {
			s.us, s.them = m.features(d, i, false, m.net(), s.us, s.them)
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
		if i%cleanEvery == 0 {
			cleanUpper()
		}
		s += sq(sigmoid(x/predScale) - float64(lc.target(d.score(i), d.result(i))))
	}
	return s / float64(len(cp))
}

// cleanEvery is how many iterations of a scalar float loop may run between
// two cleanUpper calls: a few microseconds, against sysmon's 10 ms.
const cleanEvery = 1024

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
