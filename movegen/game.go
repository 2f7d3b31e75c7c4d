package movegen

import (
	"errors"
	"fmt"
	"strings"
)

// The rules as a program that plays or records games uses them: the legal
// moves as a slice, moves played and taken back with checks, SAN text, and
// how a game ends.

// LegalMoves returns the legal moves of the side to move, in generation
// order, as a new slice; none when the game is over by checkmate or
// stalemate. GenerateLegal fills a MoveList instead, without allocating.
func (p *Position) LegalMoves() []Move {
	var l MoveList
	p.GenerateLegal(&l)
	out := make([]Move, l.N)
	for i := range out {
		out[i] = l.Moves[i].Move
	}
	return out
}

// Play makes the move m, as Make does, when it is legal here; any other
// value (NoMove, a move of another position) is an error that leaves the
// position unchanged. Make is its unchecked twin, for moves known to be
// legal: from GenerateLegal, LegalMoves, ParseMove or ParseSAN.
func (p *Position) Play(m Move) error {
	if !p.IsLegal(m) {
		return fmt.Errorf("movegen: %s is not a legal move in %s", m.UCI(true), p.FEN(false))
	}
	p.Make(m)
	return nil
}

// errNothingToUndo is Undo's error when no move can be taken back.
var errNothingToUndo = errors.New("movegen: no move to take back")

// Undo takes back the last move made by Play or Make, as Unmake does. When
// there is none (Ply is 0: SetFEN forgets the moves before its position) or
// the last was a null move (MakeNull's, which UnmakeNull takes back), it
// returns an error and leaves the position unchanged.
func (p *Position) Undo() error {
	if m := p.LastMove(); m == NoMove || m == NullMove {
		return errNothingToUndo
	}
	p.Unmake()
	return nil
}

// SAN returns the legal move m in standard algebraic notation, as PGN
// writes it: "e4", "Nbd7", "exd6" (en passant too), "e8=Q", "O-O" and
// "O-O-O" (also in Chess960: the king's side is the side of its rook), with
// "+" for check and "#" for checkmate. A piece move names the file of its
// square when another piece of its kind could move to the same square, the
// rank when the file does not tell them apart, and both when neither does.
// A value that is not a legal move here is an error. ParseSAN reads the
// text back.
func (p *Position) SAN(m Move) (string, error) {
	if !p.IsLegal(m) {
		return "", fmt.Errorf("movegen: %s is not a legal move in %s", m.UCI(true), p.FEN(false))
	}
	var sb strings.Builder
	from, to := m.From(), m.To()
	pt := p.PieceOn(from).Type()
	capture := p.CapturedType(m) != NoPieceType
	switch {
	case m.IsCastling():
		sb.WriteString("O-O")
		if to.File() < from.File() {
			sb.WriteString("-O")
		}
	case pt == Pawn:
		if capture {
			sb.WriteByte(byte('a' + from.File()))
			sb.WriteByte('x')
		}
		sb.WriteString(to.String())
		if m.IsPromotion() {
			sb.WriteByte('=')
			sb.WriteByte(sanLetter(m.PromotionType()))
		}
	default:
		sb.WriteByte(sanLetter(pt))
		sb.WriteString(p.sanFrom(m, pt))
		if capture {
			sb.WriteByte('x')
		}
		sb.WriteString(to.String())
	}
	p.Make(m)
	if p.InCheck() {
		if p.HasLegalMove() {
			sb.WriteByte('+')
		} else {
			sb.WriteByte('#')
		}
	}
	p.Unmake()
	return sb.String(), nil
}

// sanLetter is SAN's letter of a piece type other than the pawn.
func sanLetter(pt PieceType) byte {
	return "NBRQK"[pt-Knight]
}

// sanFrom is the part of the from-square that the SAN of m, a legal move
// of a piece of type pt, needs to tell it from the other legal moves of
// such pieces to the same square: "", the file, the rank or both.
func (p *Position) sanFrom(m Move, pt PieceType) string {
	from := m.From()
	var l MoveList
	p.GenerateLegal(&l)
	others, sameFile, sameRank := false, false, false
	for i := 0; i < l.N; i++ {
		o := l.Moves[i].Move
		if o == m || o.To() != m.To() || o.IsCastling() || p.PieceOn(o.From()).Type() != pt {
			continue
		}
		others = true
		sameFile = sameFile || o.From().File() == from.File()
		sameRank = sameRank || o.From().Rank() == from.Rank()
	}
	switch {
	case !others:
		return ""
	case !sameFile:
		return from.String()[:1]
	case !sameRank:
		return from.String()[1:]
	}
	return from.String()
}

// Outcome tells whether a game is over in a position, and how.
type Outcome uint8

// The outcomes of a position. Checkmate is a loss for the side to move;
// every other end is a draw. A threefold repetition and the 50-move rule
// are draws a player may claim under the FIDE rules; engine matches
// (cutechess, fastchess) end the game on them, as Position.Outcome does.
const (
	Ongoing              Outcome = iota // the game goes on
	Checkmate                           // the side to move is in check and has no legal move
	Stalemate                           // the side to move is not in check and has no legal move
	InsufficientMaterial                // neither side can mate (Position.InsufficientMaterial)
	FiftyMoveRule                       // 100 half-moves without a capture or pawn move
	ThreefoldRepetition                 // the position occurred twice before (Position.RepetitionCount)
)

// String names the outcome: "checkmate", "threefold repetition", ...
func (o Outcome) String() string {
	switch o {
	case Ongoing:
		return "ongoing"
	case Checkmate:
		return "checkmate"
	case Stalemate:
		return "stalemate"
	case InsufficientMaterial:
		return "insufficient material"
	case FiftyMoveRule:
		return "fifty-move rule"
	case ThreefoldRepetition:
		return "threefold repetition"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// Outcome returns whether the game is over here, and how: checkmate and
// stalemate first (a mate on the 100th half-move stands), then
// insufficient material, the 50-move rule (Rule50 at 100) and threefold
// repetition, counted over the moves made since SetFEN (the position's
// game history, as SetFEN followed by Make or Play builds it). It is
// IsGameDrawn's rule with the reason given.
func (p *Position) Outcome() Outcome {
	switch {
	case !p.HasLegalMove() && p.InCheck():
		return Checkmate
	case !p.HasLegalMove():
		return Stalemate
	case p.InsufficientMaterial():
		return InsufficientMaterial
	case p.Rule50() >= 100:
		return FiftyMoveRule
	case p.RepetitionCount() >= 2:
		return ThreefoldRepetition
	}
	return Ongoing
}
