// Package tt is Kingrook's shared transposition table: a fixed-size hash of
// search results that several search goroutines read and write without locks.
//
// The table is an array of 64-byte buckets (one cache line), each holding
// five entries of twelve bytes: the five data words first, then the five
// check words, then four bytes of padding.
//
//	check word (32 bits): the key's low 32 bits ^ the high 32 bits of data × an odd constant
//	data word (64 bits):
//	  bits  0-15  move (movegen.Move)
//	  bits 16-31  score, int16, as given to Store
//	  bits 32-47  static eval, int16
//	  bits 48-55  depth + DepthOffset, 1..255 (0 marks an empty slot)
//	  bits 56-57  bound (Bound)
//	  bit  58     PV node flag
//	  bits 59-63  generation (search age, modulo 32)
//
// A writer stores the data word and then the check word; a reader loads both
// and accepts the entry only when the check word is the one the probed key
// and the data word give. Two writers racing on one slot, or a reader seeing
// half of a write, leave a pair that fails this test (all but about once in
// 2^32), so a torn entry reads as a miss rather than as wrong data. The
// words are plain loads and stores (an aligned word is never torn itself),
// and sync/atomic ones under the race detector, so that `go test -race`
// stays clean (word_race.go, word_norace.go).
//
// The key's high bits choose the bucket (below) and its low 32 bits are in
// the check: with 2^18 buckets (16 MiB) a hit matches 50 bits of the key.
// Five entries a line rather than four of full keys hold a quarter more
// positions in the same memory.
//
// The table gives no meaning to scores: it stores the int it is given
// (clamped to int16) and returns it. The search stores mate scores relative
// to the node and converts them back for the probing ply (eval.ScoreToTT and
// eval.ScoreFromTT), so that they stay right when a position is reached at
// another ply.
//
// A bucket is chosen from the key by a multiply-high, (key*n)>>64, so the
// table holds exactly Hash MiB of buckets whatever the size, a power of two
// or not.
package tt

import (
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/kingrook/kingrook/movegen"
)

// Bound tells how a stored score relates to the true value of the node.
type Bound uint8

// Bound values.
const (
	// BoundNone: no score information (for instance an eval-only entry).
	BoundNone Bound = 0
	// BoundUpper: the true score is at most Score (fail low).
	BoundUpper Bound = 1
	// BoundLower: the true score is at least Score (fail high).
	BoundLower Bound = 2
	// BoundExact: Score is the true score (PV node).
	BoundExact Bound = 3
)

// Table sizes, in MiB.
const (
	// MinMB is the smallest table size.
	MinMB = 1
	// MaxMB is the largest table size.
	MaxMB = 65536
	// DefaultMB is the engine's default Hash size.
	DefaultMB = 16
)

// DepthOffset is added to a depth before it is stored in the entry's depth
// byte, so that quiescence depths (negative) fit. Stored depths are clamped to
// 1-DepthOffset .. 255-DepthOffset (-31 .. 223).
const DepthOffset = 32

// Replacement and maintenance parameters.
const (
	// ageWeight is how many plies of depth one generation of age is worth
	// when choosing which entry of a full bucket to replace.
	ageWeight = 8
	// sameKeyDepthMargin: a non-exact result for a key already stored
	// overwrites the old entry (of the current generation) only when its
	// depth is greater than the old depth minus this margin.
	sameKeyDepthMargin = 4
	// hashfullSample is the number of entries Hashfull inspects.
	hashfullSample = 1000
	// parallelClearMB is the table size from which Clear uses several
	// goroutines.
	parallelClearMB = 64
)

const (
	entriesPerBucket = 5
	bucketBytes      = 64
	bytesPerMB       = 1 << 20

	scoreShift = 16
	evalShift  = 32
	depthShift = 48
	boundShift = 56
	pvShift    = 58
	genShift   = 59

	genBits = 5
	genMask = 1<<genBits - 1

	int16Min = -1 << 15
	int16Max = 1<<15 - 1
)

// bucket is one cache line of entries: entry i is data[i] with check[i].
type bucket struct {
	data  [entriesPerBucket]word
	check [entriesPerBucket]word32
	_     [bucketBytes - entriesPerBucket*12]byte
}

// checkOf is the check word of an entry of key holding data. The data word
// is mixed (the high half of a product with an odd constant depends on every
// bit of it), so that two data words that differ in a few fields do not
// give the same check: a reader seeing one write's data with another's
// check word would otherwise take the pair for an entry.
func checkOf(key, data uint64) uint32 {
	return uint32(key) ^ uint32(data*0x9e3779b97f4a7c15>>32)
}

