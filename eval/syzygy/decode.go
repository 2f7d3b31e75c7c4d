package syzygy

import "encoding/binary"

// value returns the value stored at index idx of the sub-table: the index
// locates a block through the sparse index and the block lengths, the block
// is decoded symbol by symbol (canonical Huffman) until the symbol that
// holds idx, and that symbol is expanded down its pairing tree.
func (p *pairs) value(src source, idx uint64) (int, bool) {
	if p.flags&flagSingleValue != 0 {
		return p.single, true
	}
	if idx >= p.tbSize {
		return 0, false
	}
	k := idx / p.span
	if 6*k+6 > uint64(len(p.sparse)) {
		return 0, false
	}
	block := int64(binary.LittleEndian.Uint32(p.sparse[6*k:]))
	offset := int64(binary.LittleEndian.Uint16(p.sparse[6*k+4:]))
	// The sparse entry k describes the value at k*span + span/2.
	offset += int64(idx%p.span) - int64(p.span/2)
	nBlocks := int64(len(p.blockLen) / 2)
	if block >= nBlocks {
		return 0, false
	}
	for offset < 0 {
		block--
		if block < 0 {
			return 0, false
		}
		offset += int64(binary.LittleEndian.Uint16(p.blockLen[2*block:])) + 1
	}
	for {
		if block >= nBlocks {
			return 0, false
		}
		n := int64(binary.LittleEndian.Uint16(p.blockLen[2*block:]))
		if offset <= n {
			break
		}
		offset -= n + 1
		block++
	}
	if block >= int64(p.numBlocks) {
		return 0, false
	}
	off := p.dataOff + block*p.blockSize
	buf, err := src.bytes(off, min(p.blockSize, src.size()-off))
	if err != nil {
		return 0, false
	}

	code := be64(buf, 0)
	next := 8  // next byte of buf to load
	bits := 64 // valid bits in code
	var sym int
	for {
		l := 0
		for code < p.base[l] {
			l++
			if l == len(p.base) {
				return 0, false
			}
		}
		sym = int(p.lowest[l]) + int((code-p.base[l])>>uint(64-l-p.minLen))
		if sym >= len(p.symLen) {
			return 0, false
		}
		n := int64(p.symLen[sym]) + 1
		if offset < n {
			break
		}
		offset -= n
		l += p.minLen
		code <<= uint(l)
		bits -= l
		if bits <= 32 {
			bits += 32
			code |= uint64(be32(buf, next)) << uint(64-bits)
			next += 4
		}
	}
	for p.symLen[sym] != 0 {
		left, right := p.children(sym)
		if left >= len(p.symLen) || right >= len(p.symLen) {
			return 0, false
		}
		if n := int64(p.symLen[left]) + 1; offset < n {
			sym = left
		} else {
			offset -= n
			sym = right
		}
	}
	left, _ := p.children(sym)
	return left, true
}

// be64 and be32 read big-endian words, as zeros past the end of b.
func be64(b []byte, i int) uint64 {
	if i+8 <= len(b) {
		return binary.BigEndian.Uint64(b[i:])
	}
	return uint64(be32(b, i))<<32 | uint64(be32(b, i+4))
}

func be32(b []byte, i int) uint32 {
	if i+4 <= len(b) {
		return binary.BigEndian.Uint32(b[i:])
	}
	var w [4]byte
	if i < len(b) {
		copy(w[:], b[i:])
	}
	return binary.BigEndian.Uint32(w[:])
}
