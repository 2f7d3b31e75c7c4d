package selfplay

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Writer writes games in the binary format. It is not safe for concurrent
// use. Each game is encoded whole before any of it is written, so a Writer
// that is flushed between games leaves complete games only.
type Writer struct {
	w       *bufio.Writer
	f       *os.File // the file, when the Writer opened it
	buf     []byte
	header  []byte // written before the first game (or at the first Flush when must)
	must    bool   // the output is new: the header is written even without games
	games   int
	written int64 // bytes handed to w (header included)
	base    int64 // the offset in the file where the Writer began
}

// NewWriter returns a Writer of games to w, which it starts with a version
// 1 header (a version 2 one after SetMeta). The header is written with the
// first game, or at the first Flush or Close.
func NewWriter(w io.Writer) (*Writer, error) {
	return &Writer{w: bufio.NewWriterSize(w, 1<<16), header: header(1), must: true}, nil
}

// header returns a file header without metadata of version v.
func header(v uint32) []byte {
	return binary.LittleEndian.AppendUint32([]byte(Magic), v)
}

// metaHeader returns the version 2 header carrying m.
func metaHeader(m Meta) ([]byte, error) {
	js, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	if len(js) > MaxMetaSize {
		return nil, fmt.Errorf("selfplay: metadata of %d bytes, at most %d", len(js), MaxMetaSize)
	}
	b := binary.LittleEndian.AppendUint32(header(2), uint32(len(js)))
	return append(b, js...), nil
}

// SetMeta makes the Writer begin its games with a version 2 header
// carrying m: in place of the version 1 header of a new output, or, when
// appending to a file that holds games, before the first game this Writer
// writes (and not at all if it writes none). It must be called before the
// first game is written.
func (w *Writer) SetMeta(m Meta) error {
	if w.games > 0 || w.written > 0 {
		return errors.New("selfplay: SetMeta after the first game")
	}
	h, err := metaHeader(m)
	if err != nil {
		return err
	}
	w.header = h
	return nil
}

// OpenAppend opens path for appending games, creating it (with its header)
// when it does not exist or is empty. An existing file must be in this
// format; a partial game at its end (a process killed while writing) is
// cut off first. It returns the Writer and the number of complete games
// already in the file.
func OpenAppend(path string) (*Writer, int, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, err
	}
	end, games, err := scan(f)
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	if err := f.Truncate(end); err != nil {
		f.Close()
		return nil, 0, err
	}
	if _, err := f.Seek(end, io.SeekStart); err != nil {
		f.Close()
		return nil, 0, err
	}
	w := &Writer{w: bufio.NewWriterSize(f, 1<<16), f: f, base: end}
	if end == 0 {
		w.header, w.must = header(1), true
	}
	return w, games, nil
}

// scan reads a file's records without replaying their moves and returns
// the offset after its last complete game or header (0 for an empty file)
// and the number of complete games.
func scan(f *os.File) (end int64, games int, err error) {
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, 0, err
	}
	r := NewReader(f)
	for {
		err := r.skipGame()
		if errors.Is(err, io.EOF) {
			if r.off == 0 && r.truncated > 0 {
				// A partial header: nothing worth keeping.
				return 0, 0, nil
			}
			return r.off, games, nil
		}
		if err != nil {
			return 0, 0, err
		}
		games++
	}
}

// Write appends one game. Its plies must be legal moves from g.Start; the
// scores are stored as given.
func (w *Writer) Write(g *Game) error {
	if len(g.Plies) > MaxPlies {
		return fmt.Errorf("selfplay: game of %d plies, at most %d", len(g.Plies), MaxPlies)
	}
	if g.Result > WhiteWins {
		return fmt.Errorf("selfplay: bad result %d", g.Result)
	}
	b := append(w.buf[:0], g.Result)
	b = appendStart(b, g.Start)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(g.Plies)))
	for _, p := range g.Plies {
		b = binary.LittleEndian.AppendUint16(b, uint16(p.Move))
		b = binary.LittleEndian.AppendUint16(b, uint16(p.Score))
	}
	w.buf = b
	if err := w.writeHeader(); err != nil {
		return err
	}
	if _, err := w.w.Write(b); err != nil {
		return err
	}
	w.written += int64(len(b))
	w.games++
	return nil
}

// writeHeader writes the pending header, if any.
func (w *Writer) writeHeader() error {
	if w.header == nil {
		return nil
	}
	if _, err := w.w.Write(w.header); err != nil {
		return err
	}
	w.written += int64(len(w.header))
	w.header, w.must = nil, false
	return nil
}

// Games returns the number of games written by this Writer.
func (w *Writer) Games() int { return w.games }

// Offset returns the size the output has once flushed: for a file opened
// by OpenAppend, its complete games' size; otherwise the bytes written.
func (w *Writer) Offset() int64 { return w.base + w.written }

// Flush writes the buffered games to the underlying writer (and the header
// of a new output, even before any game).
func (w *Writer) Flush() error {
	if w.must {
		if err := w.writeHeader(); err != nil {
			return err
		}
	}
	return w.w.Flush()
}

// Close flushes, and closes the file when the Writer opened it.
func (w *Writer) Close() error {
	err := w.Flush()
	if w.f != nil {
		if cerr := w.f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
