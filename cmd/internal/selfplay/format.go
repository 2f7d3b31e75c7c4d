// Package selfplay stores Kingrook's self-play games compactly, game by game,
// and reads them back as training positions for the evaluation (the NNUE
// trainer) and as text, and converts PGN games with evaluation comments to
// it. It holds the data format that the tools under cmd/ share (cmd/datagen
// writes it, cmd/train reads it); its scores are the search's, with the eval
// package's mate constants. A trainer reads positions like this:
//
//	r := selfplay.NewReader(f) // a buffered reader of the file is made inside
//	for s, err := range r.Positions(selfplay.TrainingFilter) {
//		if err != nil { ... } // corrupt data; a partial last game is not an error
//		use(s.Pos, s.Score, s.Result) // White's view: centipawns, 1/0.5/0
//	}
//
// # Byte layout (versions 1 and 2)
//
// All integers are little-endian. A file is a header followed by games:
//
//	offset  size  header
//	0       4     magic "KRSP"
//	4       4     version, uint32: 1, or 2 for a header with metadata
//	8       4     (version 2 only) length n of the metadata, uint32, at most MaxMetaSize
//	12      n     (version 2 only) metadata: a JSON object of strings (Meta), e.g. the tool, its
//	              build, the seed, the network's SHA-256 and the settings that made the games after it
//
//	offset  size  game record
//	0       1     result from White's view: 0 Black won, 1 draw, 2 White won
//	1       8     occupancy of the start position, uint64, bit i = square i (a1 = 0, h8 = 63)
//	9       (n+1)/2 the n occupied squares' pieces in ascending square order, one nibble each,
//	              low nibble first (n odd: the last high nibble is 0); nibble = colour<<3 | type,
//	              type 1 pawn .. 6 king (movegen.Piece)
//	+0      1     side to move: 0 White, 1 Black
//	+1      2     castling rook files, one nibble per right, low to high: White king side,
//	              White queen side, Black king side, Black queen side; 0-7 = file a-h, 15 = no right
//	              (Chess960 and DFRC rights need the file; standard chess uses the same form)
//	+3      1     en-passant square 0-63, or 64 for none
//	+4      1     half-move clock
//	+5      2     full-move number, uint16
//	+7      2     number of plies p, uint16
//	+9      4p    plies: move uint16 (movegen.Move bits: from, to, promotion, kind; castling
//	              is king takes own rook), then score int16: the score of the position
//	              before the move, in centipawns from White's view; mate scores as the search
//	              gives them (|s| >= eval.MateInMaxPly, eval.Mate - plies to mate); NoScore (-32768) for a
//	              position without a score (a book move in a converted PGN)
//
// A position costs 4 bytes; the start position about 30 bytes per game. The
// first byte of a record (0-2) never equals the first byte of the magic, so a
// file made by concatenating files (cat a b > c) reads as one: a header may
// appear wherever a game could start. A writer never leaves a partial game in
// a file it closes; a file cut short (a killed process, a full disk) ends in
// a partial record, which the reader drops (complete games only) and
// OpenAppend cuts off before appending.
//
// A Writer without metadata writes a version 1 header, which every build
// reads; one given metadata (Writer.SetMeta) writes a version 2 header before
// its first game, also in the middle of a file it appends to, so that each
// run that added games to a file says what made them (Reader.Segments).
// Builds before version 2 stop at such a header with an error naming the
// version: they never misread it.
package selfplay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// Format identification.
const (
	Magic = "KRSP"
	// Version is the newest format version, that of a header with
	// metadata; this package reads versions 1 and 2.
	Version = 2
	// MaxMetaSize bounds the metadata of a version 2 header, in bytes.
	MaxMetaSize = 1 << 16
	// headerSize is the magic and the version word.
	headerSize = 8
)

// Meta is the metadata of a version 2 header: what made the games after it.
// Keys and values are free text; cmd/datagen's keys are listed there.
type Meta map[string]string

// NoScore marks a position without a score: below every score the search
// gives (-eval.Infinite and up). Other scores are stored as the search gives
// them, mates as eval.Mate - plies to mate.
const NoScore = -32768

// Result values of a game record.
const (
	BlackWins byte = 0
	Draw      byte = 1
	WhiteWins byte = 2
)

// MaxPlies is the most plies a game record holds.
const MaxPlies = 1<<16 - 1

// noRight is the castling nibble of a right that is not held.
const noRight = 15

// ErrCorrupt is wrapped by the errors of data that is not in this format.
var ErrCorrupt = errors.New("selfplay: corrupt data")

