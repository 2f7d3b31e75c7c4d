package engine_test

import (
	"context"
	"fmt"
	"log"

	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/movegen"
)

// Analyse a position to a fixed depth: White mates in two.
func ExampleEngine_Analyse() {
	e, err := engine.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	fen := "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1"
	if err := e.SetPosition(fen); err != nil {
		log.Fatal(err)
	}
	res, err := e.Analyse(context.Background(), engine.Limits{Depth: 6})
	if err != nil {
		log.Fatal(err)
	}
	san, _ := e.Position().SAN(res.BestMove)
	fmt.Println(san, res.Score, "at depth", res.Depth)
	fmt.Println("win/draw/loss per mille:", res.Score.WDL)
	// Output:
	// Nf6+ mate 2 at depth 6
	// win/draw/loss per mille: [1000 0 0]
}

// Follow a search as it deepens.
func ExampleEngine_Analysis() {
	e, err := engine.New(nil)
	if err != nil {
		log.Fatal(err)
	}
	var res engine.Result
	depth := 0
	for info, err := range e.Analysis(context.Background(), engine.Limits{Depth: 5}, &res) {
		if err != nil {
			log.Fatal(err)
		}
		if info.Depth > depth { // a depth may report more than once
			depth = info.Depth
			fmt.Println("depth", depth) // info.Score, info.PV: the line found at this depth
		}
	}
	fmt.Println("best move legal:", e.Position().IsLegal(res.BestMove))
	// Output:
	// depth 1
	// depth 2
	// depth 3
	// depth 4
	// depth 5
	// best move legal: true
}

// Play a game, engine against engine, to its end: two engines in one
// program, each with its own options and table. White has a queen more.
func Example_game() {
	fen := "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"
	white, _ := engine.New(nil) // the default options never fail
	black, _ := engine.New(nil)
	engines := [2]*engine.Engine{movegen.White: white, movegen.Black: black}
	pos := movegen.NewPosition()
	_ = pos.SetFEN(fen)
	var moves []string
	for pos.Outcome() == movegen.Ongoing {
		e := engines[pos.SideToMove()]
		_ = e.SetPosition(fen, moves...) // the game so far, for repetitions
		res, _ := e.Analyse(context.Background(), engine.Limits{Nodes: 3000})
		moves = append(moves, res.BestMove.UCI(true)) // king takes rook: unambiguous in Chess960 too
		_ = pos.Play(res.BestMove)
	}
	fmt.Println(pos.Outcome(), "with", [2]string{"White", "Black"}[pos.SideToMove()], "to move")
	// Output: checkmate with Black to move
}
