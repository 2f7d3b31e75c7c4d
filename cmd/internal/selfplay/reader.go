package selfplay

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"

	"github.com/kingrook/kingrook/movegen"
)

// Reader reads games from the binary format. A partial game at the end of
// the input is dropped (Truncated tells its size): readers see complete
// games only.
type Reader struct {
	r         *bufio.Reader
	off       int64 // offset after the last complete record or header
	truncated int64
	started   bool // a header was read
	headers   int  // headers read
	headerOff int64
	meta      Meta // the metadata of the last header read
	rec       []byte
	pos       movegen.Position // the game being read
	sample    Sample
}

// NewReader returns a Reader of the games in r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 1<<16)}
}

// Truncated returns the size in bytes of the partial record dropped at the
// end of the input, 0 when the input ended after a complete game.
func (r *Reader) Truncated() int64 { return r.truncated }

// Offset returns the offset after the last complete game or header read.
func (r *Reader) Offset() int64 { return r.off }

// readFull reads len(b) bytes; a short read at the end of the input marks
// the record as truncated and returns io.EOF.
func (r *Reader) readFull(b []byte, done int) error {
	n, err := io.ReadFull(r.r, b)
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		r.truncated = int64(done + n)
		return io.EOF
	}
	return err
}

// readRecord reads the next game record into r.rec, skipping headers (of
// concatenated files). It returns io.EOF at the end of the input.
func (r *Reader) readRecord() error {
	for {
		first, err := r.r.Peek(1)
		if errors.Is(err, io.EOF) {
			return io.EOF
		}
		if err != nil {
			return err
		}
		if first[0] != Magic[0] {
			break
		}
		if err := r.readHeader(); err != nil {
			return err
		}
	}
	if !r.started {
		return fmt.Errorf("%w: no %q header: not a self-play game file", ErrCorrupt, Magic)
	}
	rec := r.rec[:0]
	rec = append(rec, make([]byte, 9)...)
	if err := r.readFull(rec, 0); err != nil {
		return err
	}
	if rec[0] > WhiteWins {
		return fmt.Errorf("%w at offset %d: result %d", ErrCorrupt, r.off, rec[0])
	}
	occ := binary.LittleEndian.Uint64(rec[1:])
	n := len(rec)
	rec = append(rec, make([]byte, startSize(occ)-8+2)...)
	if err := r.readFull(rec[n:], n); err != nil {
		return err
	}
	plies := int(binary.LittleEndian.Uint16(rec[len(rec)-2:]))
	n = len(rec)
	rec = append(rec, make([]byte, 4*plies)...)
	if err := r.readFull(rec[n:], n); err != nil {
		return err
	}
	r.rec = rec
	return nil
}

// readHeader reads a header of either version.
func (r *Reader) readHeader() error {
	h := make([]byte, headerSize+4)
	if err := r.readFull(h[:headerSize], 0); err != nil {
		return err
	}
	if string(h[:4]) != Magic {
		return fmt.Errorf("%w at offset %d: bad magic %q", ErrCorrupt, r.off, h[:4])
	}
	size := headerSize
	var meta Meta
	switch v := binary.LittleEndian.Uint32(h[4:]); v {
	case 1:
	case 2:
		if err := r.readFull(h[headerSize:], headerSize); err != nil {
			return err
		}
		n := binary.LittleEndian.Uint32(h[headerSize:])
		if n > MaxMetaSize {
			return fmt.Errorf("%w at offset %d: metadata of %d bytes", ErrCorrupt, r.off, n)
		}
		js := make([]byte, n)
		if err := r.readFull(js, headerSize+4); err != nil {
			return err
		}
		if err := json.Unmarshal(js, &meta); err != nil || meta == nil {
			return fmt.Errorf("%w at offset %d: metadata: not a JSON object of strings", ErrCorrupt, r.off)
		}
		size += 4 + int(n)
	default:
		return fmt.Errorf("selfplay: offset %d: format version %d, this build reads 1 and %d", r.off, v, Version)
	}
	r.headerOff = r.off
	r.off += int64(size)
	r.started = true
	r.headers++
	r.meta = meta
	return nil
}

