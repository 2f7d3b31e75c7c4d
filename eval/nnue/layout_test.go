package nnue

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/movegen"
)

// TestLayoutFiles checks version 3 files: a KingMirrored net writes version
// 3 (with its bucket word even for one bucket) and loads back equal; a
// version 3 file may say Plain; an unknown layout or a cut header is an
// error. Plain nets keep writing versions 1 and 2 (TestBucketFiles).
func TestLayoutFiles(t *testing.T) {
	for _, b := range []int{1, 8} {
		n := mirroredNet(32, SCReLU, b, 21)
		var buf bytes.Buffer
		if err := n.Write(&buf); err != nil {
			t.Fatal(err)
		}
		g := buf.Bytes()
		if v, l := binary.LittleEndian.Uint32(g[4:]), binary.LittleEndian.Uint32(g[36:]); v != 3 || l != uint32(KingMirrored) {
			t.Fatalf("a mirrored net of %d buckets writes version %d, layout %d: want 3 and 1", b, v, l)
		}
		if want := 40 + (Inputs*32+32+b*64)*2 + b*4; len(g) != want {
			t.Fatalf("mirrored file of %d bytes, want %d", len(g), want)
		}
		m, err := Load(bytes.NewReader(g))
		if err != nil {
			t.Fatal(err)
		}
		if m.Layout != KingMirrored || m.Buckets() != b || !slices.Equal(m.FeatureW, n.FeatureW) || !slices.Equal(m.OutputW, n.OutputW) || !slices.Equal(m.OutputB, n.OutputB) {
			t.Fatalf("the mirrored net of %d buckets does not load back equal", b)
		}
		patch := func(off int, v uint32) []byte {
			c := bytes.Clone(g)
			binary.LittleEndian.PutUint32(c[off:], v)
			return c
		}
		if p, err := Load(bytes.NewReader(patch(36, uint32(Plain)))); err != nil || p.Layout != Plain {
			t.Fatalf("a version 3 file of the Plain layout: %v", err)
		}
		for _, c := range []struct {
			name, want string
			data       []byte
		}{
			{"unknown layout", "input layout 2", patch(36, 2)},
			{"no layout word", "header", g[:38]},
			{"version 2 header on version 3 data", "data after", patch(4, 2)},
		} {
			if _, err := Load(bytes.NewReader(c.data)); err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want ErrFormat mentioning %q", c.name, err, c.want)
			}
		}
	}
}

// TestKingMirror checks the KingMirrored inputs against their definition:
// a perspective whose king stands on files a-d sees every square with its
// file mirrored (a <-> h), one on files e-h sees the board as it is. Refresh
// and RefreshFeatures give the biases plus the rows of those inputs.
func TestKingMirror(t *testing.T) {
	for k := movegen.Square(0); k < 64; k++ {
		want := movegen.Square(0)
		if k.File() < 4 {
			want = 7
		}
		if got := KingMirror(k); got != want {
			t.Fatalf("KingMirror(%v) = %d, want %d", k, got, want)
		}
	}
	n := mirroredNet(16, SCReLU, 1, 22)
	plain := randomNet(16, SCReLU, 22)
	acc := n.NewAccumulators(2)
	forRandomGames(t, 20, 80, 23, func(pos *movegen.Position, _ movegen.Move) {
		checkInputs(t, n, acc, pos, func(movegen.Color, movegen.Square) int { return 0 })
		for occ := pos.Occupied(); occ != 0; {
			sq := occ.PopLSB()
			for c := movegen.White; c <= movegen.Black; c++ {
				if g := plain.Feature(c, pos.PieceOn(sq), sq, pos.KingSquare(c)); g != FeatureIndex(c, pos.PieceOn(sq), sq) {
					t.Fatalf("%s: a plain net's Feature %d is not FeatureIndex", pos.FEN(true), g)
				}
			}
		}
	})
}

