package search

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/tt"
)

// player is one side of an in-process game: its own pool and table, the
// limits and options of each of its searches.
type player struct {
	pool *Pool
	lim  Limits
	opt  Options
}

func newPlayer(lim Limits, opt Options) *player {
	opt.Threads, opt.MultiPV = 1, max(1, opt.MultiPV)
	return &player{pool: NewPool(tt.New(4)), lim: lim, opt: opt}
}

// outcome is how a game played by playGame ended.
type outcome int

const (
	unfinished outcome = iota
	whiteMates
	blackMates
	drawn // stalemate, threefold, 50-move rule or dead material
)

// playGame plays from fen, white and black moving in turn, until the game
// ends or maxPlies plies are played; it returns the outcome and the moves.
func playGame(t *testing.T, fen string, white, black *player, maxPlies int) (outcome, []movegen.Move) {
	t.Helper()
	pos := mustPos(t, fen)
	var moves []movegen.Move
	for len(moves) < maxPlies {
		if !pos.HasLegalMove() {
			if !pos.InCheck() {
				return drawn, moves
			}
			if pos.SideToMove() == movegen.White {
				return blackMates, moves
			}
			return whiteMates, moves
		}
		if pos.IsGameDrawn() {
			return drawn, moves
		}
		pl := white
		if pos.SideToMove() == movegen.Black {
			pl = black
		}
		res := pl.pool.Search(context.Background(), pos, pl.lim, pl.opt, nil)
		if !pos.IsLegal(res.BestMove) {
			t.Fatalf("%s: illegal move %v", pos.FEN(true), res.BestMove)
		}
		pos.Make(res.BestMove)
		moves = append(moves, res.BestMove)
	}
	return unfinished, moves
}

// randomBareKing returns a legal position, White to move, with the white
// king and piece (Q or R) against the bare black king, drawn by r.
func randomBareKing(t *testing.T, r *rand.Rand, piece movegen.PieceType) string {
	t.Helper()
	for {
		var board [64]byte
		sq := r.Perm(64)[:3]
		board[sq[0]], board[sq[1]], board[sq[2]] = 'K', 'k', map[movegen.PieceType]byte{movegen.Queen: 'Q', movegen.Rook: 'R'}[piece]
		var fen strings.Builder
		for rank := 7; rank >= 0; rank-- {
			empty := 0
			for file := range 8 {
				c := board[rank*8+file]
				if c == 0 {
					empty++
					continue
				}
				if empty > 0 {
					fen.WriteByte(byte('0' + empty))
					empty = 0
				}
				fen.WriteByte(c)
			}
			if empty > 0 {
				fen.WriteByte(byte('0' + empty))
			}
			if rank > 0 {
				fen.WriteByte('/')
			}
		}
		fen.WriteString(" w - - 0 1")
		var p movegen.Position
		if p.SetFEN(fen.String()) != nil || p.InCheck() || !p.HasLegalMove() {
			continue
		}
		p.MakeNull() // Black, not to move, must not be in check either
		ok := !p.InCheck()
		p.UnmakeNull()
		if ok {
			return fen.String()
		}
	}
}

