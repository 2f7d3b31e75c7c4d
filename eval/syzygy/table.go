package syzygy

import (
	"encoding/binary"
	"errors"
	"sync"

	"github.com/kingrook/kingrook/movegen"
)

// File magic numbers (the first four bytes, little-endian).
const (
	wdlMagic = 0x5d23e871
	dtzMagic = 0xa50c66d7
)

// Flags of a table's compressed data (pairs.flags).
const (
	flagSTM         = 1   // DTZ: the side to move the table holds (1 = black)
	flagMapped      = 2   // DTZ: values go through a per-result map
	flagWinPlies    = 4   // DTZ: wins are stored in plies, not moves
	flagLossPlies   = 8   // DTZ: losses are stored in plies, not moves
	flagWide        = 16  // DTZ: the map holds 16-bit values
	flagSingleValue = 128 // every position holds the same value
)

var errCorrupt = errors.New("syzygy: corrupt table")

// entry is one material balance, e.g. KRPvKB, with its WDL and DTZ files.
// Its first colour (white in the name) is the table's "white".
type entry struct {
	name      string
	key       uint64 // material key with the name's colours
	num       int    // pieces, kings included
	hasPawns  bool
	kkEnc     bool   // pawnless and no unique piece besides the kings
	pawns     [2]int // pawns of the leading colour, of the other
	symmetric bool   // both sides have the same pieces
	wdl, dtz  lazyTable
}

func newEntry(name string, counts *[2][7]int) *entry {
	e := &entry{name: name, key: materialKey(&counts[0], &counts[1])}
	e.symmetric = e.key == materialKey(&counts[1], &counts[0])
	unique := false
	for c := 0; c < 2; c++ {
		for pt := movegen.Pawn; pt <= movegen.King; pt++ {
			e.num += counts[c][pt]
			if pt != movegen.King && counts[c][pt] == 1 {
				unique = true
			}
		}
	}
	wp, bp := counts[0][movegen.Pawn], counts[1][movegen.Pawn]
	e.hasPawns = wp+bp > 0
	e.kkEnc = !e.hasPawns && !unique
	// The leading colour is the one with fewer pawns (but some).
	if bp == 0 || (wp > 0 && bp >= wp) {
		e.pawns = [2]int{wp, bp}
	} else {
		e.pawns = [2]int{bp, wp}
	}
	return e
}

// lazyTable is one file of an entry, opened and parsed on first use.
type lazyTable struct {
	path string // empty when the set has no such file
	once sync.Once
	data *tableData // nil until loaded, or when the file is unusable
}

// tableData is a parsed table file.
type tableData struct {
	src   source
	sides int         // 2 for WDL tables of unequal material, else 1
	files int         // 4 for tables with pawns (by the leading pawn's file), else 1
	p     [2][4]pairs // [side][file]
	dmap  []byte      // DTZ value maps
}

// pairs is the encoding and compressed data of one sub-table.
type pairs struct {
	flags    byte
	pieces   [MaxPieces]movegen.Piece // pieces in index order, table colours
	groupLen [MaxPieces + 1]int       // lengths of the groups of like pieces, 0-terminated
	groupIdx [MaxPieces + 1]uint64    // the radix of each group's digit
	tbSize   uint64                   // positions in the table

	single    int   // the value when flags&flagSingleValue
	blockSize int64 // bytes per compressed block
	span      uint64
	numBlocks uint32
	minLen    int
	lowest    []uint16 // lowest symbol of each code length (minLen first)
	base      []uint64 // canonical code base of each length, left-aligned
	symLen    []int32  // values a symbol expands to, minus one
	tree      []byte   // 3 bytes per symbol: its two children, 12 bits each
	sparse    []byte   // 6 bytes per span: block (u32), offset in it (u16)
	blockLen  []byte   // per block: values in it minus one (u16)
	blockLenN uint32
	dataOff   int64  // file offset of the first block
	mapStart  [4]int // DTZ: offset in dmap of each result's map
}

// load returns the parsed table, opening it on first use.
func (t *Tables) load(lt *lazyTable, e *entry, dtz bool) *tableData {
	lt.once.Do(func() {
		if lt.path == "" {
			return
		}
		var src source
		var err error
		if t.readAt {
			src, err = openReadAt(lt.path)
		} else {
			src, err = openSource(lt.path)
		}
		if err != nil {
			return
		}
		d, err := parseTable(src, e, dtz)
		if err != nil {
			src.close()
			return
		}
		t.mu.Lock()
		t.open = append(t.open, src)
		t.mu.Unlock()
		lt.data = d
	})
	return lt.data
}

// cursor reads a table file's header sequentially; the first failure sticks.
type cursor struct {
	src source
	off int64
	err error
}

func (c *cursor) take(n int64) []byte {
	if c.err != nil {
		return nil
	}
	b, err := c.src.bytes(c.off, n)
	if err != nil {
		c.err = err
		return nil
	}
	c.off += n
	return b
}

func (c *cursor) u8() int {
	if b := c.take(1); b != nil {
		return int(b[0])
	}
	return 0
}