// checkInputs checks a mirrored layout's inputs in pos against their
// definition: each perspective c sees every square with its file mirrored
// (a <-> h) while its own king stands on files a-d, in the rows from
// base(c, king) on; Feature gives those inputs, and Refresh and
// RefreshFeatures (into acc[0] and acc[1]) the biases plus their rows.
func checkInputs(t *testing.T, n *Net, acc []Accumulator, pos *movegen.Position, base func(c movegen.Color, king movegen.Square) int) {
	t.Helper()
	acc[0].Refresh(n, pos)
	acc[1].RefreshFeatures(n, AppendFeatures(nil, pos))
	for c := movegen.White; c <= movegen.Black; c++ {
		king := pos.KingSquare(c)
		want := slices.Clone(n.FeatureB)
		for occ := pos.Occupied(); occ != 0; {
			sq := occ.PopLSB()
			seen := sq
			if king.File() < 4 {
				seen = movegen.Square(sq.Rank()*8 + 7 - sq.File())
			}
			f := base(c, king) + FeatureIndex(c, pos.PieceOn(sq), seen)
			if g := n.Feature(c, pos.PieceOn(sq), sq, king); g != f {
				t.Fatalf("%s: Feature %d, want %d", pos.FEN(true), g, f)
			}
			for i := range want {
				want[i] += n.FeatureW[f*n.H+i]
			}
		}
		if !slices.Equal(acc[0].Values(c), want) || !slices.Equal(acc[1].Values(c), want) {
			t.Fatalf("%s, perspective %v: Refresh or RefreshFeatures is not the sum of the inputs' rows", pos.FEN(true), c)
		}
	}
}

// fileMirrorFEN returns the position mirrored across the d/e line (a1 <->
// h1), without castling rights.
func fileMirrorFEN(t *testing.T, fen string) string {
	f := strings.Fields(fen)
	ranks := strings.Split(f[0], "/")
	for i, r := range ranks {
		b := []byte(r)
		slices.Reverse(b)
		ranks[i] = string(b)
	}
	ep := f[3]
	if ep != "-" {
		ep = string('a'+'h'-ep[0]) + ep[1:]
	}
	return strings.Join(append([]string{strings.Join(ranks, "/"), f[1], "-", ep}, f[4:]...), " ")
}

// TestKingBucketFiles checks version 4 files: a KingBuckets net writes
// version 4 with its king buckets after the layout and its first-layer rows
// for each, and loads back equal; a version 3 file may not say KingBuckets,
// and a king bucket beyond MaxKingBuckets or a cut map is an error.
func TestKingBucketFiles(t *testing.T) {
	n := kingBucketNet(32, SCReLU, 8, testKingBuckets, 31)
	if n.KingBuckets() != 4 || n.InputRows() != 4*Inputs {
		t.Fatalf("%d king buckets, %d input rows: want 4 and %d", n.KingBuckets(), n.InputRows(), 4*Inputs)
	}
	var buf bytes.Buffer
	if err := n.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g := buf.Bytes()
	if v, l := binary.LittleEndian.Uint32(g[4:]), binary.LittleEndian.Uint32(g[36:]); v != 4 || l != uint32(KingBuckets) {
		t.Fatalf("a king-bucket net writes version %d, layout %d: want 4 and 2", v, l)
	}
	if want := 40 + KingSquares + (4*Inputs*32+32+8*64)*2 + 8*4; len(g) != want {
		t.Fatalf("king-bucket file of %d bytes, want %d", len(g), want)
	}
	m, err := Load(bytes.NewReader(g))
	if err != nil {
		t.Fatal(err)
	}
	if m.Layout != KingBuckets || m.KingBucket != n.KingBucket || !slices.Equal(m.FeatureW, n.FeatureW) || !slices.Equal(m.OutputW, n.OutputW) {
		t.Fatal("the king-bucket net does not load back equal")
	}
	bad := bytes.Clone(g)
	bad[40+5] = MaxKingBuckets
	v3 := bytes.Clone(g)
	binary.LittleEndian.PutUint32(v3[4:], 3)
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		{"king bucket 16", "king bucket 16", bad},
		{"KingBuckets in version 3", "input layout 2 in a version 3 file", v3},
		{"cut map", "king buckets", g[:50]},
		{"rows of one bucket", "truncated", g[:40+KingSquares+Inputs*32*2]},
	} {
		if _, err := Load(bytes.NewReader(c.data)); err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want ErrFormat mentioning %q", c.name, err, c.want)
		}
	}
}

