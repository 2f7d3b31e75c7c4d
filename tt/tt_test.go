package tt

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/kingrook/kingrook/movegen"
)

// bucketKeys returns n distinct keys that all index bucket b of t.
func bucketKeys(tb testing.TB, t *Table, b, n int) []uint64 {
	tb.Helper()
	// floor(b * 2^64 / len) + 1 is the first key whose multiply-high is b
	// (or its floor is exactly on the boundary); the next 2^64/len - 1 keys
	// stay in b.
	q, _ := bits.Div64(uint64(b), 0, uint64(len(t.buckets)))
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = q + 1 + uint64(i)*7919
		if got := t.index(keys[i]); got != b {
			tb.Fatalf("key %#x indexes bucket %d, want %d", keys[i], got, b)
		}
	}
	return keys
}

func mustProbe(tb testing.TB, t *Table, key uint64) Entry {
	tb.Helper()
	e, ok := t.Probe(key)
	if !ok {
		tb.Fatalf("Probe(%#x): miss, want hit", key)
	}
	return e
}

func TestRoundTrip(t *testing.T) {
	sq := movegen.NewSquare
	cases := []struct {
		name string
		e    Entry
	}{
		{"plain", Entry{movegen.NewMove(sq(4, 1), sq(4, 3)), 35, 20, 7, BoundExact, true}},
		{"negative score and eval", Entry{movegen.NewMove(sq(6, 7), sq(5, 5)), -412, -3000, 12, BoundUpper, false}},
		{"quiescence depth", Entry{movegen.NewPromotion(sq(0, 6), sq(1, 7), movegen.Queen), 900, -15, -1, BoundLower, false}},
		{"lowest depth", Entry{movegen.NewSpecial(sq(4, 0), sq(7, 0), movegen.Castling), -1, 1, 1 - DepthOffset, BoundNone, true}},
		{"highest depth", Entry{movegen.NewSpecial(sq(4, 4), sq(3, 5), movegen.EnPassant), 0, 0, 255 - DepthOffset, BoundExact, false}},
		{"no move, mate-sized scores as given", Entry{movegen.NoMove, 31990, -31990, 0, BoundUpper, false}},
		{"int16 edges", Entry{movegen.Move(0xffff), -1 << 15, 1<<15 - 1, 3, BoundLower, true}},
		{"most negative eval", Entry{movegen.NullMove, 5, -1 << 15, 2, BoundExact, true}},
	}
	tab := New(1)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := 0x9e3779b97f4a7c15 * uint64(i+1)
			tab.Store(key, c.e.Move, c.e.Score, c.e.Eval, c.e.Depth, c.e.Bound, c.e.PV)
			if got := mustProbe(t, tab, key); got != c.e {
				t.Errorf("got %+v, want %+v", got, c.e)
			}
			p, ok := tab.ProbePacked(key)
			got := Entry{p.Move(), p.Score(), p.Eval(), p.Depth(), p.Bound(), p.PV()}
			if !ok || got != c.e || p.Entry() != c.e {
				t.Errorf("ProbePacked: %v, fields %+v, Entry %+v; want %+v", ok, got, p.Entry(), c.e)
			}
		})
	}
}

func TestClamping(t *testing.T) {
	tab := New(1)
	tab.Store(1, movegen.NoMove, 50, 100000, -100, BoundExact, false)
	e := mustProbe(t, tab, 1)
	if e.Depth != 1-DepthOffset || e.Eval != 1<<15-1 || e.Score != 50 {
		t.Errorf("low clamp: got %+v", e)
	}
	tab.Store(2, movegen.NoMove, -70000, -100000, 1000, BoundExact, false)
	e = mustProbe(t, tab, 2)
	if e.Depth != 255-DepthOffset || e.Eval != -1<<15 || e.Score != -1<<15 {
		t.Errorf("high clamp: got %+v", e)
	}
}