func (c *cursor) u16() int {
	if b := c.take(2); b != nil {
		return int(binary.LittleEndian.Uint16(b))
	}
	return 0
}

func (c *cursor) u32() uint32 {
	if b := c.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

// parseTable reads the header of a table file: the piece order of every
// sub-table, their compression parameters, the DTZ maps, then the offsets
// of the sparse indexes, block lengths and compressed blocks.
func parseTable(src source, e *entry, dtz bool) (*tableData, error) {
	c := &cursor{src: src}
	magic := c.u32()
	if c.err != nil {
		return nil, c.err
	}
	if (dtz && magic != dtzMagic) || (!dtz && magic != wdlMagic) {
		return nil, errCorrupt
	}
	flags := c.u8()
	if (flags&2 != 0) != e.hasPawns || (flags&1 != 0) == e.symmetric && !dtz {
		return nil, errCorrupt
	}
	d := &tableData{src: src, sides: 1, files: 1}
	if !dtz && !e.symmetric {
		d.sides = 2
	}
	if e.hasPawns {
		d.files = 4
	}
	if err := d.readPieces(c, e); err != nil {
		return nil, err
	}
	c.off += c.off & 1
	for f := 0; f < d.files; f++ {
		for s := 0; s < d.sides; s++ {
			d.p[s][f].setSizes(c, dtz)
		}
	}
	if c.err != nil {
		return nil, c.err
	}
	if dtz {
		d.readDTZMaps(c)
	}
	d.locateData(c)
	if c.err != nil {
		return nil, c.err
	}
	// The file may end inside its last block, not elsewhere.
	for f := 0; f < d.files; f++ {
		for s := 0; s < d.sides; s++ {
			p := &d.p[s][f]
			if p.numBlocks > 0 && p.dataOff+int64(p.numBlocks-1)*p.blockSize >= src.size() {
				return nil, errCorrupt
			}
		}
	}
	return d, nil
}

// readPieces reads, for each file (pawn tables) and side, the order of the
// piece groups and the pieces of the table's index.
func (d *tableData) readPieces(c *cursor, e *entry) error {
	pp := e.hasPawns && e.pawns[1] > 0
	for f := 0; f < d.files; f++ {
		b := c.u8()
		order := [2][2]int{{b & 15, 15}, {b >> 4, 15}}
		if pp {
			b = c.u8()
			order[0][1], order[1][1] = b&15, b>>4
		}
		for k := 0; k < e.num; k++ {
			b = c.u8()
			d.p[0][f].pieces[k] = movegen.Piece(b & 15)
			d.p[1][f].pieces[k] = movegen.Piece(b >> 4)
		}
		for s := 0; s < d.sides; s++ {
			if err := d.p[s][f].setGroups(e, order[s], f); err != nil {
				return err
			}
		}
	}
	return nil
}

// readDTZMaps records where each mapped DTZ table's value maps start (8- or
// 16-bit entries) and keeps the maps' bytes.
func (d *tableData) readDTZMaps(c *cursor) {
	start := c.off
	for f := 0; f < d.files; f++ {
		p := &d.p[0][f]
		if p.flags&flagMapped == 0 {
			continue
		}
		if p.flags&flagWide != 0 {
			c.off += c.off & 1
			for i := 0; i < 4; i++ {
				p.mapStart[i] = int(c.off - start + 2)
				n := int64(c.u16()) // moves the cursor past the length
				c.off += 2 * n
			}
		} else {
			for i := 0; i < 4; i++ {
				p.mapStart[i] = int(c.off - start + 1)
				n := int64(c.u8()) // moves the cursor past the length
				c.off += n
			}
		}
	}
	c.off += c.off & 1
	d.dmap = c.takeAt(start, c.off-start)
}

// locateData reads the sparse indexes and block lengths of every part and
// finds where each part's compressed blocks start (64-byte aligned).
func (d *tableData) locateData(c *cursor) {
	for f := 0; f < d.files; f++ {
		for s := 0; s < d.sides; s++ {
			p := &d.p[s][f]
			p.sparse = c.take(6 * int64(p.sparseSize()))
		}
	}
	for f := 0; f < d.files; f++ {
		for s := 0; s < d.sides; s++ {
			p := &d.p[s][f]
			p.blockLen = c.take(2 * int64(p.blockLenN))
		}
	}
	for f := 0; f < d.files; f++ {
		for s := 0; s < d.sides; s++ {
			p := &d.p[s][f]
			c.off = (c.off + 63) &^ 63
			p.dataOff = c.off
			c.off += int64(p.numBlocks) * p.blockSize
		}
	}
}

// takeAt reads n bytes at off without moving the cursor.
func (c *cursor) takeAt(off, n int64) []byte {
	if c.err != nil {
		return nil
	}
	b, err := c.src.bytes(off, n)
	if err != nil {
		c.err = err
	}
	return b
}

// setGroups splits the pieces into groups (the leading group first, then
// the other colour's pawns, then runs of like pieces) and gives each group
// its radix in the order the file prescribes.
func (p *pairs) setGroups(e *entry, order [2]int, f int) error {
	n := e.num
	first := 3
	switch {
	case e.hasPawns:
		first = e.pawns[0]
	case e.kkEnc:
		first = 2
	}
	pp := e.hasPawns && e.pawns[1] > 0
	g := 0
	p.groupLen[g] = first
	i := first
	if pp {
		g++
		p.groupLen[g] = e.pawns[1]
		i += e.pawns[1]
	}
	for i < n {
		j := i
		for j < n && p.pieces[j] == p.pieces[i] {
			j++
		}
		g++
		p.groupLen[g] = j - i
		i = j
	}
	if i != n {
		return errCorrupt
	}
	groups := g + 1
	p.groupLen[groups] = 0
	if e.hasPawns {
		for k := 0; k < first; k++ {
			if p.pieces[k] != p.pieces[0] || p.pieces[0].Type() != movegen.Pawn {
				return errCorrupt
			}
		}
	}
	free := 64 - p.groupLen[0]
	next := 1
	if pp {
		free -= p.groupLen[1]
		next = 2
	}
	idx := uint64(1)
	for k := 0; next < groups || k == order[0] || k == order[1]; k++ {
		switch {
		case k == order[0]:
			p.groupIdx[0] = idx
			switch {
			case e.hasPawns:
				idx *= leadPawnsSize[p.groupLen[0]][f]
			case e.kkEnc:
				idx *= 462
			default:
				idx *= 31332
			}
		case k == order[1]:
			p.groupIdx[1] = idx
			idx *= binomial[p.groupLen[1]][48-p.groupLen[0]]
		default:
			if free < 0 {
				return errCorrupt
			}
			p.groupIdx[next] = idx
			idx *= binomial[p.groupLen[next]][free]
			free -= p.groupLen[next]
			next++
		}
	}
	p.groupIdx[groups] = idx
	p.tbSize = idx
	return nil
}

// setSizes reads the compression parameters of one sub-table: block size,
// sparse-index span, block count, the canonical Huffman code lengths and
// the pairing tree of the symbols.
func (p *pairs) setSizes(c *cursor, dtz bool) {
	p.flags = byte(c.u8())
	if p.flags&flagSingleValue != 0 {
		p.single = c.u8()
		if dtz {
			p.single = 0
		}
		return
	}
	blockShift, spanShift := c.u8(), c.u8()
	padding := c.u8()
	p.numBlocks = c.u32()
	maxLen, minLen := c.u8(), c.u8()
	if c.err != nil {
		return
	}
	if blockShift > 30 || spanShift == 0 || spanShift > 62 || minLen == 0 || maxLen < minLen || maxLen > 64 {
		c.err = errCorrupt
		return
	}
	p.blockSize = 1 << blockShift
	p.span = 1 << spanShift
	p.blockLenN = p.numBlocks + uint32(padding)
	p.minLen = minLen
	h := maxLen - minLen + 1
	p.lowest = make([]uint16, h)
	for i := range p.lowest {
		p.lowest[i] = uint16(c.u16())
	}
	p.base = make([]uint64, h)
	for i := h - 2; i >= 0; i-- {
		p.base[i] = (p.base[i+1] + uint64(p.lowest[i]) - uint64(p.lowest[i+1])) / 2
	}
	for i := range p.base {
		p.base[i] <<= uint(64 - minLen - i)
	}
	numSyms := c.u16()
	p.tree = c.take(3 * int64(numSyms))
	c.off += int64(numSyms & 1)
	if c.err != nil {
		return
	}
	// Symbol lengths: a leaf (right child 0xfff) stands for one value, a
	// pair for the values of both children.
	p.symLen = make([]int32, numSyms)
	const unknown = -1
	for i := range p.symLen {
		p.symLen[i] = unknown
	}
	var visit func(s, depth int) int32
	visit = func(s, depth int) int32 {
		if p.symLen[s] != unknown {
			return p.symLen[s]
		}
		l, r := p.children(s)
		if r == 0xfff {
			p.symLen[s] = 0
			return 0
		}
		if l >= numSyms || r >= numSyms || depth > numSyms {
			c.err = errCorrupt
			p.symLen[s] = 0
			return 0
		}
		p.symLen[s] = visit(l, depth+1) + visit(r, depth+1) + 1
		return p.symLen[s]
	}
	for s := range p.symLen {
		visit(s, 0)
	}
}

// children returns the two symbols a symbol stands for; for a leaf the left
// one is its value and the right one 0xfff.
func (p *pairs) children(s int) (left, right int) {
	w := p.tree[3*s : 3*s+3]
	return int(w[1]&15)<<8 | int(w[0]), int(w[2])<<4 | int(w[1]>>4)
}

// sparseSize is the number of entries of the sparse index.
func (p *pairs) sparseSize() uint64 {
	if p.flags&flagSingleValue != 0 {
		return 0
	}
	return (p.tbSize + p.span - 1) / p.span
}