// Meta returns the metadata of the last header read: that of the games
// read since; nil after a version 1 header.
func (r *Reader) Meta() Meta { return r.meta }

// skipGame reads past one record without decoding it.
func (r *Reader) skipGame() error {
	if err := r.readRecord(); err != nil {
		return err
	}
	r.off += int64(len(r.rec))
	return nil
}

// decode sets r.pos to the record's start position, checks that every
// move is legal, and returns the record's result and its plies' bytes.
func (r *Reader) decode() (result byte, plies []byte, err error) {
	occ := binary.LittleEndian.Uint64(r.rec[1:])
	size := startSize(occ)
	fen, err := decodeStart(r.rec[1 : 1+size])
	if err == nil {
		err = r.pos.SetFEN(fen)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%w at offset %d: start position: %v", ErrCorrupt, r.off, err)
	}
	plies = r.rec[1+size+2:]
	n := len(plies) / 4
	for i := range n {
		m, _ := ply(plies, i)
		if !r.pos.IsLegal(m) {
			return 0, nil, fmt.Errorf("%w at offset %d: ply %d: illegal move %s in %s", ErrCorrupt, r.off, i,
				m.UCI(true), r.pos.FEN(true))
		}
		r.pos.Make(m)
	}
	for range n {
		r.pos.Unmake()
	}
	return r.rec[0], plies, nil
}

// ply returns the i-th move and score of a record's plies.
func ply(plies []byte, i int) (movegen.Move, int) {
	m := movegen.Move(binary.LittleEndian.Uint16(plies[4*i:]))
	s := int(int16(binary.LittleEndian.Uint16(plies[4*i+2:])))
	return m, s
}

// ReadGame reads the next game into g (a new Start; its Plies reuse their
// storage). Every move is checked to be legal.
// It returns io.EOF after the last complete game.
func (r *Reader) ReadGame(g *Game) error {
	if err := r.readRecord(); err != nil {
		return err
	}
	result, plies, err := r.decode()
	if err != nil {
		return err
	}
	g.Plies = g.Plies[:0]
	for i := range len(plies) / 4 {
		m, s := ply(plies, i)
		g.Plies = append(g.Plies, Ply{Move: m, Score: int16(s)})
	}
	g.Start = r.pos.Clone()
	g.Result = result
	r.off += int64(len(r.rec))
	return nil
}

// Sample is one training position: the position before a move of a game,
// the move played there, its score and the game's result.
type Sample struct {
	Pos    *movegen.Position // valid until the next sample
	Move   movegen.Move      // the move played (the search's best move in self-play)
	Score  int               // centipawns from White's view, or a mate score (IsMate)
	Result float64           // the game's result from White's view: 1, 0.5 or 0
	Ply    int               // plies since the game's stored start position
}

// FEN returns the sample's position as FEN with Shredder castling letters.
func (s *Sample) FEN() string { return s.Pos.FEN(true) }

// Text returns the sample as a line of the text format, without line end:
// "FEN | score | result", the score in centipawns from White's view, the
// result 1.0, 0.5 or 0.0 from White's view.
func (s *Sample) Text() string {
	return s.FEN() + " | " + strconv.Itoa(s.Score) + " | " + strconv.FormatFloat(s.Result, 'f', 1, 64)
}

// Filter selects the samples a reader yields. The zero Filter yields every
// position that has a score.
type Filter struct {
	MinPly    int  // skip the first plies of each game (from its stored start)
	MaxScore  int  // skip |score| >= MaxScore; 0: no limit
	SkipMate  bool // skip mate scores
	SkipCheck bool // skip positions with the side to move in check
	QuietOnly bool // skip positions whose move is a capture, en passant or a promotion
}

// TrainingFilter is the selection of the shared text corpus
// (shared/data/selfplay): from ply 12, not in check, the move played quiet
// (castling counts as quiet), |score| < 2000 and not a mate score.
var TrainingFilter = Filter{MinPly: 12, MaxScore: 2000, SkipMate: true, SkipCheck: true, QuietOnly: true}