func TestMiss(t *testing.T) {
	tab := New(1)
	keys := bucketKeys(t, tab, 42, 2)
	if _, ok := tab.Probe(keys[0]); ok {
		t.Fatal("hit in an empty table")
	}
	tab.Store(keys[0], movegen.NewMove(1, 2), 5, 5, 5, BoundExact, false)
	if _, ok := tab.Probe(keys[1]); ok {
		t.Error("hit for another key of the same bucket")
	}
	if p, ok := tab.ProbePacked(keys[1]); ok || p != 0 {
		t.Errorf("ProbePacked: %v, %#x for another key of the same bucket", ok, uint64(p))
	}
	// Key zero stores and probes like any other key (empty slots are marked
	// by their depth byte, not by the key).
	if _, ok := tab.Probe(0); ok {
		t.Error("key 0 hits before being stored")
	}
	tab.Store(0, movegen.NoMove, 0, 0, 0, BoundNone, false)
	if e := mustProbe(t, tab, 0); e != (Entry{}) {
		t.Errorf("key 0: got %+v, want zero entry", e)
	}
}

// TestTornEntryMisses: an entry whose data word comes from one write and
// check word from another (two writers racing, or a reader between a
// writer's two stores) reads as a miss for either key.
func TestTornEntryMisses(t *testing.T) {
	tab := New(1)
	keys := bucketKeys(t, tab, 5, 2)
	tab.Store(keys[0], movegen.NewMove(1, 2), 10, 20, 5, BoundExact, false)
	b := &tab.buckets[5]
	oldCheck := b.check[0].Load()
	tab.Store(keys[0], movegen.NewMove(3, 4), -10, 7, 9, BoundLower, true) // same slot, new data
	b.check[0].Store(oldCheck)                                             // as if the check store were not seen yet
	if _, ok := tab.Probe(keys[0]); ok {
		t.Error("new data with the old check word: hit")
	}
	// Another key's write half done over the slot: its data, the old check.
	b.write(0, keys[0], b.data[0].Load())
	b.data[0].Store(encode(movegen.NewMove(5, 6), 1, 1, 3, BoundUpper, false, 0))
	for i, k := range keys {
		if _, ok := tab.Probe(k); ok {
			t.Errorf("key %d: hit on a half-written entry", i)
		}
	}
	// Data words that differ in fields which a plain fold of their halves
	// would cancel (move bits against eval bits) still give other checks.
	a := encode(movegen.Move(0x0123), 7, 0x10, 4, BoundExact, false, 0)
	c := encode(movegen.Move(0x0133), 7, 0x00, 4, BoundExact, false, 0)
	if uint32(a)^uint32(a>>32) != uint32(c)^uint32(c>>32) {
		t.Fatal("the test's data words do not fold alike")
	}
	tab.Store(keys[1], movegen.Move(0x0123), 7, 0x10, 4, BoundExact, false)
	for i := range entriesPerBucket {
		if b.data[i].Load() == a {
			b.data[i].Store(c) // another write's data under the first's check word
		}
	}
	if _, ok := tab.Probe(keys[1]); ok {
		t.Error("another write's data under the check word: hit")
	}
	// Every entry of a full bucket is found, and only by its own key.
	keys = bucketKeys(t, tab, 9, entriesPerBucket+1)
	for i, k := range keys[:entriesPerBucket] {
		tab.Store(k, movegen.NoMove, i, 0, 4, BoundExact, false)
	}
	for i, k := range keys[:entriesPerBucket] {
		if e := mustProbe(t, tab, k); e.Score != i {
			t.Errorf("full bucket, key %d: score %d", i, e.Score)
		}
	}
	if _, ok := tab.Probe(keys[entriesPerBucket]); ok {
		t.Error("full bucket: hit for a key never stored")
	}
}

