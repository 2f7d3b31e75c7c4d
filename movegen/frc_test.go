package movegen

import "testing"

func TestChess960Positions(t *testing.T) {
	seen := map[string]int{}
	for n := 0; n < 960; n++ {
		r, err := Chess960BackRank(n)
		if err != nil {
			t.Fatal(err)
		}
		var kings, rooks, bishops []int
		counts := map[PieceType]int{}
		for f, pt := range r {
			counts[pt]++
			switch pt {
			case King:
				kings = append(kings, f)
			case Rook:
				rooks = append(rooks, f)
			case Bishop:
				bishops = append(bishops, f)
			}
		}
		if counts[King] != 1 || counts[Queen] != 1 || counts[Rook] != 2 || counts[Bishop] != 2 || counts[Knight] != 2 {
			t.Fatalf("position %d: bad piece set %v", n, r)
		}
		if bishops[0]%2 == bishops[1]%2 {
			t.Errorf("position %d: bishops on same color %v", n, r)
		}
		if !(rooks[0] < kings[0] && kings[0] < rooks[1]) {
			t.Errorf("position %d: king not between rooks %v", n, r)
		}
		fen, err := Chess960FEN(n)
		if err != nil {
			t.Fatal(err)
		}
		if prev, ok := seen[fen]; ok {
			t.Errorf("positions %d and %d are the same", prev, n)
		}
		seen[fen] = n
		var p Position
		if err := p.SetFEN(fen); err != nil {
			t.Fatalf("position %d: %v", n, err)
		}
		if got := p.FEN(true); got != fen {
			t.Errorf("position %d: FEN round trip %q -> %q", n, fen, got)
		}
		if p.Perft(1) < 18 {
			t.Errorf("position %d: too few moves", n)
		}
	}
	if len(seen) != 960 {
		t.Fatalf("%d distinct positions, want 960", len(seen))
	}
	fen, _ := Chess960FEN(518)
	if fen != "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1" {
		t.Errorf("518 = %q, want the standard position", fen)
	}
	// A few known numbers (from the standard numbering table).
	for n, want := range map[int]string{0: "BBQNNRKR", 959: "RKRNNQBB", 1: "BQNBNRKR", 4: "QBBNNRKR"} {
		r, _ := Chess960BackRank(n)
		got := ""
		for _, pt := range r {
			got += MakePiece(White, pt).String()
		}
		if got != want {
			t.Errorf("position %d = %s, want %s", n, got, want)
		}
	}
	if _, err := Chess960BackRank(960); err == nil {
		t.Error("960 accepted")
	}
	if _, err := Chess960BackRank(-1); err == nil {
		t.Error("-1 accepted")
	}
}

func TestDFRC(t *testing.T) {
	fen, err := DFRCFEN(0, 959)
	if err != nil {
		t.Fatal(err)
	}
	if want := "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1"; fen != want {
		t.Fatalf("DFRC(0,959) = %q, want %q", fen, want)
	}
	var p Position
	if err := p.SetFEN(fen); err != nil {
		t.Fatal(err)
	}
	if p.CastlingRook(White, true) != H1 || p.CastlingRook(White, false) != F1 ||
		p.CastlingRook(Black, true) != C8 || p.CastlingRook(Black, false) != A8 {
		t.Errorf("wrong castling rooks: %v %v %v %v", p.CastlingRook(White, true), p.CastlingRook(White, false),
			p.CastlingRook(Black, true), p.CastlingRook(Black, false))
	}
}