// TestWeakMatesBareKing: at the lowest setting the engine mates with K+Q
// and K+R against a bare king defended at full strength with the
// tablebases (4000 nodes a move, the moves kept by the root's DTZ ranking:
// the longest resistance), within the 50-move rule, from fixed starts with
// either colour and from random ones. With the network, as the engine plays by default; the
// hand-written evaluation mates from the fixed starts. Both have only the
// bare-king term (eval.MopUp) to grade the way to the mate.
func TestWeakMatesBareKing(t *testing.T) {
	type start struct {
		name, fen string
		want      outcome
	}
	starts := []start{
		{"KQK centre", "8/8/8/3k4/8/8/8/Q3K3 w - - 0 1", whiteMates},
		{"KRK centre", "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", whiteMates},
		{"KRK far", "8/8/8/8/3k4/8/8/K6R w - - 0 1", whiteMates},
		{"KRK black", "r3k3/8/8/8/8/3K4/8/8 b - - 0 1", blackMates},
		{"KQK black", "4k3/8/8/8/3K4/8/8/7q b - - 0 1", blackMates},
	}
	fixed := len(starts)
	random := 16
	if testing.Short() {
		starts, fixed, random = starts[1:2], 1, 1
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		piece := []movegen.PieceType{movegen.Queen, movegen.Rook}[i%2]
		starts = append(starts, start{fmt.Sprintf("random %d", i), randomBareKing(t, r, piece), whiteMates})
	}
	tb := openTB(t)
	play := func(t *testing.T, net *nnue.Net, s start) {
		weak := newPlayer(Limits{}, Options{Net: net, Strength: Strength{Elo: MinElo, Seed: 7}})
		defence := tbOptions(tb)
		defence.Net = net
		full := newPlayer(Limits{Nodes: 4000}, defence)
		white, black := weak, full
		if s.want == blackMates {
			white, black = full, weak
		}
		got, moves := playGame(t, s.fen, white, black, rule50Plies)
		if got != s.want {
			t.Fatalf("%s: outcome %d after %d plies, want %d (mate within the 50-move rule)", s.fen, got, len(moves), s.want)
		}
	}
	for _, s := range starts {
		t.Run("nnue/"+s.name, func(t *testing.T) { play(t, nnue.Default(), s) })
	}
	if !testing.Short() {
		for _, s := range starts[:fixed] {
			t.Run("hce/"+s.name, func(t *testing.T) { play(t, nil, s) })
		}
	}
}

// TestWeakMatesAtEverySetting: the K+R v K win is converted within the
// 50-move rule against the tablebase defence at the calibrated settings
// above the lowest too, in standard chess and under the Chess960 plan.
func TestWeakMatesAtEverySetting(t *testing.T) {
	if testing.Short() {
		t.Skip("several endgames at larger budgets")
	}
	tb := openTB(t)
	const fen = "8/8/8/8/3k4/8/8/K6R w - - 0 1"
	for _, chess960 := range []bool{false, true} {
		for _, elo := range []int{1400, 1800, 2200} {
			weak := newPlayer(Limits{}, Options{Net: nnue.Default(), Strength: Strength{Elo: elo, Seed: 3, Chess960: chess960}})
			defence := tbOptions(tb)
			defence.Net = nnue.Default()
			got, moves := playGame(t, fen, weak, newPlayer(Limits{Nodes: 4000}, defence), rule50Plies)
			if got != whiteMates {
				t.Errorf("UCI_Elo %d (Chess960 plan %v): outcome %d after %d plies, want a mate within the 50-move rule", elo, chess960, got, len(moves))
			}
		}
	}
}

// TestWeakPlanGrows: in both calibrations (standard chess and Chess960)
// each setting's plan is at least as strong as the one below it in every
// respect and higher in its level, outside settings are clamped, the
// calibration points land on the table's levels. (The two tables differ
// either way: each is set by its own matches.)
func TestWeakPlanGrows(t *testing.T) {
	for _, chess960 := range []bool{false, true} {
		for _, c := range calibration(chess960) {
			if got := weakLevel(c.elo, chess960); got != float64(c.level) {
				t.Errorf("chess960 %v, setting %d: level %v, want the calibrated %d", chess960, c.elo, got, c.level)
			}
		}
		if weakLevel(MinElo-100, chess960) != weakLevel(MinElo, chess960) ||
			weakLevel(MaxElo+100, chess960) != weakLevel(MaxElo, chess960) {
			t.Errorf("chess960 %v: a setting outside the range is not clamped", chess960)
		}
		pos := mustPos(t, movegen.StartFEN)
		var prev weakState
		for elo := MinElo; elo <= MaxElo; elo++ {
			p := NewPool(tt.New(1))
			p.planWeak(pos, Strength{Elo: elo, Chess960: chess960})
			st := p.weak
			if elo > MinElo && (st.level <= prev.level || st.nodes < prev.nodes || st.depth < prev.depth ||
				st.lines > prev.lines || st.temp > prev.temp || st.maxLoss > prev.maxLoss) {
				t.Fatalf("chess960 %v, setting %d: plan %+v is not stronger than %d's %+v", chess960, elo, st, elo-1, prev)
			}
			if st.nodes < 1 || st.depth < 1 || st.lines < 1 {
				t.Fatalf("chess960 %v, setting %d: empty plan %+v", chess960, elo, st)
			}
			prev = st
		}
	}
	// The top of both scales searches one line, as full strength does: in
	// standard chess from above 2600 (two lines there), in Chess960 from
	// 2600 down to about 2490; at 2200 more than one.
	for _, c := range []struct {
		chess960 bool
		elo      int
		oneLine  bool
	}{
		{false, 2200, false}, {false, 2600, false}, {false, 2700, true}, {false, MaxElo, true},
		{true, 2200, false}, {true, 2550, true}, {true, 2600, true}, {true, MaxElo, true},
	} {
		p := NewPool(tt.New(1))
		p.planWeak(mustPos(t, movegen.StartFEN), Strength{Elo: c.elo, Chess960: c.chess960})
		if (p.weak.lines == 1) != c.oneLine {
			t.Errorf("chess960 %v, setting %d: %d lines, want one line: %v", c.chess960, c.elo, p.weak.lines, c.oneLine)
		}
	}
}

