package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// Magic is the first word of a .nnue file ("KRNN" as little-endian bytes)
// and Version the newest format version, the word that follows it.
const (
	Magic   uint32 = 'K' | 'R'<<8 | 'N'<<16 | 'N'<<24
	Version uint32 = 4
)

const headerWords = 8 // version 1; version 2 has one more, the bucket count, versions 3 and 4 two, the layout after it

// ErrFormat is wrapped by every error Load returns for a malformed file.
var ErrFormat = errors.New("nnue: malformed network file")

// Load reads a network. The file is little-endian throughout:
//
//	offset  size        field
//	0       4           magic "KRNN"
//	4       4           version, uint32: 1, 2, 3 or 4
//	8       4           inputs per perspective, uint32 = 768
//	12      4           H, the accumulator width, uint32: a multiple of 16, at most 1024
//	16      4           activation, uint32: 0 clipped ReLU, 1 squared clipped ReLU
//	20      4           QA, uint32, 1..255: first-layer scale (activation clamps to [0, QA])
//	24      4           QB, uint32, >= 1: output-weight scale
//	28      4           Scale, uint32, >= 1: centipawns per unit of float output
//	32      4           versions 2 and 3: B, the number of output buckets, uint32, 1..16 (version 1: B = 1)
//	36      4           versions 3 and 4: the Layout, uint32: 0 Plain, 1 KingMirrored, 2 KingBuckets
//	                    (version 4 only; versions 1, 2: Plain)
//	40      32          version 4 with KingBuckets only: the king bucket of each KingSquare, uint8,
//	                    0..15 (the net has 1 + the largest of them king buckets, KB; else KB = 1)
//	32..72  KB*768*H*2  first-layer weights, int16, input-major: input f's H weights are contiguous,
//	                    king bucket by king bucket
//	...     H*2         first-layer biases, int16
//	...     B*2*H*2     output weights, int16, bucket by bucket (BucketOf): H for the side to move's
//	                    accumulator, then H for the other's
//	...     B*4         output biases, int32 (scaled by QA*QB), bucket by bucket
//
// and nothing after. With squared clipped ReLU the output weights must lie
// in [-127, 127] (the SIMD path multiplies activation by weight in int16).
// A missing, truncated, over-long or wrong-architecture file is an error
// wrapping ErrFormat that says what is wrong.
func Load(r io.Reader) (*Net, error) {
	var hdr [headerWords]uint32
	if err := binary.Read(r, binary.LittleEndian, &hdr); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	if hdr[0] != Magic {
		return nil, fmt.Errorf("%w: bad magic %#08x, want %#08x (\"KRNN\")", ErrFormat, hdr[0], Magic)
	}
	if hdr[1] < 1 || hdr[1] > Version {
		return nil, fmt.Errorf("%w: version %d, this build reads versions 1 to %d", ErrFormat, hdr[1], Version)
	}
	if hdr[2] != Inputs {
		return nil, fmt.Errorf("%w: %d inputs per perspective, this build has %d", ErrFormat, hdr[2], Inputs)
	}
	h := hdr[3]
	if h == 0 || h > MaxHidden || h%HiddenAlign != 0 {
		return nil, fmt.Errorf("%w: hidden width %d, want a multiple of %d in %d..%d", ErrFormat, h, HiddenAlign, HiddenAlign, MaxHidden)
	}
	act := Activation(hdr[4])
	if act != CReLU && act != SCReLU {
		return nil, fmt.Errorf("%w: unknown activation %d", ErrFormat, hdr[4])
	}
	if hdr[5] < 1 || hdr[5] > 255 || hdr[6] < 1 || hdr[6] > 1<<15 || hdr[7] < 1 || hdr[7] > 1<<15 {
		return nil, fmt.Errorf("%w: QA %d (want 1..255), QB %d, Scale %d (want 1..32768)", ErrFormat, hdr[5], hdr[6], hdr[7])
	}
	buckets, layout := uint32(1), Plain
	if hdr[1] >= 2 {
		if err := binary.Read(r, binary.LittleEndian, &buckets); err != nil {
			return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
		}
		if buckets < 1 || buckets > MaxBuckets {
			return nil, fmt.Errorf("%w: %d output buckets, want 1..%d", ErrFormat, buckets, MaxBuckets)
		}
	}
	if hdr[1] >= 3 {
		if err := binary.Read(r, binary.LittleEndian, &layout); err != nil {
			return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
		}
		if layout != Plain && layout != KingMirrored && (layout != KingBuckets || hdr[1] < 4) {
			return nil, fmt.Errorf("%w: unknown input layout %d in a version %d file", ErrFormat, uint32(layout), hdr[1])
		}
	}
	n := &Net{H: int(h), Layout: layout}
	if layout == KingBuckets {
		if err := binary.Read(r, binary.LittleEndian, &n.KingBucket); err != nil {
			return nil, fmt.Errorf("%w: header: the king buckets: %v", ErrFormat, err)
		}
		if b := slices.Max(n.KingBucket[:]); b >= MaxKingBuckets {
			return nil, fmt.Errorf("%w: king bucket %d, want 0..%d", ErrFormat, b, MaxKingBuckets-1)
		}
	}
	*n = Net{
		H: int(h), Act: act, QA: int32(hdr[5]), QB: int32(hdr[6]), Scale: int32(hdr[7]), Layout: layout, KingBucket: n.KingBucket,
		FeatureW: make([]int16, n.InputRows()*int(h)),
		FeatureB: make([]int16, h),
		OutputW:  make([]int16, buckets*2*h),
		OutputB:  make([]int32, buckets),
	}
	for _, part := range []struct {
		name string
		dst  any
	}{{"first-layer weights", n.FeatureW}, {"first-layer biases", n.FeatureB}, {"output weights", n.OutputW}, {"output biases", n.OutputB}} {
		if err := binary.Read(r, binary.LittleEndian, part.dst); err != nil {
			return nil, fmt.Errorf("%w: truncated in the %s (H=%d): %v", ErrFormat, part.name, h, err)
		}
	}
	var extra [1]byte
	if k, _ := r.Read(extra[:]); k != 0 {
		return nil, fmt.Errorf("%w: data after the output biases (are H=%d and %d buckets right?)", ErrFormat, h, buckets)
	}
	if act == SCReLU {
		for _, w := range n.OutputW {
			if w < -127 || w > 127 {
				return nil, fmt.Errorf("%w: output weight %d outside [-127, 127] with squared clipped ReLU", ErrFormat, w)
			}
		}
	}
	n.simdOK = simdAvailable(n.H)
	return n, nil
}

