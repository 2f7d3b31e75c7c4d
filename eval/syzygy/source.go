package syzygy

import (
	"errors"
	"os"
)

// source gives read access to one table file. Implementations are safe for
// concurrent use.
type source interface {
	// size is the length of the file in bytes.
	size() int64
	// bytes returns n bytes from offset off. It may return a view into a
	// mapping (do not modify it) or a fresh buffer.
	bytes(off, n int64) ([]byte, error)
	// resident tells whether bytes returns views of memory that stay valid
	// until close, so a caller may keep them instead of copying.
	resident() bool
	close()
}

var errRange = errors.New("syzygy: read past the end of the table file")

// memSource is a table file in memory (a mapping).
type memSource struct {
	b     []byte
	unmap func()
}

func (m *memSource) size() int64    { return int64(len(m.b)) }
func (m *memSource) resident() bool { return true }

func (m *memSource) bytes(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off+n > int64(len(m.b)) {
		return nil, errRange
	}
	return m.b[off : off+n : off+n], nil
}

func (m *memSource) close() {
	if m.unmap != nil {
		m.unmap()
	}
}

// fileSource reads a table file with ReadAt at every access.
type fileSource struct {
	f *os.File
	n int64
}

func (s *fileSource) size() int64    { return s.n }
func (s *fileSource) resident() bool { return false }

func (s *fileSource) bytes(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off+n > s.n {
		return nil, errRange
	}
	b := make([]byte, n)
	if _, err := s.f.ReadAt(b, off); err != nil {
		return nil, err
	}
	return b, nil
}

func (s *fileSource) close() { s.f.Close() }

// openReadAt opens a table file to be read with ReadAt.
func openReadAt(path string) (source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &fileSource{f: f, n: st.Size()}, nil
}