// The layout above relies on this size; the build fails if it changes.
var _ [bucketBytes - unsafe.Sizeof(bucket{})]struct{}
var _ [unsafe.Sizeof(bucket{}) - bucketBytes]struct{}

// Entry is one decoded table entry.
type Entry struct {
	Move  movegen.Move
	Score int // as stored, clamped to int16
	Eval  int
	Depth int
	Bound Bound
	PV    bool
}

// Table is the transposition table. Probe, Store and Hashfull may be
// called from several goroutines at once; Resize and Clear must not run while
// anything else uses the table. NewSearch may run at any time. Make one with
// New (or Resize the zero Table before use): the zero Table is not usable.
type Table struct {
	buckets []bucket
	mem     *region // the memory of buckets when it is mapped outside the Go heap (alloc_linux.go)
	mb      int
	gen     atomic.Uint32 // current generation, 0..genMask
}

// New returns an empty table of mb MiB (clamped to MinMB..MaxMB).
func New(mb int) *Table {
	t := &Table{}
	t.alloc(clampMB(mb))
	return t
}

func clampMB(mb int) int {
	return min(max(mb, MinMB), MaxMB)
}

// alloc replaces the bucket array with a zeroed one of mb MiB. Both a
// mapping and the Go allocator's large objects start on a page boundary, so
// every bucket sits on one cache line (TestBucketsAligned checks it).
func (t *Table) alloc(mb int) {
	t.buckets, t.mem = allocBuckets(mb * (bytesPerMB / bucketBytes))
	t.mb = mb
	t.gen.Store(0)
}

// Resize reallocates the table at mb MiB (clamped to MinMB..MaxMB) and clears
// it. Resizing to the current size only clears.
func (t *Table) Resize(mb int) {
	mb = clampMB(mb)
	if mb == t.mb && t.buckets != nil {
		t.Clear()
		return
	}
	// Let the old array go before taking the new one so that memory use
	// does not peak at both sizes together.
	t.buckets = nil
	t.mem.release()
	t.mem = nil
	runtime.GC()
	t.alloc(mb)
}

// SizeMB returns the table size in MiB.
func (t *Table) SizeMB() int { return t.mb }

// Clear empties every entry and resets the generation. Big tables are
// cleared by several goroutines.
func (t *Table) Clear() {
	workers := 1
	if t.mb >= parallelClearMB {
		workers = runtime.GOMAXPROCS(0)
	}
	t.clearWith(workers)
}

// clearWith zeroes the table in workers contiguous chunks, in parallel.
func (t *Table) clearWith(workers int) {
	n := len(t.buckets)
	workers = min(max(workers, 1), n)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() { clear(t.buckets[lo:hi]) })
	}
	wg.Wait()
	t.gen.Store(0)
}

// NewSearch advances the generation, ageing every stored entry by one.
func (t *Table) NewSearch() {
	for {
		g := t.gen.Load()
		if t.gen.CompareAndSwap(g, (g+1)&genMask) {
			return
		}
	}
}

// index returns the bucket of key.
func (t *Table) index(key uint64) int {
	hi, _ := bits.Mul64(key, uint64(len(t.buckets)))
	return int(hi)
}

// Prefetch starts loading the bucket of key into the processor's caches, so
// that a Probe or Store of key shortly after does not wait on memory.
func (t *Table) Prefetch(key uint64) {
	prefetch(unsafe.Pointer(&t.buckets[t.index(key)]))
}

// Probe looks key up and returns its entry on a hit.
func (t *Table) Probe(key uint64) (Entry, bool) {
	if p, ok := t.ProbePacked(key); ok {
		return p.Entry(), true
	}
	return Entry{}, false
}

// ProbePacked looks key up and returns its entry on a hit as the table
// holds it, one word that the methods of Packed read field by field: the
// search's probe, which so passes the entry in a register (an Entry, of
// six fields, goes through memory).
func (t *Table) ProbePacked(key uint64) (Packed, bool) {
	b := &t.buckets[t.index(key)]
	for i := range entriesPerBucket {
		data := b.data[i].Load()
		if data == 0 || b.check[i].Load() != checkOf(key, data) {
			continue
		}
		return Packed(data), true
	}
	return 0, false
}

