package syzygy

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/kingrook/kingrook/movegen"
)

// randomPosition places the pieces of a material such as "KRPvKB" at random
// until the position is legal. With ep set, it makes the side to move able
// to take a pawn that just moved two squares (the material needs a pawn on
// each side). rule50 is the half-move clock to write.
func randomPosition(r *rand.Rand, material string, ep bool, rule50 int) (*movegen.Position, error) {
	sides := strings.Split(material, "v")
	if len(sides) != 2 {
		return nil, fmt.Errorf("bad material %q", material)
	}
	for tries := 0; tries < 10000; tries++ {
		var board [64]byte
		stm := movegen.Color(r.IntN(2))
		epSq := -1
		if ep {
			// The opponent's pawn stands on its fourth rank with the two
			// squares behind it empty, one of ours beside it.
			file := r.IntN(8)
			side := 1 - 2*r.IntN(2)
			if file+side < 0 || file+side > 7 {
				side = -side
			}
			rank, behind, start := 4, 5, 6 // white to move: black pawn on rank 5
			them, us := byte('p'), byte('P')
			if stm == movegen.Black {
				rank, behind, start = 3, 2, 1
				them, us = 'P', 'p'
			}
			board[rank*8+file] = them
			board[rank*8+file+side] = us
			board[start*8+file] = '-' // must stay empty
			epSq = behind*8 + file
			board[epSq] = '-'
		}
		ok := true
		skip := [2]bool{ep, ep} // one pawn of each side is placed already
		for c, s := range sides {
			for i := 0; i < len(s) && ok; i++ {
				pc := s[i]
				if pc == 'P' && skip[c] {
					skip[c] = false
					continue
				}
				if c == 1 {
					pc += 'a' - 'A'
				}
				placed := false
				for k := 0; k < 100; k++ {
					sq := r.IntN(64)
					if board[sq] != 0 {
						continue
					}
					if (pc == 'P' || pc == 'p') && (sq < 8 || sq >= 56) {
						continue
					}
					board[sq] = pc
					placed = true
					break
				}
				ok = placed
			}
		}
		if !ok {
			continue
		}
		for i := range board {
			if board[i] == '-' {
				board[i] = 0
			}
		}
		var sb strings.Builder
		for rank := 7; rank >= 0; rank-- {
			empty := 0
			for f := 0; f < 8; f++ {
				pc := board[rank*8+f]
				if pc == 0 {
					empty++
					continue
				}
				if empty > 0 {
					sb.WriteByte(byte('0' + empty))
					empty = 0
				}
				sb.WriteByte(pc)
			}
			if empty > 0 {
				sb.WriteByte(byte('0' + empty))
			}
			if rank > 0 {
				sb.WriteByte('/')
			}
		}
		sb.WriteString([]string{" w - ", " b - "}[stm])
		if epSq >= 0 {
			sb.WriteString(movegen.Square(epSq).String())
		} else {
			sb.WriteString("-")
		}
		fmt.Fprintf(&sb, " %d 1", rule50)
		pos := movegen.NewPosition()
		if err := pos.SetFEN(sb.String()); err != nil {
			continue
		}
		if ep && pos.EPSquare() == movegen.NoSquare {
			continue
		}
		return pos, nil
	}
	return nil, fmt.Errorf("no legal position found for %s", material)
}