func TestSameKeyReplacement(t *testing.T) {
	tab := New(1)
	const key = 0xdeadbeefcafef00d
	m1 := movegen.NewMove(12, 28)
	m2 := movegen.NewMove(6, 21)
	tab.Store(key, m1, 80, 10, 10, BoundLower, true)

	// A much shallower bound keeps the deep result but takes the new move.
	tab.Store(key, m2, -50, 11, 2, BoundUpper, false)
	want := Entry{m2, 80, 10, 10, BoundLower, true}
	if got := mustProbe(t, tab, key); got != want {
		t.Errorf("shallow bound: got %+v, want %+v", got, want)
	}
	// NoMove never erases the stored move.
	tab.Store(key, movegen.NoMove, 30, 12, 9, BoundUpper, false)
	want = Entry{m2, 30, 12, 9, BoundUpper, false}
	if got := mustProbe(t, tab, key); got != want {
		t.Errorf("NoMove store: got %+v, want %+v", got, want)
	}
	// An exact score replaces whatever its depth.
	tab.Store(key, m1, 7, 13, 1, BoundExact, true)
	want = Entry{m1, 7, 13, 1, BoundExact, true}
	if got := mustProbe(t, tab, key); got != want {
		t.Errorf("exact store: got %+v, want %+v", got, want)
	}
	// A deep entry from an earlier search gives way to a shallow new one.
	tab.Store(key, m1, 100, 0, 20, BoundLower, false)
	tab.NewSearch()
	tab.Store(key, m2, -5, 0, 2, BoundUpper, false)
	want = Entry{m2, -5, 0, 2, BoundUpper, false}
	if got := mustProbe(t, tab, key); got != want {
		t.Errorf("old generation: got %+v, want %+v", got, want)
	}
}

func TestBucketReplacement(t *testing.T) {
	tab := New(3) // not a power of two
	keys := bucketKeys(t, tab, 31337, entriesPerBucket+2)
	depths := []int{10, 12, 3, 8, 9}
	for i, d := range depths {
		tab.Store(keys[i], movegen.NewMove(movegen.Square(i), 40), i, 0, d, BoundExact, false)
	}
	// The bucket is full: a new key evicts the shallowest entry.
	tab.Store(keys[5], movegen.NewMove(5, 40), 5, 0, 1, BoundLower, false)
	if _, ok := tab.Probe(keys[2]); ok {
		t.Error("the depth-3 entry survived")
	}
	for _, i := range []int{0, 1, 3, 4, 5} {
		if e := mustProbe(t, tab, keys[i]); e.Score != i {
			t.Errorf("key %d: score %d, want %d", i, e.Score, i)
		}
	}
	// Another shallow key in the same search evicts the shallow newcomer,
	// never the deep entries.
	tab.Store(keys[6], movegen.NoMove, 6, 0, 2, BoundLower, false)
	for _, i := range []int{0, 1, 3, 4, 6} {
		mustProbe(t, tab, keys[i])
	}
	if _, ok := tab.Probe(keys[5]); ok {
		t.Error("the depth-1 newcomer survived")
	}
}

func TestOldGenerationReplaced(t *testing.T) {
	tab := New(1)
	keys := bucketKeys(t, tab, 777, 2*entriesPerBucket)
	for _, k := range keys[:entriesPerBucket] {
		tab.Store(k, movegen.NoMove, 1, 1, 20, BoundExact, true)
	}
	for range 3 {
		tab.NewSearch()
	}
	// 20 - 3*ageWeight < 1: each old entry is now worth less than a fresh
	// depth-1 one, so as many new keys take the whole bucket.
	for _, k := range keys[entriesPerBucket:] {
		tab.Store(k, movegen.NoMove, 2, 2, 1, BoundUpper, false)
	}
	for i, k := range keys {
		_, ok := tab.Probe(k)
		if ok != (i >= entriesPerBucket) {
			t.Errorf("key %d: hit %v, want %v", i, ok, i >= entriesPerBucket)
		}
	}
}

