package bench

// Positions returns the benchmark positions: standard openings and
// middlegames (the classic perft test positions, positions drawn from the
// UHO and 2moves opening books), Chess960 middlegames and Double Fischer
// Random openings in Shredder-FEN, and endgames. The list is fixed: changing
// it changes the bench signature.
func Positions() []string {
	return []string{
		// Standard: start position and the classic perft test positions.
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
		"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
		"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
		"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",

		// Standard: UHO book middlegames (after 8 moves).
		"rnbq3r/pp2pkb1/2p2npp/3p1p2/3P1N1P/2P3P1/PP1NPPB1/R1BQK2R w KQ - 0 9",
		"r1bqk2r/pp4pp/2nb1n2/2pp1p2/8/3P1NP1/PPPN1PBP/R1BQ1RK1 w kq - 0 9",
		"r2qkb1r/pppb1ppp/3p1nn1/3Pp3/2P1P3/2N3N1/PP3PPP/R1BQKB1R w KQkq - 1 9",
		"r2q1rk1/pp3ppp/2nb1n2/2pp4/2P3b1/P3PN2/1P1PBPPP/RNBQ1RK1 w - - 1 9",
		"r1bqkb1r/1p2pppp/p1np1n2/3N2B1/4P3/1N6/PPP2PPP/R2QKB1R w KQkq - 2 9",
		"r1bqk2r/pp1nppbp/3p2p1/n1pP4/2P1P3/2N1BP2/PP2N1PP/R2QKB1R w KQkq - 1 9",
		"rnbq1rk1/pp4pp/2pbp3/3pNp2/2PPnB2/P3P3/1P1N1PPP/R2QKB1R w KQ - 5 9",
		"rnq1k2r/pb1pbppp/4p3/1pp5/3Pn3/2P2NP1/PP1NPPBP/R1BQR1K1 w kq - 7 9",
		"r1bqk1nb/pp1ppp2/8/2n3p1/2P5/2N5/PP1BPPP1/R2QKBN1 w Qq - 0 9",
		"rnb1k1nr/pp2p2p/3p2p1/q1pP4/2P1p3/2P2P2/P2B2PP/R2QKBNR w KQkq - 0 9",
		"r2qkn1r/pbp1bppp/1p1p1n2/3Pp3/2P1P3/3B1N2/PP2QPPP/RNB2RK1 w kq - 1 9",
		"rnbqk1nr/pp3p2/3p2pb/2pPp3/4P3/2N2NpP/PPP2PB1/R1BQK2R w KQkq - 0 9",
		"r1bqk2r/ppp1b1pp/2nppn2/8/2PP4/2NBBP2/PP4PP/R2QK1NR w KQkq - 1 9",
		"rn1q1rk1/pbppp1bp/1p3np1/8/3PP3/2PB1N2/PPQ3PP/RNB1K2R w KQ - 3 9",
		"r3kb1r/1pp1pppp/p4n2/3q4/3P2b1/5N2/PPP1BPPP/R1BQK2R w KQkq - 2 9",
		"r3kb1r/ppB1pppp/2n2n2/7q/2BP4/2N2b2/PPP2PPP/R2QK2R w KQkq - 0 9",
		"rnbq1rk1/ppp1npb1/3p2pp/8/2PpP3/2N2NP1/PP3PBP/R1BQ1RK1 w - - 0 9",
		"r3kb1r/pp2pppp/nqp5/5bB1/2BPn3/P3PN2/1P3PPP/RNQ1K2R w KQkq - 1 9",

		// Standard: 2moves book openings.
		"rnbqkbnr/ppppp2p/5pp1/8/5B2/3P4/PPP1PPPP/RN1QKBNR w KQkq - 0 3",
		"rnbqkb1r/pppppp1p/6pn/8/8/5NP1/PPPPPP1P/RNBQKB1R w KQkq - 0 3",
		"r1bqkbnr/pppnpppp/3p4/8/6P1/7N/PPPPPP1P/RNBQKB1R w KQkq - 0 3",
		"rnbqkbnr/p1pp1ppp/8/1p2p3/6PP/8/PPPPPP2/RNBQKBNR w KQkq - 0 3",

		// Chess960 middlegames (Shredder-FEN castling).
		"2rbqkbr/p1pppppp/1nn5/1p6/7P/P4P2/1PPPP1PB/NNRBQK1R w HChc - 2 9",
		"nrb1nkrq/2pp1ppp/p4b2/1p2p3/P4B2/3P4/1PP1PPPP/NR1BNRKQ w gb - 0 9",
		"qnrbkrbn/1p1p1pp1/p1p5/4p2p/8/3P1P2/PPP1P1PP/QNRBKRBN w FCfc - 0 9",
		"rnbb1nkr/1ppp1ppp/4p3/p5q1/6P1/1PP5/PB1PPP1P/RN1BQNKR w HAha - 1 9",
		"rnkbq1br/ppp2ppp/3p4/Q3p1n1/5P2/3P2P1/PPP1P2P/RNKB1NBR w HAha - 0 9",
		"r1b1krnq/pp2pppp/1bn5/2pp4/4N3/5P2/PPPPPRPP/R1BBK1NQ w Afa - 0 9",
		"1rkb1rbn/p1pp1ppp/3np3/1p6/4qP2/3NB3/PPPPPRPP/QRKB3N w Bfb - 0 9",
		"rkbbqr1n/1p1pppp1/2p2n2/p4NBp/8/3P4/PPP1PPPP/RK1BQRN1 w FAfa - 0 9",

		// Double Fischer Random openings (Shredder-FEN castling).
		"bnqbrnkr/ppppppp1/8/7p/8/5P2/PPPPP1PP/QNRBKNBR w HChe - 0 2",
		"rknnrqbb/1ppppppp/8/p7/4P3/8/PPPP1PPP/RKBBQNNR w HAea - 0 2",
		"brnbkqnr/p1pppppp/8/1p6/4P3/8/PPPP1PPP/BNNQRBKR w HEhb - 0 2",
		"rbbkrnqn/1ppppppp/8/p7/8/8/PPPPPPPP/RNBQNRKB w ea - 0 2",
		"rbnkbnqr/ppppppp1/8/7p/3P4/1P6/P1P1PPPP/QBNRBKRN b GDha - 0 2",

		// Endgames.
		"8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",               // king and pawn
		"1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",            // rook and pawn, Lucena-like
		"4k3/8/8/3PK3/8/8/r7/7R b - - 0 1",              // rook and pawn, defence
		"8/8/8/8/3k4/8/3r4/3QK3 w - - 0 1",              // queen against rook
		"8/6k1/8/p7/8/8/7P/K7 w - - 0 1",                // pawn race
		"8/5pk1/6p1/8/3n4/6P1/5PK1/2B5 w - - 0 1",       // bishop against knight
		"8/5pk1/6p1/8/8/6P1/r4PK1/4R3 w - - 0 1",        // rook ending
		"8/8/8/8/8/2k5/2p5/1K5Q w - - 0 1",              // queen against pawn
		"8/8/3k4/8/8/2BBK3/8/8 w - - 0 1",               // two bishops
		"8/4k3/3b2p1/1p3p2/1P3P2/4B1P1/5K2/8 w - - 0 1", // opposite bishops
		"6k1/5ppp/8/8/8/8/1q3PPP/3R2K1 w - - 0 1",       // back-rank tactics
		"8/3k4/8/2n5/8/8/3K1N2/8 w - - 0 1",             // knights only: a draw
	}
}
