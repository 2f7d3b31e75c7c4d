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
	var feats []uint16
	forRandomGames(t, 20, 80, 23, func(pos *movegen.Position, _ movegen.Move) {
		acc[0].Refresh(n, pos)
		feats = AppendFeatures(feats[:0], pos)
		acc[1].RefreshFeatures(n, feats)
		for c := movegen.White; c <= movegen.Black; c++ {
			king := pos.KingSquare(c)
			want := slices.Clone(n.FeatureB)
			for occ := pos.Occupied(); occ != 0; {
				sq := occ.PopLSB()
				seen := sq
				if king.File() < 4 {
					seen = movegen.Square(sq.Rank()*8 + 7 - sq.File())
				}
				f := FeatureIndex(c, pos.PieceOn(sq), seen)
				if g := n.Feature(c, pos.PieceOn(sq), sq, king); g != f {
					t.Fatalf("%s: Feature %d, want %d", pos.FEN(true), g, f)
				}
				if g := plain.Feature(c, pos.PieceOn(sq), sq, king); g != FeatureIndex(c, pos.PieceOn(sq), sq) {
					t.Fatalf("%s: a plain net's Feature %d is not FeatureIndex", pos.FEN(true), g)
				}
				for i := range want {
					want[i] += n.FeatureW[f*n.H+i]
				}
			}
			if !slices.Equal(acc[0].Values(c), want) || !slices.Equal(acc[1].Values(c), want) {
				t.Fatalf("%s, perspective %v: Refresh or RefreshFeatures is not the sum of the mirrored inputs", pos.FEN(true), c)
			}
		}
	})
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

// TestFileMirrorSymmetry: a KingMirrored net scores a position and its
// mirror image across the d/e line exactly the same, with the same
// accumulators, on both paths; a plain random net does not.
func TestFileMirrorSymmetry(t *testing.T) {
	plain := randomNet(64, SCReLU, 24)
	forEachPath(t, func(name string, n *Net, simd bool) {
		if n.Layout != KingMirrored {
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
