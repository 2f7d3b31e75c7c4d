//go:build !race

package tt

// word is one 64-bit word of an entry. Without the race detector its loads
// and stores are plain moves: an aligned 64-bit access is indivisible on
// every platform Go supports for 64-bit words, and Go's memory model lets a
// racing load of a word see only some stored value, never a mix, which is
// all the check word's test needs (a torn entry reads as a miss). A
// sync/atomic store is an XCHG on amd64, a full barrier of some twenty
// cycles, and the table stores twice for most nodes.
type word struct{ v uint64 }

func (w *word) Load() uint64   { return w.v }
func (w *word) Store(v uint64) { w.v = v }

// word32 is an entry's 32-bit check word, a plain word like word.
type word32 struct{ v uint32 }

func (w *word32) Load() uint32   { return w.v }
func (w *word32) Store(v uint32) { w.v = v }