func TestGenerationWraps(t *testing.T) {
	tab := New(1)
	for range genMask + 1 {
		tab.NewSearch()
	}
	if g := tab.gen.Load(); g != 0 {
		t.Fatalf("generation after %d searches: %d, want 0", genMask+1, g)
	}
}

func TestClear(t *testing.T) {
	tab := New(1)
	rng := rand.New(rand.NewPCG(1, 2))
	keys := make([]uint64, 5000)
	for i := range keys {
		keys[i] = rng.Uint64()
		tab.Store(keys[i], movegen.NewMove(8, 16), 1, 2, 3, BoundExact, false)
	}
	tab.NewSearch()
	tab.Clear()
	for _, k := range keys {
		if _, ok := tab.Probe(k); ok {
			t.Fatalf("key %#x still there after Clear", k)
		}
	}
	if g := tab.gen.Load(); g != 0 {
		t.Errorf("generation after Clear: %d, want 0", g)
	}
	if h := tab.Hashfull(); h != 0 {
		t.Errorf("Hashfull after Clear: %d", h)
	}
}

func TestClearParallelChunks(t *testing.T) {
	tab := New(1)
	for _, workers := range []int{2, 3, 7, 1 << 20} {
		for i := range tab.buckets {
			for j := range entriesPerBucket {
				tab.buckets[i].data[j].Store(uint64(i + 1))
				tab.buckets[i].check[j].Store(uint32(j + 1))
			}
		}
		tab.clearWith(workers)
		for i := range tab.buckets {
			for j := range entriesPerBucket {
				if tab.buckets[i].data[j].Load() != 0 || tab.buckets[i].check[j].Load() != 0 {
					t.Fatalf("workers=%d: bucket %d slot %d not cleared", workers, i, j)
				}
			}
		}
	}
}

func TestResize(t *testing.T) {
	tab := New(1)
	tab.Store(99, movegen.NewMove(1, 9), 1, 1, 1, BoundExact, false)
	tab.Resize(3)
	if tab.SizeMB() != 3 || len(tab.buckets) != 3*bytesPerMB/bucketBytes {
		t.Fatalf("after Resize(3): %d MB, %d buckets", tab.SizeMB(), len(tab.buckets))
	}
	if _, ok := tab.Probe(99); ok {
		t.Error("entry survived Resize")
	}
	tab.Store(99, movegen.NewMove(1, 9), 1, 1, 1, BoundExact, false)
	mustProbe(t, tab, 99)
	tab.Resize(3) // same size: cleared in place
	if _, ok := tab.Probe(99); ok {
		t.Error("entry survived Resize to the same size")
	}
	tab.Resize(0)
	if tab.SizeMB() != MinMB {
		t.Errorf("Resize(0): %d MB, want %d", tab.SizeMB(), MinMB)
	}
	if got := New(-7).SizeMB(); got != MinMB {
		t.Errorf("New(-7): %d MB, want %d", got, MinMB)
	}
	if got := clampMB(1 << 30); got != MaxMB {
		t.Errorf("clampMB(1<<30) = %d, want %d", got, MaxMB)
	}
}

