package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/kingrook/kingrook/cmd/internal/cli"
	"github.com/kingrook/kingrook/cmd/internal/selfplay"
)

// maxWarnings bounds the skipped games reported one by one.
const maxWarnings = 10

// openInputs calls each with every named file in turn ("-" or none: stdin).
func openInputs(names []string, stdin io.Reader, each func(name string, r io.Reader) error) error {
	if len(names) == 0 {
		names = []string{"-"}
	}
	for _, name := range names {
		if name == "-" {
			if err := each("stdin", stdin); err != nil {
				return err
			}
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		err = each(name, f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// runPGN converts PGN games with evaluation comments to the binary format.
func runPGN(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := cli.SubFlags("datagen pgn", "[--out FILE] [PGN...]", stderr)
	out := fs.String("out", "", "binary output file, appended to when it exists (default stdout)")
	if code, done := cli.Parse(fs, args, stdout, stderr); done {
		return code
	}
	var w *selfplay.Writer
	var err error
	if *out == "" {
		w, err = selfplay.NewWriter(stdout)
	} else {
		w, _, err = selfplay.OpenAppend(*out)
	}
	if err != nil {
		return fail(stderr, exitFailure, "%v", err)
	}
	games, skipped, plies := 0, 0, 0
	err = openInputs(fs.Args(), stdin, func(name string, r io.Reader) error {
		pr := selfplay.NewPGNReader(bufio.NewReader(r))
		for {
			g, err := pr.Next()
			if errors.Is(err, io.EOF) {
				return nil
			}
			var pe *selfplay.PGNError
			if errors.As(err, &pe) {
				skipped++
				if skipped <= maxWarnings {
					fmt.Fprintf(stderr, "datagen pgn: %s: %v\n", name, pe)
				}
				continue
			}
			if err != nil {
				return err
			}
			if err := w.Write(g); err != nil {
				return err
			}
			games++
			plies += len(g.Plies)
		}
	})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	fmt.Fprintf(stderr, "datagen pgn: %d games, %d plies converted; %d games skipped\n", games, plies, skipped)
	if err != nil {
		return fail(stderr, exitFailure, "pgn: %v", err)
	}
	return exitOK
}

// runExport prints the positions of binary game files as text.
func runExport(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := cli.SubFlags("datagen export", "[--all] [FILE...]", stderr)
	all := fs.Bool("all", false, "every position with a score, not only the training selection")
	if code, done := cli.Parse(fs, args, stdout, stderr); done {
		return code
	}
	filter := selfplay.TrainingFilter
	if *all {
		filter = selfplay.Filter{}
	}
	bw := bufio.NewWriter(stdout)
	n := 0
	err := openInputs(fs.Args(), stdin, func(name string, r io.Reader) error {
		sr := selfplay.NewReader(r)
		for s, err := range sr.Positions(filter) {
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			bw.WriteString(s.Text())
			bw.WriteByte('\n')
			n++
		}
		if t := sr.Truncated(); t > 0 {
			fmt.Fprintf(stderr, "datagen export: %s: a partial game of %d bytes at the end, dropped\n", name, t)
		}
		return nil
	})
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	fmt.Fprintf(stderr, "datagen export: %d positions\n", n)
	if err != nil {
		return fail(stderr, exitFailure, "export: %v", err)
	}
	return exitOK
}