// TestWeakNodeBudget: a weakened search stops at its node budget, not the
// clock, once a depth is complete; the budget grows with the setting.
func TestWeakNodeBudget(t *testing.T) {
	fens := []string{
		movegen.StartFEN,
		"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
		"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
		"8/5pk1/6p1/3P4/2p2P2/2P3PK/8/8 b - - 0 40",
	}
	lim := Limits{HasClock: true, WTime: 3600e9, BTime: 3600e9, WTimeGiven: true, BTimeGiven: true}
	prev := uint64(0)
	step := 200
	if testing.Short() {
		fens, step = fens[1:2], 600
	}
	for elo := MinElo; elo <= 2000; elo += step {
		p := NewPool(tt.New(4))
		p.planWeak(mustPos(t, fens[0]), Strength{Elo: elo})
		budget := p.weak.nodes
		if budget <= prev {
			t.Errorf("Elo %d: budget %d not above the lower setting's %d", elo, budget, prev)
		}
		prev = budget
		for _, fen := range fens {
			var infos []Info
			res := p.Search(context.Background(), mustPos(t, fen), lim, Options{Threads: 4, MultiPV: 1,
				Strength: Strength{Elo: elo}}, func(i Info) { infos = append(infos, i) })
			if res.Depth < 1 || len(infos) == 0 {
				t.Fatalf("Elo %d: no depth completed: %+v", elo, res)
			}
			// The budget is checked at every node once depth 1 is complete.
			if res.Nodes > budget+1 && res.Depth > 1 {
				t.Errorf("Elo %d, %s: %d nodes, budget %d", elo, fen, res.Nodes, budget)
			}
		}
	}
}

// TestWeakReportsChosenLine: the last info of a weakened search is line 1
// with the played move's line and the score the search gave that line, so
// bestmove is the first move of the last PV.
func TestWeakReportsChosenLine(t *testing.T) {
	const fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
	others := 0
	for seed := range uint64(20) {
		p := NewPool(tt.New(4))
		var infos []Info
		res := p.Search(context.Background(), mustPos(t, fen), Limits{}, Options{Threads: 1, MultiPV: 1,
			Strength: Strength{Elo: MinElo, Seed: seed}}, func(i Info) { infos = append(infos, i) })
		last := infos[len(infos)-1]
		if last.MultiPV != 1 || last.PV[0] != res.BestMove || last.Score != res.Score {
			t.Fatalf("seed %d: last info %+v, result %+v", seed, last, res)
		}
		st := &p.weak
		found := false
		for i, l := range st.done[:st.doneLen] {
			if l.move == res.BestMove {
				found = l.score == last.Score && last.Depth == st.doneDepth
				others += min(i, 1)
			}
		}
		if !found {
			t.Fatalf("seed %d: %v with score %d is not a line of depth %d", seed, res.BestMove, last.Score, st.doneDepth)
		}
		for _, i := range infos {
			if i.MultiPV > 1 {
				t.Fatalf("seed %d: line %d reported, MultiPV 1 asked", seed, i.MultiPV)
			}
		}
	}
	if others == 0 {
		t.Errorf("the lowest setting played the best line in 20 of 20 searches")
	}
}

