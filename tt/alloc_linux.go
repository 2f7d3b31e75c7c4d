//go:build linux

package tt

import (
	"runtime"
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on x86-64 and arm64.
const hugePage = 2 << 20

// madvHugepage is MADV_HUGEPAGE, which the syscall package does not name.
const madvHugepage = 14

// region is a table's memory mapped outside the Go heap. Its cleanup unmaps
// it when the table that holds it is dropped without release.
type region struct {
	mem     []byte
	cleanup runtime.Cleanup
}

// allocBuckets returns n zeroed buckets. On Linux they live in an anonymous
// mapping aligned to 2 MiB and marked MADV_HUGEPAGE, so that the kernel may
// back them with transparent huge pages (with the "madvise" setting, the
// default of most distributions): a probe then seldom misses the TLB, where
// with 4 KiB pages a 16 MiB table spans 4096 pages, more than the
// processor's TLB holds. The Go heap does not ask for huge pages. Falls back
// to the Go heap when the mapping fails.
func allocBuckets(n int) ([]bucket, *region) {
	size := n * bucketBytes
	mem, err := syscall.Mmap(-1, 0, size+hugePage, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return make([]bucket, n), nil
	}
	off := 0
	if r := uintptr(unsafe.Pointer(&mem[0])) % hugePage; r != 0 {
		off = int(hugePage - r)
	}
	_ = syscall.Madvise(mem[off:off+size], madvHugepage) // advice only: without it the table works the same
	r := &region{mem: mem}
	r.cleanup = runtime.AddCleanup(r, func(m []byte) { _ = syscall.Munmap(m) }, mem)
	return unsafe.Slice((*bucket)(unsafe.Pointer(&mem[off])), n), r
}

// release unmaps r at once (nil: nothing to do).
func (r *region) release() {
	if r == nil {
		return
	}
	r.cleanup.Stop()
	_ = syscall.Munmap(r.mem)
}
