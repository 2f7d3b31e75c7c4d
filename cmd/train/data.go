package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc64"
	"io"
	"iter"
	"math"
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
//
// early > 0 also yields, from binary games, the positions of the early
// plies before the filter's first (ply 12 of the stored game, after the
// random opening moves): from ply 12-early on; the reader's early method
// tells them apart.
func openReader(path string, early int) (Reader, io.Closer, error) {
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
		b := newBinReader(br, early)
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
	next    func() (*selfplay.Sample, error, bool)
	stop    func()
	isEarly bool // the last position came before selfplay.TrainingFilter's first ply
}

// newBinReader reads the positions selfplay.TrainingFilter selects, and
// those it would select but for their ply from the early plies before its
// first.
func newBinReader(r io.Reader, early int) *binReader {
	f := selfplay.TrainingFilter
	f.MinPly = max(0, f.MinPly-early)
	next, stop := iter.Pull2(selfplay.NewReader(r).Positions(f))
	return &binReader{next: next, stop: stop}
}

// early tells whether the last position Next returned is one of the early
// plies, before selfplay.TrainingFilter's first.
func (b *binReader) early() bool { return b.isEarly }

func (b *binReader) Next() (*movegen.Position, int, float64, error) {
	s, err, ok := b.next()
	switch {
	case !ok:
		return nil, 0, 0, io.EOF
	case err != nil:
		return nil, 0, 0, err // corrupt data: the games after it cannot be found
	}
	b.isEarly = s.Ply < selfplay.TrainingFilter.MinPly
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

// record is one training position in 32 bytes: its pieces (the occupancy,
// and each occupied square's movegen.Piece as a nibble, in ascending square
// order, low nibble first, as cmd/internal/selfplay stores a start position),
// the side to move and the labels in the side to move's view. The features
// of both perspectives, mirrored or not, are computed from it when a batch
// needs them.
type record struct {
	occ    uint64   // bit i: square i occupied (a1 = 0)
	pieces [16]byte // up to 32 pieces
	score  int16    // centipawns, clamped to the search's range
	hand   int16    // the hand-written evaluation (validation positions only)
	stm    movegen.Color
	result uint8 // 0 loss, 1 draw, 2 win
}

// recordSize is the memory of a record, padding included (a test checks
// it).
const recordSize = 32

// chunkBits sets the records per chunk of a dataset (1<<chunkBits, 8 MiB):
// a dataset grows a chunk at a time, never copying what it holds.
const chunkBits = 18

// dataset holds positions as records, in chunks of 1<<chunkBits.
type dataset struct {
	chunks [][]record
	n      int
}

func newDataset() *dataset { return &dataset{} }

func (d *dataset) len() int { return d.n }

func (d *dataset) rec(i int) *record { return &d.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

// truncate keeps the first n samples.
func (d *dataset) truncate(n int) {
	d.n = n
	d.chunks = d.chunks[:(n+1<<chunkBits-1)>>chunkBits]
	if len(d.chunks) > 0 {
		last := &d.chunks[len(d.chunks)-1]
		*last = (*last)[:n-(len(d.chunks)-1)<<chunkBits]
	}
}

// score returns sample i's score in centipawns, side to move's view.
func (d *dataset) score(i int) int16 { return d.rec(i).score }

// result returns sample i's result (1, 0.5 or 0), side to move's view.
func (d *dataset) result(i int) float32 { return float32(d.rec(i).result) / 2 }

// hand returns sample i's hand-written evaluation (validation samples).
func (d *dataset) hand(i int) int16 { return d.rec(i).hand }

// side returns sample i's side to move.
func (d *dataset) side(i int) movegen.Color { return d.rec(i).stm }

// each calls f with every piece of r and its square, in square order.
func (r *record) each(f func(pc movegen.Piece, sq movegen.Square)) {
	k := 0
	for occ := movegen.Bitboard(r.occ); occ != 0; k++ {
		f(movegen.Piece(r.pieces[k>>1]>>(4*(k&1))&15), occ.PopLSB())
	}
}

// features appends the White-perspective feature indices of sample i to
// dst (nnue.AppendFeatures of its position).
func (d *dataset) features(i int, dst []uint16) []uint16 {
	d.rec(i).each(func(pc movegen.Piece, sq movegen.Square) {
		dst = append(dst, uint16(nnue.FeatureIndex(movegen.White, pc, sq)))
	})
	return dst
}

// add appends a position with its score and result (White's view); the
// hand-written evaluation is stored with withHand. A position of more than
// 32 pieces, which no game reaches, is not added (false).
func (d *dataset) add(pos *movegen.Position, score int, result float64, withHand bool) bool {
	occ := pos.Occupied()
	if occ.Count() > 32 {
		return false
	}
	r := record{occ: uint64(occ), stm: pos.SideToMove()}
	k := 0
	for o := occ; o != 0; k++ {
		r.pieces[k>>1] |= byte(pos.PieceOn(o.PopLSB())) << (4 * (k & 1))
	}
	if r.stm == movegen.Black {
		score, result = -score, 1-result
	}
	r.score = int16(max(min(score, eval.Mate), -eval.Mate)) // the search's score range
	r.result = uint8(math.Round(2 * result))
	if withHand {
		r.hand = int16(eval.Evaluate(pos))
	}
	if d.n>>chunkBits == len(d.chunks) {
		d.chunks = append(d.chunks, make([]record, 0, 1<<chunkBits))
	}
	c := &d.chunks[len(d.chunks)-1]
	*c = append(*c, r)
	d.n++
	return true
}

// checksum returns a CRC-64 of every sample's position and labels, which
// tells whether two runs read the same data in the same order.
func (d *dataset) checksum() uint64 {
	table := crc64.MakeTable(crc64.ECMA)
	var crc uint64
	buf := make([]byte, 0, 4096*28)
	for _, c := range d.chunks {
		for k := range c {
			r := &c[k]
			buf = binary.LittleEndian.AppendUint64(buf, r.occ)
			buf = append(buf, r.pieces[:]...)
			buf = binary.LittleEndian.AppendUint16(buf, uint16(r.score))
			buf = append(buf, byte(r.stm), r.result)
			if len(buf) == cap(buf) {
				crc = crc64.Update(crc, table, buf)
				buf = buf[:0]
			}
		}
	}
	return crc64.Update(crc, table, buf)
}

type loadStats struct {
	read, bad, train, valid int
	dropped                 int // training positions trainFilter left out
	early                   int // early positions (trainFilter.early) added to the training set, in train, not in read
}

// trainFilter leaves training positions out after the split, so that the
// validation set, and the blocks that choose it, stay those of the run
// without it: the held-out losses of runs with and without a filter compare.
// The zero value keeps every position.
type trainFilter struct {
	minPly int     // leave out positions before this game ply (from the full-move number)
	skip   float64 // leave out each position with this probability
	seed   uint64  // of the skip's draw, which depends on the seed and the position's index alone
	// early > 0 adds to the training set the positions of binary games'
	// early plies that selfplay.TrainingFilter leaves out for their ply
	// alone: from ply 12-early of the stored game (after the random
	// opening moves) on. They train only where their game's block does
	// and do not count as read, so the blocks stay the same.
	early int
}

// keep tells whether the training position pos, the i-th position read,
// is kept.
func (f trainFilter) keep(pos *movegen.Position, i int) bool {
	if f.minPly > 0 && gamePly(pos) < f.minPly {
		return false
	}
	if f.skip > 0 {
		// splitmix64 of the seed and the index: the same draw for the same
		// position in every run, whatever else the flags change.
		z := f.seed*0x9e3779b97f4a7c15 + uint64(i) + 1
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		z ^= z >> 31
		if float64(z>>11)/(1<<53) < f.skip {
			return false
		}
	}
	return true
}

// gamePly is the ply of pos counted from its full-move number: 0 at move 1
// with White to move. Datagen's games start at move 1, so it is the ply
// within the game; a text position's FEN carries its own count.
func gamePly(pos *movegen.Position) int {
	return 2*(pos.FullMove()-1) + int(pos.SideToMove())
}

// load reads every file into a training and a validation set: every
// holdout-th block of block consecutive positions (in file order, so whole
// games stay on one side, bar the block edges) goes to validation; holdout
// 0 keeps nothing back. limit > 0 stops after that many positions. Training
// positions that f leaves out count as read, so the blocks are the same.
func load(ctx context.Context, paths []string, holdout, block, limit int, f trainFilter) (train, valid *dataset, st loadStats, err error) {
	train, valid = newDataset(), newDataset()
	earlyRead := 0
	for _, path := range paths {
		r, c, err := openReader(path, f.early)
		if err != nil {
			return nil, nil, st, err
		}
		er, _ := r.(interface{ early() bool })
		for limit <= 0 || st.read < limit {
			if st.read&0xffff == 0 && ctx.Err() != nil {
				c.Close()
				return nil, nil, st, ctx.Err()
			}
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
			toValid := holdout > 0 && (st.read/block)%holdout == holdout-1
			if er != nil && er.early() {
				// The block of the game's first position that counts:
				// training or nothing. The skip's draw takes indices
				// apart from the counted positions'.
				earlyRead++
				if toValid || !f.keep(pos, 1<<62|earlyRead) {
					continue
				}
				if train.add(pos, score, result, false) {
					st.train++
					st.early++
				} else {
					st.bad++
				}
				continue
			}
			if !toValid && !f.keep(pos, st.read) {
				st.dropped++
				st.read++
				continue
			}
			d := train
			if toValid {
				d = valid
			}
			if !d.add(pos, score, result, toValid) {
				st.bad++
				continue
			}
			if toValid {
				st.valid++
			} else {
				st.train++
			}
			st.read++
		}
		c.Close()
	}
	return train, valid, st, nil
}

func isSkip(err error) bool { return errors.Is(err, errSkip) }
