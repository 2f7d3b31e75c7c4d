package tt

import "unsafe"

// prefetch asks the processor to bring the cache line at addr into its
// caches without waiting for it (PREFETCHT0); it never faults.
//
//go:noescape
func prefetch(addr unsafe.Pointer)