// Ply is one move of a game with the score of the position before it.
type Ply struct {
	Move  movegen.Move
	Score int16 // centipawns from White's view; NoScore when unknown
}

// Game is one game: where it started, its moves and its result.
type Game struct {
	Start  *movegen.Position // the start position (its FEN is what is stored)
	Plies  []Ply
	Result byte // BlackWins, Draw or WhiteWins
}

// ResultValue returns a result as 1.0, 0.5 or 0.0 from White's view.
func ResultValue(r byte) float64 { return float64(r) / 2 }

// IsMate tells whether a stored score is a mate score.
func IsMate(s int) bool { return s != NoScore && eval.IsMate(s) }

// appendStart appends the start-position part of a record (without the
// result byte and the ply count).
func appendStart(b []byte, p *movegen.Position) []byte {
	occ := p.Occupied()
	b = binary.LittleEndian.AppendUint64(b, uint64(occ))
	var nib byte
	half := false
	for o := occ; o != 0; {
		pc := byte(p.PieceOn(o.PopLSB()))
		if half {
			b = append(b, nib|pc<<4)
		} else {
			nib = pc
		}
		half = !half
	}
	if half {
		b = append(b, nib)
	}
	b = append(b, byte(p.SideToMove()))
	var rights uint16
	for i, r := range []struct {
		c  movegen.Color
		ks bool
	}{{movegen.White, true}, {movegen.White, false}, {movegen.Black, true}, {movegen.Black, false}} {
		f := uint16(noRight)
		if sq := p.CastlingRook(r.c, r.ks); sq != movegen.NoSquare {
			f = uint16(sq.File())
		}
		rights |= f << (4 * i)
	}
	b = binary.LittleEndian.AppendUint16(b, rights)
	b = append(b, byte(p.EPSquare()))
	b = append(b, byte(min(p.Rule50(), 255)))
	b = binary.LittleEndian.AppendUint16(b, uint16(min(p.FullMove(), 65535)))
	return b
}

// startSize returns the size of the start-position part whose occupancy
// is occ.
func startSize(occ uint64) int {
	return 8 + (bits.OnesCount64(occ)+1)/2 + 1 + 2 + 1 + 1 + 2
}

// decodeStart reads a start position as a FEN (Shredder castling letters).
// b holds exactly startSize bytes.
func decodeStart(b []byte) (string, error) {
	occ := binary.LittleEndian.Uint64(b)
	if bits.OnesCount64(occ) > 32 {
		return "", fmt.Errorf("%w: %d pieces", ErrCorrupt, bits.OnesCount64(occ))
	}
	var board [64]movegen.Piece
	i := 0
	for o := movegen.Bitboard(occ); o != 0; i++ {
		nib := b[8+i/2] >> (4 * (i & 1)) & 15
		pc := movegen.Piece(nib)
		if t := pc.Type(); t < movegen.Pawn || t > movegen.King {
			return "", fmt.Errorf("%w: piece code %d", ErrCorrupt, nib)
		}
		board[o.PopLSB()] = pc
	}
	rest := b[8+(i+1)/2:]
	var sb strings.Builder
	movegen.WritePlacement(&sb, func(sq movegen.Square) movegen.Piece { return board[sq] })
	switch rest[0] {
	case 0:
		sb.WriteString(" w ")
	case 1:
		sb.WriteString(" b ")
	default:
		return "", fmt.Errorf("%w: side to move %d", ErrCorrupt, rest[0])
	}
	rights := binary.LittleEndian.Uint16(rest[1:])
	n := 0
	for i := range 4 {
		f := rights >> (4 * i) & 15
		if f == noRight {
			continue
		}
		if f > 7 {
			return "", fmt.Errorf("%w: castling file %d", ErrCorrupt, f)
		}
		c := byte('A' + f)
		if i >= 2 {
			c += 'a' - 'A'
		}
		sb.WriteByte(c)
		n++
	}
	if n == 0 {
		sb.WriteByte('-')
	}
	switch ep := rest[3]; {
	case ep == byte(movegen.NoSquare):
		sb.WriteString(" -")
	case ep < 64:
		sb.WriteString(" " + movegen.Square(ep).String())
	default:
		return "", fmt.Errorf("%w: en-passant square %d", ErrCorrupt, ep)
	}
	fmt.Fprintf(&sb, " %d %d", rest[4], max(1, binary.LittleEndian.Uint16(rest[5:])))
	return sb.String(), nil
}
