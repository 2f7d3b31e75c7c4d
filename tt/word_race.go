//go:build race

package tt

import "sync/atomic"

// word is one 64-bit word of an entry. Under the race detector it is a
// sync/atomic word, so that the lock-free sharing of the table between
// search threads, racy by design, is not reported (word_norace.go).
type word struct{ v atomic.Uint64 }

func (w *word) Load() uint64   { return w.v.Load() }
func (w *word) Store(v uint64) { w.v.Store(v) }

// word32 is an entry's 32-bit check word, a sync/atomic word like word.
type word32 struct{ v atomic.Uint32 }

func (w *word32) Load() uint32   { return w.v.Load() }
func (w *word32) Store(v uint32) { w.v.Store(v) }
