// Package movegen holds the rules of chess, Chess960 and Double Fischer
// Random: squares, pieces, bitboards, moves, and the Position, with FEN in
// and out, legal move generation, make and unmake with Zobrist keys, move
// text (UCI and SAN), the ends of a game, perft and the 960 start
// positions. It imports only the standard library, and its perft counts
// are those of the published suites for standard chess and Chess960.
//
// # Positions
//
// NewPosition returns the standard start; SetFEN sets a Position from FEN
// text whose castling field may be standard (KQkq), Shredder-FEN (HAha) or
// X-FEN (KQkq where a letter names the rook unambiguously, file letters
// where not), and reports a malformed or impossible FEN as an error that
// leaves the position as it was. FEN(false) writes standard FEN, and X-FEN
// for a Chess960 position; FEN(true) writes Shredder-FEN. Chess960FEN(n)
// and DFRCFEN(w, b) return the start positions in the standard numbering
// (0..959; 518 is the standard start) and refuse other numbers;
// RandomStartFEN draws one.
//
// A Position keeps the moves made on it since SetFEN: it knows repetitions
// and takes moves back. The zero Position is not ready for use (NewPosition
// and SetFEN make one), and a Position is not safe for concurrent use:
// Clone gives each goroutine its own.
//
// # Moves
//
// A Move is a 16-bit value: from-square, to-square and a kind. Castling is
// encoded as the king taking its own rook (e1h1), in standard chess too;
// Move.UCI writes it as e1g1 unless asked for Chess960 text.
//
// LegalMoves lists the legal moves (GenerateLegal fills a MoveList without
// allocating). Play makes a move once it has checked that it is legal, and
// Undo takes it back; Make and Unmake do the same without checks, for moves
// known to be legal, as a search does millions of times a second.
//
// ParseMove reads UCI text ("e2e4", "e7e8q", castling as "e1g1" or
// "e1h1"), ParseSAN standard algebraic notation ("Nf3", "exd6", "O-O",
// "e8=Q+"); Move.UCI and Position.SAN write them. Text that is not a legal
// move of the position is an error, never a move.
//
// # The end of a game
//
// Position.Outcome tells whether the game is over, and why: checkmate,
// stalemate, insufficient material, the fifty-move rule or threefold
// repetition. InCheck, HasLegalMove, InsufficientMaterial, Rule50 and
// RepetitionCount give the parts.
//
// # Perft
//
// Position.Perft counts the leaves of the legal move tree to a depth,
// Divide counts them per root move, and WritePerft prints them as
// Stockfish's "go perft" does.
package movegen