// posAfter returns the position of fen after the moves (UCI text).
func posAfter(t *testing.T, fen string, moves ...string) *movegen.Position {
	t.Helper()
	pos := mustPos(t, fen)
	for _, s := range moves {
		pos.Make(mustMove(t, pos, s))
	}
	return pos
}

// TestWeakNeverMissesRecaptureOrMate: from the level weakSafeLevel on, a weakened
// search that finds a recapture best plays it (not another recapture or a
// quiet move close to it), whatever the seed; a mate in one is played at
// every setting.
func TestWeakNeverMissesRecaptureOrMate(t *testing.T) {
	safe := MinElo // the lowest setting that always takes back
	for weakLevel(safe, false) < weakSafeLevel {
		safe++
	}
	cases := []struct {
		name  string
		pos   *movegen.Position
		elo   int
		check func(res Result, best movegen.Move) bool
	}{
		// The Exchange Ruy Lopez, 4. Bxc6: dxc6 and bxc6 take back, a few
		// centipawns apart, and every other move loses a piece.
		{"recapture", posAfter(t, movegen.StartFEN, "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6"),
			safe, func(res Result, best movegen.Move) bool { return res.BestMove == best }},
		{"mate in one, lowest", mustPos(t, "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"), MinElo,
			func(res Result, _ movegen.Move) bool { return res.BestMove.UCI(false) == "a1a8" }},
		{"mate in one", mustPos(t, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"), safe,
			func(res Result, _ movegen.Move) bool { return res.BestMove.UCI(false) == "h5f7" }},
	}
	seeds := uint64(40)
	if testing.Short() {
		seeds = 10
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for seed := range seeds {
				p := NewPool(tt.New(4))
				res := p.Search(context.Background(), c.pos, Limits{}, Options{Threads: 1, MultiPV: 1,
					Strength: Strength{Elo: c.elo, Seed: seed}}, nil)
				best := p.weak.done[0].move
				if c.name == "recapture" && (!isRecapture(c.pos, best) || p.weak.doneLen < 2 || !isRecapture(c.pos, p.weak.done[1].move)) {
					t.Fatalf("the two best lines are not both recaptures: %v", p.weak.done[:p.weak.doneLen])
				}
				if !c.check(res, best) {
					t.Fatalf("seed %d: played %v, the best line is %v", seed, res.BestMove, best)
				}
			}
		})
	}
}

// weakGame plays plies moves of a game from fen between two weakened
// players at elo with the seed, and returns them.
func weakGame(t *testing.T, fen string, elo int, seed uint64, plies int) []movegen.Move {
	t.Helper()
	opt := Options{Net: nnue.Default(), Strength: Strength{Elo: elo, Seed: seed}}
	_, moves := playGame(t, fen, newPlayer(Limits{}, opt), newPlayer(Limits{}, opt), plies)
	return moves
}

// TestWeakSeedReplays: a seed replays the same game; other seeds give
// other games at low settings. From the standard start, a Chess960 start
// and a DFRC start.
func TestWeakSeedReplays(t *testing.T) {
	frc, _ := movegen.Chess960FEN(3)
	dfrc, _ := movegen.DFRCFEN(100, 700)
	fens, elos := []string{movegen.StartFEN, frc, dfrc}, []int{MinElo, 1500}
	if testing.Short() {
		fens, elos = fens[2:], elos[:1]
	}
	for _, fen := range fens {
		for _, elo := range elos {
			a := weakGame(t, fen, elo, 11, 24)
			b := weakGame(t, fen, elo, 11, 24)
			if !slices.Equal(a, b) {
				t.Fatalf("%s at %d: the same seed played %v, then %v", fen, elo, a, b)
			}
			differ := 0
			for seed := range uint64(4) {
				if !slices.Equal(a, weakGame(t, fen, elo, 100+seed, 24)) {
					differ++
				}
			}
			if differ < 3 {
				t.Errorf("%s at %d: only %d of 4 other seeds gave another game", fen, elo, differ)
			}
		}
	}
}