func TestHashfull(t *testing.T) {
	tab := New(1)
	if h := tab.Hashfull(); h != 0 {
		t.Fatalf("empty table: Hashfull %d", h)
	}
	// Fill the sampled buckets one entry at a time: each new entry is one
	// per mille of the 1000-entry sample.
	const sampleBuckets = hashfullSample / entriesPerBucket
	stored, prev := 0, 0
	for b := range sampleBuckets {
		for _, k := range bucketKeys(t, tab, b, entriesPerBucket) {
			tab.Store(k, movegen.NoMove, 0, 0, 4, BoundLower, false)
			stored++
			h := tab.Hashfull()
			if h < prev || h != stored*1000/hashfullSample {
				t.Fatalf("after %d entries: Hashfull %d (previous %d)", stored, h, prev)
			}
			prev = h
		}
	}
	if prev != 1000 {
		t.Fatalf("full sample: Hashfull %d, want 1000", prev)
	}
	// Entries outside the sample do not count.
	for _, k := range bucketKeys(t, tab, sampleBuckets+10, 4) {
		tab.Store(k, movegen.NoMove, 0, 0, 4, BoundLower, false)
	}
	if h := tab.Hashfull(); h != 1000 {
		t.Errorf("Hashfull %d, want 1000", h)
	}
	// Only the current generation counts.
	tab.NewSearch()
	if h := tab.Hashfull(); h != 0 {
		t.Errorf("after NewSearch: Hashfull %d, want 0", h)
	}
	tab.Store(bucketKeys(t, tab, 0, 1)[0], movegen.NoMove, 0, 0, 40, BoundExact, false)
	if h := tab.Hashfull(); h != 1 {
		t.Errorf("one current entry: Hashfull %d, want 1", h)
	}
	tab.Clear()
	if h := tab.Hashfull(); h != 0 {
		t.Errorf("after Clear: Hashfull %d, want 0", h)
	}
}

// overheadBudget is the memory a table may use beyond its Hash size.
const overheadBudget = 30 << 20

func TestSize(t *testing.T) {
	for _, mb := range []int{1, 2, 3, 16, 100} {
		tab := New(mb)
		bytes := uintptr(cap(tab.buckets)) * unsafe.Sizeof(bucket{})
		if bytes != uintptr(mb)<<20 {
			t.Errorf("New(%d): %d bytes of buckets, want exactly %d", mb, bytes, mb<<20)
		}
		if tab.SizeMB() != mb {
			t.Errorf("New(%d).SizeMB() = %d", mb, tab.SizeMB())
		}
	}
}

// tableBytes is the memory tab holds outside the Go heap (its mapping).
func tableBytes(tab *Table) int64 {
	if tab.mem == nil {
		return 0
	}
	return int64(len(tab.mem.mem))
}

func TestHeapWithinBudget(t *testing.T) {
	const mb = 64
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tab := New(mb)
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc) + tableBytes(tab)
	// The lower bound allows for other garbage freed meanwhile.
	if grew < mb<<20-1<<20 || grew > mb<<20+overheadBudget {
		t.Errorf("New(%d) took %d bytes, want about %d, at most %d", mb, grew, mb<<20, mb<<20+overheadBudget)
	}
	// Resizing does not hold both arrays at once: the old mapping is
	// released, the old heap array collected.
	old := tab.mem
	tab.Resize(2 * mb)
	if old != nil && old == tab.mem {
		t.Errorf("Resize(%d) kept the old mapping", 2*mb)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew = int64(after.HeapAlloc) - int64(before.HeapAlloc) + tableBytes(tab)
	if grew > 2*mb<<20+overheadBudget {
		t.Errorf("Resize(%d) left %d bytes taken, want at most %d", 2*mb, grew, 2*mb<<20+overheadBudget)
	}
	runtime.KeepAlive(tab)
}

func TestBucketsAligned(t *testing.T) {
	for _, mb := range []int{1, 3, 8} {
		tab := New(mb)
		if a := uintptr(unsafe.Pointer(&tab.buckets[0])) % bucketBytes; a != 0 {
			t.Errorf("New(%d): buckets start %d bytes past a cache line", mb, a)
		}
	}
}

