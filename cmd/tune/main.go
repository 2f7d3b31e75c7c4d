// Command tune fits Kingrook's evaluation weights to game results (Texel
// tuning): it reads "FEN result" lines, takes the linear form of each
// evaluation, fits the sigmoid scaling K, then runs full-batch Adam on the
// mean squared error between results and predicted scores, and writes the
// rounded weights as eval/params_tuned.go. See README.md in this folder.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/kingrook/kingrook/eval"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "tune:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tune", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "", "training data: one `FEN result` per line (required)")
	out := fs.String("out", filepath.Join("eval", "params_tuned.go"), "Go file to write the tuned weights to")
	from := fs.String("from", "default", "starting weights: default (the current ones) or hand")
	epochs := fs.Int("epochs", 1000, "Adam steps over the whole data")
	lr := fs.Float64("lr", 1, "Adam learning rate, in centipawns per step")
	k := fs.Float64("k", 0, "sigmoid scaling K; 0 fits it to the starting weights")
	threads := fs.Int("threads", runtime.NumCPU(), "worker goroutines")
	freeze := fs.String("freeze", "", "comma-separated term groups to keep fixed (e.g. \"Material,Tempo\")")
	limit := fs.Int("limit", 0, "use at most this many positions (0: all)")
	keepCheck := fs.Bool("keep-check", false, "keep positions with the side to move in check")
	report := fs.Int("report", 50, "print the loss every this many epochs")
	l2 := fs.Float64("l2", 0, "pull toward the starting weights: adds l2·Σ(w-w0)² to the loss (try 1e-7 on small data)")
	holdout := fs.Int("holdout", 10, "keep every N-th block of 1000 positions out of training to report a validation loss (0: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *data == "" {
		fs.Usage()
		return fmt.Errorf("--data is required")
	}
	var start eval.Params
	switch *from {
	case "default":
		start = eval.DefaultParams()
	case "hand":
		start = eval.HandParams()
	default:
		return fmt.Errorf("--from %q: want default or hand", *from)
	}

	f, err := os.Open(*data)
	if err != nil {
		return err
	}
	defer f.Close()
	t0 := time.Now()
	d, st, err := load(f, eval.NewEvaluator(&start), *keepCheck, *limit)
	if err != nil {
		return fmt.Errorf("reading %s: %w", *data, err)
	}
	fmt.Fprintf(stdout, "read %d lines in %v: %d used, %d dead draws, %d in check, %d malformed\n",
		st.lines, time.Since(t0).Round(time.Millisecond), st.used, st.drawn, st.inCheck, st.bad)
	if len(d.samples) == 0 {
		return fmt.Errorf("no usable positions in %s", *data)
	}

	train, valid := d.split(*holdout, 1000)
	if len(train.samples) == 0 {
		train, valid = d, &dataset{}
	}
	fmt.Fprintf(stdout, "training on %d positions, validating on %d\n", len(train.samples), len(valid.samples))
	t := newTuner(train, &start, *threads)
	t.l2 = *l2
	v := newTuner(valid, &start, *threads)
	v.w = t.w // the same weights, scored on the held-out positions
	if err := t.freeze(strings.Split(*freeze, ",")); err != nil {
		return err
	}
	if *k == 0 {
		*k = t.fitK()
	}
	before, vBefore := t.pass(*k, nil), v.pass(*k, nil)
	fmt.Fprintf(stdout, "K = %.4f, starting loss %.6f, validation %.6f\n", *k, before, vBefore)
	t0 = time.Now()
	after := t.adam(*k, *epochs, *lr, *report, func(e int, loss float64) {
		fmt.Fprintf(stdout, "epoch %5d  loss %.6f  validation %.6f  (%v)\n", e, loss, v.pass(*k, nil), time.Since(t0).Round(time.Second))
	})
	vAfter := v.pass(*k, nil)
	fmt.Fprintf(stdout, "final loss %.6f (from %.6f), validation %.6f (from %.6f)\n", after, before, vAfter, vBefore)

	p := t.params()
	note := fmt.Sprintf("Data: %s (%d positions, %d held out), K = %.4f, %d epochs at lr %g, from %s weights.\n"+
		"Mean squared error %.6f -> %.6f, held out %.6f -> %.6f.",
		filepath.Base(*data), len(train.samples), len(valid.samples), *k, *epochs, *lr, *from, before, after, vBefore, vAfter)
	src, err := eval.FormatParams(&p, note)
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}
