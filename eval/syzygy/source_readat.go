//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package syzygy

// openSource opens a table file to be read on demand with ReadAt (systems
// where this package does not memory-map).
func openSource(path string) (source, error) { return openReadAt(path) }