// Keep tells whether the position pos, where m was played, with score s
// (White's view) at ply plies from the game's start, passes f.
func (f *Filter) Keep(pos *movegen.Position, m movegen.Move, s, ply int) bool {
	switch {
	case s == NoScore, ply < f.MinPly:
		return false
	case f.SkipMate && IsMate(s):
		return false
	case f.MaxScore > 0 && (s >= f.MaxScore || s <= -f.MaxScore):
		return false
	case f.SkipCheck && pos.InCheck():
		return false
	case f.QuietOnly && !IsQuiet(pos, m):
		return false
	}
	return true
}

// IsQuiet tells whether m is neither a capture, en passant nor a promotion
// (castling, encoded as king takes own rook, is quiet).
func IsQuiet(pos *movegen.Position, m movegen.Move) bool {
	switch m.Kind() {
	case movegen.Castling:
		return true
	case movegen.EnPassant, movegen.Promotion:
		return false
	}
	return pos.PieceOn(m.To()) == movegen.NoPiece
}

// Positions yields the positions of the remaining games that pass f, game
// by game, and then stops; a read error is yielded once, with a nil sample.
// The Sample is reused: copy what must outlive the iteration step.
func (r *Reader) Positions(f Filter) iter.Seq2[*Sample, error] {
	return func(yield func(*Sample, error) bool) {
		for {
			err := r.readRecord()
			if errors.Is(err, io.EOF) {
				return
			}
			var result byte
			var plies []byte
			if err == nil {
				result, plies, err = r.decode()
			}
			if err != nil {
				yield(nil, err)
				return
			}
			s := &r.sample
			s.Pos, s.Result = &r.pos, ResultValue(result)
			for i := range len(plies) / 4 {
				m, score := ply(plies, i)
				if f.Keep(&r.pos, m, score, i) {
					s.Move, s.Score, s.Ply = m, score, i
					if !yield(s, nil) {
						r.off += int64(len(r.rec))
						return
					}
				}
				r.pos.Make(m)
			}
			r.off += int64(len(r.rec))
		}
	}
}

// Counts are the sizes of some games: games, plies, and positions that a
// filter keeps.
type Counts struct {
	Games, Plies, Positions int64
}

// Add adds o to c.
func (c *Counts) Add(o Counts) {
	c.Games += o.Games
	c.Plies += o.Plies
	c.Positions += o.Positions
}

// CountGame returns the counts of one game, its positions those that f
// keeps.
func CountGame(g *Game, f Filter) Counts {
	c := Counts{Games: 1, Plies: int64(len(g.Plies))}
	pos := g.Start.Clone()
	for i, p := range g.Plies {
		if f.Keep(pos, p.Move, int(p.Score), i) {
			c.Positions++
		}
		pos.Make(p.Move)
	}
	return c
}

// Segment is the part of a file that follows one header: the games of one
// run of the tool that wrote them, with that header's metadata.
type Segment struct {
	Offset int64 // of its header
	End    int64 // after its last complete game
	Meta   Meta  // nil for a version 1 header
	Counts
}

// Segments reads the remaining games (checking every move, as ReadGame
// does) and returns the segments they lie in with their counts, positions
// counted by f. A partial game at the end is dropped, as everywhere
// (Truncated tells its size); a header with no game after it is a segment
// of no games.
func (r *Reader) Segments(f Filter) ([]Segment, error) {
	var segs []Segment
	seen := r.headers
	sync := func() {
		if r.headers != seen {
			seen = r.headers
			segs = append(segs, Segment{Offset: r.headerOff, End: r.off, Meta: r.meta})
		}
	}
	for {
		err := r.readRecord()
		sync()
		if errors.Is(err, io.EOF) {
			return segs, nil
		}
		if err != nil {
			return segs, err
		}
		_, plies, err := r.decode()
		if err != nil {
			return segs, err
		}
		if len(segs) == 0 { // the rest of a segment begun before this call
			segs = append(segs, Segment{Offset: r.headerOff, Meta: r.meta})
		}
		s := &segs[len(segs)-1]
		s.Games++
		for i := range len(plies) / 4 {
			m, score := ply(plies, i)
			s.Plies++
			if f.Keep(&r.pos, m, score, i) {
				s.Positions++
			}
			r.pos.Make(m)
		}
		r.off += int64(len(r.rec))
		s.End = r.off
	}
}