// TestKingBuckets checks the KingBuckets inputs against their definition:
// perspective c reads the rows of the bucket of its king's KingSquare, the
// squares mirrored as in KingMirrored; Refresh and RefreshFeatures give the
// biases plus those rows; Crosses is a king move that changes the half or
// the bucket.
func TestKingBuckets(t *testing.T) {
	for c := movegen.White; c <= movegen.Black; c++ {
		for k := movegen.Square(0); k < 64; k++ {
			rank, file := int(k.Rank()), int(k.File())
			if c == movegen.Black {
				rank = 7 - rank
			}
			if file < 4 {
				file = 7 - file
			}
			if got := KingSquare(c, k); got != rank*4+file-4 {
				t.Fatalf("KingSquare(%v, %v) = %d, want %d", c, k, got, rank*4+file-4)
			}
		}
	}
	n := kingBucketNet(16, SCReLU, 1, testKingBuckets, 32)
	acc := n.NewAccumulators(2)
	crossings := 0
	forRandomGames(t, 20, 80, 33, func(pos *movegen.Position, m movegen.Move) {
		checkInputs(t, n, acc, pos, func(c movegen.Color, king movegen.Square) int {
			return int(testKingBuckets[KingSquare(c, king)]) * Inputs
		})
		d := MoveDelta(pos, m)
		us := pos.SideToMove()
		before := pos.KingSquare(us)
		pos.Make(m)
		after := pos.KingSquare(us)
		pos.Unmake()
		view := func(k movegen.Square) int { return int(KingMirror(k))<<8 | int(testKingBuckets[KingSquare(us, k)]) }
		if want := view(before) != view(after); n.Crosses(d) != want {
			t.Fatalf("%s, %v: Crosses %v, want %v", pos.FEN(true), m, !want, want)
		}
		if n.Crosses(d) {
			crossings++
		}
	})
	if crossings < 20 {
		t.Fatalf("only %d moves changed a king's bucket or half", crossings)
	}
}

// TestFileMirrorSymmetry: a KingMirrored net scores a position and its
// mirror image across the d/e line exactly the same, with the same
// accumulators, on both paths; a plain random net does not.
func TestFileMirrorSymmetry(t *testing.T) {
	plain := randomNet(64, SCReLU, 24)
	forEachPath(t, func(name string, n *Net, simd bool) {
		if n.Layout == Plain {
			return
		}
		plain.forceNoSIM = n.forceNoSIM
		acc := n.NewAccumulators(2)
		checked, differ := 0, 0
		forRandomGames(t, 20, 100, 25, func(pos *movegen.Position, _ movegen.Move) {
			m, a, b := twinScores(t, n, acc, pos, fileMirrorFEN)
			if a != b || !slices.Equal(acc[0].v[0], acc[1].v[0]) || !slices.Equal(acc[0].v[1], acc[1].v[1]) {
				t.Fatalf("%s simd=%v: %s scores %d, its mirror image %s scores %d", name, simd, pos.FEN(true), a, m.FEN(true), b)
			}
			if plain.EvaluatePosition(pos) != plain.EvaluatePosition(m) {
				differ++
			}
			checked++
		})
		if checked < 1000 || differ < checked/2 {
			t.Fatalf("%s: %d positions checked, the plain net scores %d of them differently from their mirror images", name, checked, differ)
		}
	})
}
