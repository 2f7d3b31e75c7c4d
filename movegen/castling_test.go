package movegen

import (
	"fmt"
	"testing"
)

// castlingCase is one row of the Chess960 castling tables: a king file, a
// rook file on one side of it, and the color that castles.
type castlingCase struct {
	color    Color
	kingFile int
	rookFile int
}

// allCastlingCases enumerates every legal (king file, rook file) pair for
// both colors: the king on b..g, the rook anywhere left (a-side) or right
// (h-side) of it. That is 21 + 21 per color, 84 in all.
func allCastlingCases() []castlingCase {
	var cases []castlingCase
	for _, c := range []Color{White, Black} {
		for k := 1; k <= 6; k++ {
			for r := 0; r < 8; r++ {
				if r != k {
					cases = append(cases, castlingCase{c, k, r})
				}
			}
		}
	}
	return cases
}

func TestCastlingTable(t *testing.T) {
	cases := allCastlingCases()
	if len(cases) != 84 {
		t.Fatalf("%d castling cases, want 84", len(cases))
	}
	for _, tc := range cases {
		side := "a"
		if tc.kingSide() {
			side = "h"
		}
		name := fmt.Sprintf("%v-%s-side-K%v-R%v", colorName(tc.color), side, tc.king(), tc.rook())
		t.Run(name, func(t *testing.T) {
			p, fen := checkCastlingFEN(t, tc)
			checkCastlingText(t, tc, p)
			checkCastlingMake(t, tc, p, fen)
		})
	}
}

func (tc castlingCase) king() Square   { return NewSquare(tc.kingFile, int(tc.color)*7) }
func (tc castlingCase) rook() Square   { return NewSquare(tc.rookFile, int(tc.color)*7) }
func (tc castlingCase) kingSide() bool { return tc.rookFile > tc.kingFile }

// targets are where king and rook land (the test's own rule: c and d on the
// a-side, g and f on the h-side).
func (tc castlingCase) targets() (kTo, rTo Square) {
	back := int(tc.color) * 7
	if tc.kingSide() {
		return NewSquare(6, back), NewSquare(5, back)
	}
	return NewSquare(2, back), NewSquare(3, back)
}

// otherKing is where the other king stands: on the fifth (fourth) rank,
// away from every castling path and off the rook's file.
func (tc castlingCase) otherKing() Square {
	if tc.color == Black {
		return NewSquare((tc.rookFile+4)%8, 3)
	}
	return NewSquare((tc.rookFile+4)%8, 4)
}

// checkCastlingFEN sets up the case from FEN in Shredder and K/Q form and
// checks the castling data and the FEN printed back.
func checkCastlingFEN(t *testing.T, tc castlingCase) (*Position, string) {
	us, ksq, rsq, kingSide, otherK := tc.color, tc.king(), tc.rook(), tc.kingSide(), tc.otherKing()
	before := map[Square]Piece{
		ksq:    MakePiece(us, King),
		rsq:    MakePiece(us, Rook),
		otherK: MakePiece(us.Other(), King),
	}
	letter := byte('A' + tc.rookFile)
	kq := byte('Q')
	if kingSide {
		kq = 'K'
	}
	if us == Black {
		letter += 'a' - 'A'
		kq += 'a' - 'A'
	}
	fen := fmt.Sprintf("%s %v %c - 0 1", placement(before), us, letter)
	p := mustPos(t, fen)
	if got := p.FEN(true); got != fen {
		t.Fatalf("FEN(true) = %q, want %q", got, fen)
	}
	if got := p.CastlingRook(us, kingSide); got != rsq {
		t.Fatalf("castling rook %v, want %v", got, rsq)
	}
	// The K/Q form names the same (only) rook.
	q := mustPos(t, fmt.Sprintf("%s %v %c - 0 1", placement(before), us, kq))
	if q.Key() != p.Key() || q.CastlingRook(us, kingSide) != rsq {
		t.Fatalf("%c and %c give different positions", kq, letter)
	}
	if got, want := p.FEN(false), fmt.Sprintf("%s %v %c - 0 1", placement(before), us, kq); got != want {
		t.Fatalf("FEN(false) = %q, want %q", got, want)
	}
	return p, fen
}

