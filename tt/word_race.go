//go:build race

package tt

import "sync/atomic"

// word is one 64-bit word of an entry. Under the race detector it is a
// sync/atomic word, so that the lock-free sharing of the table between
// search threads, racy by design, is not reported (word_norace.go).
type word struct{ v atomic.Uint64 }

func (w *word) Load() uint64   { return w.v.Load() }
func (w *word) Store(v uint64) { w.v.Store(v) }
