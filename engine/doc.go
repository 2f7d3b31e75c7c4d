// Package engine is Kingrook, a chess engine for standard chess, Chess960
// and Double Fischer Random, as a Go value. An Engine holds the options,
// the current game (its position and moves, for repetitions), the
// transposition table and the search threads.
//
// # Analysing from Go
//
// New makes an engine (a nil Config: the default options, no
// diagnostics); SetPosition sets the game as UCI's position command does;
// Analyse searches it and returns the best move, the expected reply, the
// score (centipawns or mate, with the chances of a win, a draw and a loss),
// the depth, the nodes and the principal variation of each MultiPV line:
//
//	e, err := engine.New(nil)
//	if err != nil {
//		log.Fatal(err)
//	}
//	if err := e.SetPosition("startpos", "e2e4", "e7e5"); err != nil {
//		log.Fatal(err)
//	}
//	res, err := e.Analyse(ctx, engine.Limits{Depth: 12})
//	if err != nil {
//		log.Fatal(err)
//	}
//	fmt.Println(res.BestMove.UCI(false), res.Score) // UCI(true) in Chess960: king takes rook
//
// Limits are UCI's go limits: a depth, a node count, a time per move, the
// clocks, or none (the zero Limits), which searches until the context is
// cancelled. Cancelling the context stops any search and returns the best
// move found so far; depth 1 is always completed first, which takes
// microseconds. Analysis gives the same search as a range-over-func
// iterator of its progress reports (Info).
//
// The options are plain Go values: Settings, given to New in Config or
// later to SetSettings (DefaultSettings has the defaults); SetOption sets
// one by its UCI name, as a GUI does. Moves and positions are of package
// movegen, which also holds the rules of chess for a program's own use:
// FEN, legal moves, SAN, the end of a game.
//
// Several engines may search at once in one program, each on its own
// threads: they share no state but read-only tables (in a build with the
// tag tune, the search parameters its tuning options set are the
// program's). An engine leaves the
// program's runtime settings alone (GOMAXPROCS), unless Config.RaiseProcs
// asks for what the kingrook binary does.
//
// # Driving a front end
//
// Go starts a search without blocking and reports through callbacks, as a
// protocol loop needs (package uci drives the engine so). Stop, PonderHit,
// NewGame, SetOption and SetPosition are safe while a search runs, and so
// is Analyse: a new search stops the one running, which reports its result
// first. Options lists the options as UCI advertises them.
package engine
