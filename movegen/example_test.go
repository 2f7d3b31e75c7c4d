package movegen_test

import (
	"fmt"
	"log"
	"slices"
	"strings"

	"github.com/kingrook/kingrook/movegen"
)

// List the legal moves of a Chess960 start position in SAN: both knights
// reach c3.
func ExampleChess960FEN() {
	fen, err := movegen.Chess960FEN(6)
	if err != nil {
		log.Fatal(err)
	}
	pos := movegen.NewPosition()
	if err := pos.SetFEN(fen); err != nil {
		log.Fatal(err)
	}
	var sans []string
	for _, m := range pos.LegalMoves() {
		san, _ := pos.SAN(m) // a legal move always has one
		sans = append(sans, san)
	}
	slices.Sort(sans)
	fmt.Println(fen)
	fmt.Println(len(sans), "moves:", strings.Join(sans, " "))
	// Output:
	// qnbnrbkr/pppppppp/8/8/8/8/PPPPPPPP/QNBNRBKR w HEhe - 0 1
	// 20 moves: Na3 Nbc3 Ndc3 Ne3 a3 a4 b3 b4 c3 c4 d3 d4 e3 e4 f3 f4 g3 g4 h3 h4
}

// Count the leaves of the move tree: the standard start and "Kiwipete",
// the usual test of castling, en passant and promotions.
func ExamplePosition_Perft() {
	for _, fen := range []string{
		movegen.StartFEN,
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
	} {
		pos := movegen.NewPosition()
		if err := pos.SetFEN(fen); err != nil {
			log.Fatal(err)
		}
		fmt.Println(pos.Perft(1), pos.Perft(2), pos.Perft(3))
	}
	// Output:
	// 20 400 8902
	// 48 2039 97862
}

// Convert a game's UCI moves to SAN, as a PGN's move text.
func ExamplePosition_SAN() {
	game := "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 f7f6 d2d4 e5d4 f3d4 c6c5 d4e6 d8d1 f1d1"
	pos := movegen.NewPosition()
	var text []string
	for i, s := range strings.Fields(game) {
		m, err := movegen.ParseMove(pos, s, false)
		if err != nil {
			log.Fatal(err) // not a legal move of the game's position
		}
		san, _ := pos.SAN(m)
		if i%2 == 0 {
			text = append(text, fmt.Sprintf("%d.", i/2+1))
		}
		text = append(text, san)
		pos.Make(m)
	}
	fmt.Println(strings.Join(text, " "))
	// Output:
	// 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 8. Ne6 Qxd1 9. Rxd1
}

// Tell how a game ended: the fool's mate.
func ExamplePosition_Outcome() {
	pos := movegen.NewPosition()
	for _, s := range []string{"f3", "e5", "g4", "Qh4#"} {
		m, err := movegen.ParseSAN(pos, s)
		if err != nil {
			log.Fatal(err)
		}
		if err := pos.Play(m); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Println(pos.Outcome(), pos.FEN(false))
	// Output: checkmate rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3
}