// LoadFile reads a network from a file.
func LoadFile(path string) (*Net, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("nnue: %w", err)
	}
	defer f.Close()
	n, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return n, nil
}

// Write writes n in the format Load reads, in the oldest version that
// holds it (so that a net's file is the same as before the newer fields
// existed): version 1 for a Plain net of one output bucket, version 2 for a
// Plain net of several, version 3 for a KingMirrored net, version 4 for a
// KingBuckets net. A net Load would refuse is an error, and nothing is
// written.
func (n *Net) Write(w io.Writer) error {
	if b := len(n.OutputB); n.H < HiddenAlign || n.H > MaxHidden || n.H%HiddenAlign != 0 || b < 1 || b > MaxBuckets || len(n.OutputW) != b*2*n.H || n.Layout > KingBuckets ||
		len(n.FeatureW) != n.InputRows()*n.H || len(n.FeatureB) != n.H || n.KingBuckets() > MaxKingBuckets {
		return fmt.Errorf("nnue: cannot write a net of H=%d with %d output biases, %d output weights, %d first-layer weights, layout %d", n.H, b, len(n.OutputW), len(n.FeatureW), uint32(n.Layout))
	}
	if n.Act != CReLU && n.Act != SCReLU || n.QA < 1 || n.QA > 255 || n.QB < 1 || n.QB > 1<<15 || n.Scale < 1 || n.Scale > 1<<15 {
		return fmt.Errorf("nnue: cannot write a net with activation %d, QA %d (want 1..255), QB %d, Scale %d (want 1..32768)", n.Act, n.QA, n.QB, n.Scale)
	}
	if n.Act == SCReLU {
		for _, v := range n.OutputW {
			if v < -127 || v > 127 {
				return fmt.Errorf("nnue: cannot write output weight %d outside [-127, 127] with squared clipped ReLU", v)
			}
		}
	}
	hdr := []uint32{Magic, 1, Inputs, uint32(n.H), uint32(n.Act), uint32(n.QA), uint32(n.QB), uint32(n.Scale)}
	var kingBuckets []any
	switch {
	case n.Layout == KingBuckets:
		hdr[1] = 4
		hdr = append(hdr, uint32(len(n.OutputB)), uint32(n.Layout))
		kingBuckets = []any{n.KingBucket}
	case n.Layout != Plain:
		hdr[1] = 3
		hdr = append(hdr, uint32(len(n.OutputB)), uint32(n.Layout))
	case len(n.OutputB) != 1:
		hdr[1] = 2
		hdr = append(hdr, uint32(len(n.OutputB)))
	}
	for _, part := range slices.Concat([]any{hdr}, kingBuckets, []any{n.FeatureW, n.FeatureB, n.OutputW, n.OutputB}) {
		if err := binary.Write(w, binary.LittleEndian, part); err != nil {
			return err
		}
	}
	return nil
}

// DefaultName is the embedded network's own name (the net in default.nnue,
// see README.md's lineage), the default of the UCI option EvalFile. It
// changes with the net it names.
const DefaultName = "kingrook-11.nnue"

// Default returns the embedded network. Every call returns a fresh copy; a
// search loads it once and shares it.
func Default() *Net {
	n, err := Load(bytes.NewReader(defaultNet))
	if err != nil {
		panic("nnue: the embedded default.nnue is malformed: " + err.Error())
	}
	return n
}