// Store records a search result for key. score and eval are clamped to the
// int16 range, depth as DepthOffset says.
//
// Replacement: an entry for the same key is overwritten unless it is of the
// current generation, the new bound is not exact and the new depth is at
// least sameKeyDepthMargin below the old one; in that case only its move (if
// move is not NoMove) and generation are refreshed. Storing NoMove keeps the
// move already stored for the key. Otherwise the new result goes to an empty
// slot or, in a full bucket, replaces the entry with the least
// depth - ageWeight*age.
func (t *Table) Store(key uint64, move movegen.Move, score, eval, depth int, bound Bound, pv bool) {
	b := &t.buckets[t.index(key)]
	gen := uint64(t.gen.Load())

	victim, victimValue := 0, math.MaxInt
	for i := range entriesPerBucket {
		data := b.data[i].Load()
		if data == 0 {
			if victimValue != math.MinInt {
				victim, victimValue = i, math.MinInt // the first empty slot
			}
			continue
		}
		if b.check[i].Load() == checkOf(key, data) {
			b.storeSameKey(i, key, data, gen, move, score, eval, depth, bound, pv)
			return
		}
		age := int((gen - data>>genShift) & genMask)
		if v := int(data>>depthShift&0xff) - ageWeight*age; v < victimValue {
			victim, victimValue = i, v
		}
	}
	b.write(victim, key, encode(move, score, eval, depth, bound, pv, gen))
}

// storeSameKey applies the same-key replacement rule to entry i, which holds
// key with data old.
func (b *bucket) storeSameKey(i int, key, old, gen uint64, move movegen.Move, score, eval, depth int, bound Bound, pv bool) {
	if move == movegen.NoMove {
		move = movegen.Move(old)
	}
	oldDepth := int(old>>depthShift&0xff) - DepthOffset
	sameGen := old>>genShift == gen
	if bound != BoundExact && sameGen && depth <= oldDepth-sameKeyDepthMargin {
		// Keep the deeper result; refresh its move and age.
		data := old&^(0xffff|genMask<<genShift) | uint64(move) | gen<<genShift
		if data != old {
			b.write(i, key, data)
		}
		return
	}
	b.write(i, key, encode(move, score, eval, depth, bound, pv, gen))
}

// write stores entry i: data first, then the check word.
func (b *bucket) write(i int, key, data uint64) {
	b.data[i].Store(data)
	b.check[i].Store(checkOf(key, data))
}

func clampInt16(v int) uint64 {
	return uint64(uint16(int16(min(max(v, int16Min), int16Max))))
}

// encode packs an entry's fields into a data word (see the package comment).
func encode(move movegen.Move, score, eval, depth int, bound Bound, pv bool, gen uint64) uint64 {
	d := uint64(min(max(depth+DepthOffset, 1), 255))
	data := uint64(move) |
		clampInt16(score)<<scoreShift |
		clampInt16(eval)<<evalShift |
		d<<depthShift |
		uint64(bound&3)<<boundShift |
		gen<<genShift
	if pv {
		data |= 1 << pvShift
	}
	return data
}

// decode unpacks a data word.
func decode(data uint64) Entry {
	p := Packed(data)
	return Entry{Move: p.Move(), Score: p.Score(), Eval: p.Eval(), Depth: p.Depth(), Bound: p.Bound(), PV: p.PV()}
}

// Packed is an entry as the table stores it (ProbePacked); each method
// decodes one field, as Entry holds it.
type Packed uint64

// Move is the entry's move (NoMove for none).
func (p Packed) Move() movegen.Move { return movegen.Move(p) }

// Score is the score as stored.
func (p Packed) Score() int { return int(int16(p >> scoreShift)) }

// Eval is the static evaluation as stored.
func (p Packed) Eval() int { return int(int16(p >> evalShift)) }

// Depth is the depth as stored (see DepthOffset).
func (p Packed) Depth() int { return int(p>>depthShift&0xff) - DepthOffset }

// Bound is the score's bound.
func (p Packed) Bound() Bound { return Bound(p >> boundShift & 3) }

// PV tells whether the entry was stored by a PV node.
func (p Packed) PV() bool { return p>>pvShift&1 != 0 }

// Entry decodes every field.
func (p Packed) Entry() Entry { return decode(uint64(p)) }

// Hashfull returns how full the table is, in entries per mille, counting
// entries of the current generation among the first hashfullSample entries.
func (t *Table) Hashfull() int {
	gen := uint64(t.gen.Load())
	nb := min((hashfullSample+entriesPerBucket-1)/entriesPerBucket, len(t.buckets))
	used := 0
	for i := range t.buckets[:nb] {
		for j := range entriesPerBucket {
			data := t.buckets[i].data[j].Load()
			if data != 0 && data>>genShift == gen {
				used++
			}
		}
	}
	return used * 1000 / (nb * entriesPerBucket)
}