// mix scrambles a key (the splitmix64 finalizer).
func mix(x uint64) uint64 {
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// derived returns the fields the concurrent test stores for key: every
// field is a function of the key, so a hit that mixes two writes shows.
func derived(key uint64) Entry {
	h := mix(key)
	score := int(h>>16&0x3fff) - 0x2000
	if h&(1<<30) != 0 {
		score = 32000 - int(h>>31&63) // the size of a mate score
	}
	return Entry{
		Move:  movegen.Move(h) | 1,
		Score: score,
		Eval:  int(int16(h >> 32)),
		Depth: int(h>>48&63) - 5,
		Bound: Bound(h >> 54 & 3),
		PV:    h>>56&1 != 0,
	}
}

func TestConcurrentAccess(t *testing.T) {
	tab := New(1)
	// All keys fall in a few buckets, so writers constantly overwrite each
	// other's slots while readers probe them.
	const buckets, keysPerBucket = 4, 12
	var keys []uint64
	for b := range buckets {
		keys = append(keys, bucketKeys(t, tab, 1000*b+5, keysPerBucket)...)
	}
	iters := 100000
	if testing.Short() {
		iters = 20000
	}
	const goroutines = 4
	var wg sync.WaitGroup
	hits := make([]int, goroutines)
	errs := make(chan string, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), 99))
			for i := range iters {
				key := keys[r.IntN(len(keys))]
				want := derived(key)
				if r.IntN(2) == 0 {
					tab.Store(key, want.Move, want.Score, want.Eval, want.Depth, want.Bound, want.PV)
					if g == 0 && i%1000 == 0 {
						tab.NewSearch()
						_ = tab.Hashfull()
					}
					continue
				}
				if got, ok := tab.Probe(key); ok {
					hits[g]++
					if got != want {
						errs <- fmt.Sprintf("key %#x: got %+v, want %+v", key, got, want)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	total := 0
	for _, h := range hits {
		total += h
	}
	if total == 0 {
		t.Error("no probe hit at all: the test checked nothing")
	}
	t.Logf("%d hits", total)
}

func TestNoAllocs(t *testing.T) {
	tab := New(1)
	key := uint64(0x1234567890abcdef)
	if n := testing.AllocsPerRun(100, func() {
		tab.Store(key, movegen.NewMove(1, 2), 10, 20, 5, BoundExact, true)
		tab.Probe(key)
		key += 0x9e3779b97f4a7c15
	}); n != 0 {
		t.Errorf("%v allocations per Store+Probe", n)
	}
}

// TestPrefetchNoEffect: Prefetch of any key, the first and last bucket's
// included, leaves every entry as it was and allocates nothing.
func TestPrefetchNoEffect(t *testing.T) {
	tab := New(1)
	keys := benchKeys()[:1000]
	for i, k := range keys {
		tab.Store(k, movegen.NewMove(movegen.Square(i%64), movegen.Square((i+9)%64)), i%500, -i%500, i%40, BoundLower, i%2 == 0)
	}
	before := make([]Entry, len(keys))
	hits := make([]bool, len(keys))
	for i, k := range keys {
		before[i], hits[i] = tab.Probe(k)
	}
	all := append(slices.Clone(keys), 0, ^uint64(0))
	if n := testing.AllocsPerRun(10, func() {
		for _, k := range all {
			tab.Prefetch(k)
		}
	}); n != 0 {
		t.Errorf("%v allocations per round of Prefetch", n)
	}
	for i, k := range keys {
		if e, ok := tab.Probe(k); ok != hits[i] || e != before[i] {
			t.Fatalf("key %016x: after Prefetch %+v %v, before %+v %v", k, e, ok, before[i], hits[i])
		}
	}
}

func benchKeys() []uint64 {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := make([]uint64, 1<<16)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	return keys
}

func BenchmarkProbe(b *testing.B) {
	tab := New(DefaultMB)
	keys := benchKeys()
	for i, k := range keys {
		if i%2 == 0 { // half hits, half misses
			tab.Store(k, movegen.NewMove(1, 2), i, i, 5, BoundExact, false)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tab.Probe(keys[i&(len(keys)-1)])
		i++
	}
}

func BenchmarkStore(b *testing.B) {
	tab := New(DefaultMB)
	keys := benchKeys()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tab.Store(keys[i&(len(keys)-1)], movegen.NewMove(1, 2), i&1023, 0, i&31, BoundLower, false)
		i++
	}
}
