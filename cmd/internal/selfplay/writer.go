package selfplay

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// Writer writes games in the binary format. It is not safe for concurrent
// use. Each game is encoded whole before any of it is written, so a Writer
// that is flushed between games leaves complete games only.
type Writer struct {
	w     *bufio.Writer
	f     *os.File // the file, when the Writer opened it
	buf   []byte
	games int
}

// NewWriter writes the header to w and returns a Writer of games to it.
func NewWriter(w io.Writer) (*Writer, error) {
	sw := &Writer{w: bufio.NewWriterSize(w, 1<<16)}
	if _, err := sw.w.Write(header()); err != nil {
		return nil, err
	}
	return sw, nil
}

// header returns the file header.
func header() []byte {
	return binary.LittleEndian.AppendUint32([]byte(Magic), Version)
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
	if end == 0 {
		w, err := NewWriter(f)
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		w.f = f
		return w, 0, nil
	}
	return &Writer{w: bufio.NewWriterSize(f, 1<<16), f: f}, games, nil
}

// scan reads a file's records without replaying their moves and returns
// the offset after its last complete game (0 for an empty file) and the
// number of complete games.
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
	if _, err := w.w.Write(b); err != nil {
		return err
	}
	w.games++
	return nil
}

// Games returns the number of games written by this Writer.
func (w *Writer) Games() int { return w.games }

// Flush writes the buffered games to the underlying writer.
func (w *Writer) Flush() error { return w.w.Flush() }

// Close flushes, and closes the file when the Writer opened it.
func (w *Writer) Close() error {
	err := w.w.Flush()
	if w.f != nil {
		if cerr := w.f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}
