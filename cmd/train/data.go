package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"strconv"
	"strings"

	"github.com/kingrook/kingrook/cmd/internal/selfplay"
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
)

// Reader yields training positions one at a time. Another data format
// plugs in by implementing it and adding a case to openReader.
type Reader interface {
	// Next returns the next position with its search score in centipawns
	// and its game's result (1, 0.5 or 0), both from White's view. The
	// position stays valid until the next call. At the end it returns
	// io.EOF; a malformed record is an error wrapping errSkip and reading
	// may go on.
	Next() (pos *movegen.Position, score int, result float64, err error)
}

// errSkip marks a malformed record that the loader counts and skips.
var errSkip = errors.New("malformed record")

// readCloser closes a file and whatever reads it (a gzip stream, an
// iterator).
type readCloser struct {
	closers []func() error
}

func (c *readCloser) Close() error {
	var first error
	for i := len(c.closers) - 1; i >= 0; i-- {
		if err := c.closers[i](); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// openReader opens path with the reader its content calls for: files that
// start with the self-play magic ("KRSP", cmd/datagen's binary output) are
// read as whole games, selected with selfplay.TrainingFilter like the shared
// corpus; .txt files as "FEN | score | result" lines. Either may be
// gzip-compressed (a .gz name).
func openReader(path string) (Reader, io.Closer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	c := &readCloser{closers: []func() error{f.Close}}
	var in io.Reader = f
	name := path
	if strings.HasSuffix(name, ".gz") {
		z, err := gzip.NewReader(f)
		if err != nil {
			c.Close()
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		c.closers = append(c.closers, z.Close)
		in, name = z, strings.TrimSuffix(name, ".gz")
	}
	br := bufio.NewReaderSize(in, 1<<16)
	head, err := br.Peek(len(selfplay.Magic))
	if err != nil && !errors.Is(err, io.EOF) {
		c.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case string(head) == selfplay.Magic:
		b := newBinReader(br)
		c.closers = append(c.closers, func() error { b.stop(); return nil })
		return b, c, nil
	case strings.HasSuffix(name, ".txt"):
		return newTextReader(br), c, nil
	}
	c.Close()
	return nil, nil, fmt.Errorf("%s: unknown data format (want text .txt or self-play binary games, either optionally .gz)", path)
}

// binReader reads the training positions of self-play binary games.
type binReader struct {
	next func() (*selfplay.Sample, error, bool)
	stop func()
}

func newBinReader(r io.Reader) *binReader {
	next, stop := iter.Pull2(selfplay.NewReader(r).Positions(selfplay.TrainingFilter))
	return &binReader{next: next, stop: stop}
}

func (b *binReader) Next() (*movegen.Position, int, float64, error) {
	s, err, ok := b.next()
	switch {
	case !ok:
		return nil, 0, 0, io.EOF
	case err != nil:
		return nil, 0, 0, err // corrupt data: the games after it cannot be found
	}
	return s.Pos, s.Score, s.Result, nil
}

// textReader reads "FEN | score | result" lines: score in centipawns and
// result 1.0/0.5/0.0, both from White's view. Blank and '#' lines are skipped.
type textReader struct {
	sc  *bufio.Scanner
	pos *movegen.Position
}

func newTextReader(r io.Reader) *textReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	return &textReader{sc: sc, pos: movegen.NewPosition()}
}

func (t *textReader) Next() (*movegen.Position, int, float64, error) {
	for t.sc.Scan() {
		line := strings.TrimSpace(t.sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 3 {
			return nil, 0, 0, fmt.Errorf("%w: want FEN | score | result: %q", errSkip, line)
		}
		score, err := strconv.Atoi(strings.TrimSpace(parts[1]))
		if err != nil {
			return nil, 0, 0, fmt.Errorf("%w: score: %v", errSkip, err)
		}
		result, err := strconv.ParseFloat(strings.TrimSpace(parts[2]), 64)
		if err != nil || (result != 0 && result != 0.5 && result != 1) {
			return nil, 0, 0, fmt.Errorf("%w: result %q", errSkip, parts[2])
		}
		if err := t.pos.SetFEN(strings.TrimSpace(parts[0])); err != nil {
			return nil, 0, 0, fmt.Errorf("%w: %v", errSkip, err)
		}
		return t.pos, score, result, nil
	}
	if err := t.sc.Err(); err != nil {
		return nil, 0, 0, err
	}
	return nil, 0, 0, io.EOF
}

// dataset holds positions compactly: the White-perspective features of
// sample i are feats[off[i]:off[i+1]].
type dataset struct {
	feats  []uint16
	off    []uint32
	stm    []movegen.Color
	score  []int16   // centipawns, side to move's view
	result []float32 // side to move's view
	hand   []int16   // hand-written evaluation, side to move's view (validation only)
}

func newDataset() *dataset { return &dataset{off: []uint32{0}} }

func (d *dataset) len() int { return len(d.stm) }

// truncate keeps the first n samples.
func (d *dataset) truncate(n int) {
	d.feats = d.feats[:d.off[n]]
	d.off = d.off[:n+1]
	d.stm, d.score, d.result = d.stm[:n], d.score[:n], d.result[:n]
	if len(d.hand) > n {
		d.hand = d.hand[:n]
	}
}

func (d *dataset) features(i int) []uint16 { return d.feats[d.off[i]:d.off[i+1]] }

func (d *dataset) add(pos *movegen.Position, score int, result float64, withHand bool) {
	d.feats = nnue.AppendFeatures(d.feats, pos)
	d.off = append(d.off, uint32(len(d.feats)))
	stm := pos.SideToMove()
	if stm == movegen.Black {
		score, result = -score, 1-result
	}
	d.stm = append(d.stm, stm)
	d.score = append(d.score, int16(max(min(score, eval.Mate), -eval.Mate))) // the search's score range
	d.result = append(d.result, float32(result))
	if withHand {
		d.hand = append(d.hand, int16(eval.Evaluate(pos)))
	}
}

type loadStats struct {
	read, bad, train, valid int
}

// load reads every file into a training and a validation set: every
// holdout-th block of block consecutive positions (in file order, so whole
// games stay on one side, bar the block edges) goes to validation; holdout
// 0 keeps nothing back. limit > 0 stops after that many positions.
func load(paths []string, holdout, block, limit int) (train, valid *dataset, st loadStats, err error) {
	train, valid = newDataset(), newDataset()
	for _, path := range paths {
		r, c, err := openReader(path)
		if err != nil {
			return nil, nil, st, err
		}
		for limit <= 0 || st.read < limit {
			pos, score, result, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if isSkip(err) {
					st.bad++
					continue
				}
				c.Close()
				return nil, nil, st, fmt.Errorf("%s: %w", path, err)
			}
			if holdout > 0 && (st.read/block)%holdout == holdout-1 {
				valid.add(pos, score, result, true)
				st.valid++
			} else {
				train.add(pos, score, result, false)
				st.train++
			}
			st.read++
		}
		c.Close()
	}
	return train, valid, st, nil
}

func isSkip(err error) bool { return errors.Is(err, errSkip) }