// TestWeakOffUnchanged: the zero Strength is the full search.
func TestWeakOffUnchanged(t *testing.T) {
	const fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
	a, _ := run(t, fen, Limits{Depth: 7}, Options{MultiPV: 1})
	b, _ := run(t, fen, Limits{Depth: 7}, Options{MultiPV: 1, Strength: Strength{}})
	if a != b {
		t.Fatalf("zero Strength changed the search: %+v vs %+v", a, b)
	}
}

// TestWeakKeepsTheClock: a weakened search whose node budget the clock
// cannot afford stops at the full search's time limit, not at its budget: a
// setting never thinks longer than full strength.
func TestWeakKeepsTheClock(t *testing.T) {
	const fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
	const moveTime = 50 * time.Millisecond
	elo := MinElo // the highest setting with a node budget
	for weakLevel(elo+1, false) < weakFullLevel {
		elo++
	}
	p := NewPool(tt.New(4))
	pos := mustPos(t, fen)
	p.planWeak(pos, Strength{Elo: elo})
	budget := p.weak.nodes
	if p.weak.full() {
		t.Fatalf("setting %d: the full search, no budget", elo)
	}
	start := time.Now()
	res := p.Search(context.Background(), pos, Limits{MoveTime: moveTime}, Options{Threads: 1, MultiPV: 1,
		Strength: Strength{Elo: elo}}, nil)
	took := time.Since(start)
	if res.BestMove == movegen.NoMove || !pos.IsLegal(res.BestMove) {
		t.Fatalf("no legal move: %+v", res)
	}
	if res.Nodes >= budget {
		t.Fatalf("%d nodes in %v: the budget of %d was reached, so the clock was not tested", res.Nodes, moveTime, budget)
	}
	// Generous for a loaded machine: the search's own limit is 50 ms.
	if took > 40*moveTime {
		t.Errorf("the weakened search took %v under a move time of %v", took, moveTime)
	}
}

// TestWeakTopIsFullSearch: from 2800 up in standard chess and from 2600 up
// in Chess960, the plan is the full search on one thread, with no node
// budget or depth cap that a long time control would reach, and it searches
// and plays as the full search does; below weakFullLevel the plan has a
// budget.
func TestWeakTopIsFullSearch(t *testing.T) {
	const fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
	for _, chess960 := range []bool{false, true} {
		from := 2800
		if chess960 {
			from = 2600
		}
		for _, elo := range []int{2200, 2599, 2600, 2799, 2800, MaxElo} {
			p := NewPool(tt.New(1))
			p.planWeak(mustPos(t, fen), Strength{Elo: elo, Chess960: chess960})
			full := elo >= from
			if p.weak.full() != full || full && (p.weak.nodes != math.MaxUint64 || p.weak.depth != eval.MaxPly-1 || p.weak.lines != 1) {
				t.Fatalf("chess960 %v, setting %d: plan %+v, want the full search: %v", chess960, elo, p.weak, full)
			}
			if !full && (p.weak.nodes == math.MaxUint64 || p.weak.depth >= eval.MaxPly-1) {
				t.Fatalf("chess960 %v, setting %d: plan %+v has no budget", chess960, elo, p.weak)
			}
		}
		want, _ := run(t, fen, Limits{Depth: 9}, Options{MultiPV: 1})
		for _, elo := range []int{from, MaxElo} {
			got, _ := run(t, fen, Limits{Depth: 9}, Options{Threads: 4, MultiPV: 1,
				Strength: Strength{Elo: elo, Seed: 3, Chess960: chess960}})
			if got.BestMove != want.BestMove || got.Score != want.Score || got.Nodes != want.Nodes || got.Depth != want.Depth {
				t.Errorf("chess960 %v, setting %d: %+v, the full search on one thread %+v", chess960, elo, got, want)
			}
		}
	}
}

