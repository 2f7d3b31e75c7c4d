//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package syzygy

import (
	"os"
	"syscall"
)

// openSource maps a table file read-only into memory: probes then read it
// without a system call, and the kernel pages in only what they touch.
func openSource(path string) (source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	if size <= 0 || size != int64(int(size)) {
		return &memSource{}, nil
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &memSource{b: b, unmap: func() { _ = syscall.Munmap(b) }}, nil
}