// checkCastlingText checks the castling move generated, its targets, and
// its text in both modes, printed and parsed.
func checkCastlingText(t *testing.T, tc castlingCase, p *Position) {
	ksq, rsq := tc.king(), tc.rook()
	want := NewSpecial(ksq, rsq, Castling)
	cm := castlingMoves(p)
	if len(cm) != 1 || cm[0] != want {
		t.Fatalf("castling moves %v, want [%v]", cm, want)
	}
	kTo, rTo := tc.targets()
	if want.CastlingKingTarget() != kTo || want.CastlingRookTarget() != rTo {
		t.Fatalf("targets %v %v, want %v %v", want.CastlingKingTarget(), want.CastlingRookTarget(), kTo, rTo)
	}
	if got := want.UCI(true); got != ksq.String()+rsq.String() {
		t.Errorf("UCI(true) = %s", got)
	}
	if got := want.UCI(false); got != ksq.String()+kTo.String() {
		t.Errorf("UCI(false) = %s", got)
	}
	for _, chess960 := range []bool{true, false} {
		if m, err := ParseMove(p, ksq.String()+rsq.String(), chess960); err != nil || m != want {
			t.Errorf("ParseMove king takes rook (960=%v) = %v, %v", chess960, m, err)
		}
	}
	// The king's move to its target as text: castling in standard
	// mode when the king moves two or more squares; a one-square
	// step is a plain king move in both modes; in 960 mode only
	// king takes rook means castling.
	if ksq != kTo && kTo != rsq {
		text := ksq.String() + kTo.String()
		dist := max(ksq.File()-kTo.File(), kTo.File()-ksq.File())
		m, err := ParseMove(p, text, false)
		if dist >= 2 && (err != nil || m != want) {
			t.Errorf("ParseMove %s standard = %v, %v; want castling", text, m, err)
		}
		if dist == 1 && (err != nil || m != NewMove(ksq, kTo)) {
			t.Errorf("ParseMove %s standard = %v, %v; want a plain king move", text, m, err)
		}
		m, err = ParseMove(p, text, true)
		if dist >= 2 && err == nil {
			t.Errorf("ParseMove %s in 960 mode = %v, want an error", text, m)
		}
		if dist == 1 && (err != nil || m != NewMove(ksq, kTo)) {
			t.Errorf("ParseMove %s in 960 mode = %v, %v; want a plain king move", text, m, err)
		}
	}
}

// checkCastlingMake makes the castling move, checks the position reached
// and takes the move back.
func checkCastlingMake(t *testing.T, tc castlingCase, p *Position, fen string) {
	us := tc.color
	want := NewSpecial(tc.king(), tc.rook(), Castling)
	kTo, rTo := tc.targets()
	otherK := tc.otherKing()
	key, pawnKey := p.Key(), p.PawnKey()
	p.Make(want)
	after := map[Square]Piece{
		kTo:    MakePiece(us, King),
		rTo:    MakePiece(us, Rook),
		otherK: MakePiece(us.Other(), King),
	}
	full := 1
	if us == Black {
		full = 2
	}
	wantFEN := fmt.Sprintf("%s %v - - 1 %d", placement(after), us.Other(), full)
	if got := p.FEN(true); got != wantFEN {
		t.Fatalf("after castling FEN %q, want %q", got, wantFEN)
	}
	if p.CastlingRights() != 0 || p.KingSquare(us) != kTo {
		t.Fatalf("after castling: rights %b, king %v", p.CastlingRights(), p.KingSquare(us))
	}
	checkConsistent(t, p)
	if p.Key() != mustPos(t, wantFEN).Key() {
		t.Fatal("incremental key differs from the key of the after-FEN")
	}
	p.Unmake()
	if p.FEN(true) != fen || p.Key() != key || p.PawnKey() != pawnKey {
		t.Fatalf("unmake gave %q", p.FEN(true))
	}
	checkConsistent(t, p)
}