// TestWeakFitSearch: lines shown beyond the plan's grow the budget in
// proportion; a one-line plan below full strength varies its budget by the
// seed, within weakNodeJitter and the same for the same seed and position;
// the full search is left as it is.
func TestWeakFitSearch(t *testing.T) {
	pos := mustPos(t, movegen.StartFEN)
	plan := func(elo int, seed uint64, multiPV int) (nominal, fitted weakState) {
		p := NewPool(tt.New(1))
		p.planWeak(pos, Strength{Elo: elo, Seed: seed})
		nominal = p.weak
		p.weak.fitSearch(pos, multiPV)
		return nominal, p.weak
	}
	nom, fit := plan(1400, 1, 1)
	if nom.lines < 2 || fit.nodes != nom.nodes {
		t.Fatalf("1400 with MultiPV 1: %d lines, budget %d, planned %d", nom.lines, fit.nodes, nom.nodes)
	}
	_, wide := plan(1400, 1, 3*nom.lines)
	if want := nom.nodes / uint64(nom.lines) * uint64(3*nom.lines); wide.nodes != want {
		t.Errorf("1400 with MultiPV %d: budget %d, want %d", 3*nom.lines, wide.nodes, want)
	}

	const elo = 2700
	seen := map[uint64]bool{}
	for seed := range uint64(20) {
		nom, fit := plan(elo, seed, 1)
		if nom.lines != 1 || nom.full() {
			t.Fatalf("%d: plan %+v, want one line below full strength", elo, nom)
		}
		lo, hi := float64(nom.nodes)*(1-weakNodeJitter), float64(nom.nodes)*(1+weakNodeJitter)
		if float64(fit.nodes) < lo || float64(fit.nodes) > hi {
			t.Errorf("%d, seed %d: budget %d outside %.0f..%.0f", elo, seed, fit.nodes, lo, hi)
		}
		if _, again := plan(elo, seed, 1); again.nodes != fit.nodes {
			t.Errorf("%d, seed %d: budget %d, then %d", elo, seed, fit.nodes, again.nodes)
		}
		seen[fit.nodes] = true
	}
	if len(seen) < 15 {
		t.Errorf("%d: 20 seeds gave only %d budgets", elo, len(seen))
	}
	if nom, fit := plan(2800, 5, 4); fit.nodes != nom.nodes || fit.lines != 1 {
		t.Errorf("2800: the full search's plan changed: %+v to %+v", nom, fit)
	}
}

// TestWeakChoosesAmongPlanLines: lines asked for beyond the plan's are
// searched and shown, but the move is chosen among the plan's lines only,
// so MultiPV does not change how the weakened engine plays.
func TestWeakChoosesAmongPlanLines(t *testing.T) {
	const fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
	for seed := range uint64(6) {
		p := NewPool(tt.New(4))
		shown := map[int]bool{}
		res := p.Search(context.Background(), mustPos(t, fen), Limits{}, Options{Threads: 1, MultiPV: 12,
			Strength: Strength{Elo: 1400, Seed: seed}}, func(i Info) { shown[i.MultiPV] = true })
		st := &p.weak
		if st.lines >= 12 || st.doneLen != st.lines {
			t.Fatalf("seed %d: %d lines kept to choose from, the plan has %d", seed, st.doneLen, st.lines)
		}
		if !shown[12] {
			t.Errorf("seed %d: line 12 of the 12 asked for was never shown", seed)
		}
		found := false
		for _, l := range st.done[:st.doneLen] {
			found = found || l.move == res.BestMove
		}
		if !found {
			t.Errorf("seed %d: %v is not among the plan's %d lines", seed, res.BestMove, st.lines)
		}
	}
	// The budget grows only with the lines the root has: in check with
	// three replies, MultiPV 50 searches the plan's budget.
	const check = "4k3/8/8/8/8/8/4r3/4K3 w - - 0 1" // Kxe2, Kd1 or Kf1
	pos := mustPos(t, check)
	p := NewPool(tt.New(4))
	p.planWeak(pos, Strength{Elo: 1400, Seed: 1})
	planned := p.weak.nodes
	p.Search(context.Background(), pos, Limits{}, Options{Threads: 1, MultiPV: 50, Strength: Strength{Elo: 1400, Seed: 1}}, nil)
	if p.weak.nodes != planned {
		t.Errorf("MultiPV 50 with three legal moves: budget %d, planned %d", p.weak.nodes, planned)
	}
}
