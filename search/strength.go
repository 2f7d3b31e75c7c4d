package search

import (
	"math"
	"math/rand/v2"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// Playing at a chosen strength (UCI_LimitStrength, UCI_Elo). A weakened
// search differs from the full one in three ways, all driven by the setting:
//
//   - it sees less: a node budget and a depth cap that shrink as the setting
//     falls; the time limits of the full search still apply, so it never
//     has more time than the full search;
//   - it searches several root lines (MultiPV) and may play one that is not
//     the best, drawn by a softmax over each line's loss against the best,
//     among lines that lose no more than a loss budget: the temperature and
//     the budget grow as the setting falls;
//   - the temperature depends on the position: it is higher in quiet
//     positions with many moves, lower when the best move is a capture, a
//     check evasion or clearly better than the rest, and zero (the best move
//     always) for a recapture from the level weakSafeLevel on, for a mate
//     found, and in a technical win (a queen or rook against king and pawns,
//     few men), where the search also keeps a minimum budget so that the
//     mate is found.
//
// A setting is placed on the plan's level scale by weakCalibration (or
// weakCalibration960 in Chess960), whose points were found by matches
// against Stockfish 15.1 at the same UCI_Elo. From weakFullLevel up (2800
// and above in standard chess, 2600 and above in Chess960) the plan is the
// full search on one thread, with neither a node budget nor a depth cap, so
// that the top of the range plays at full strength whatever the time
// control.
//
// The choice is drawn from a generator seeded by Strength.Seed and the
// position, so a game replays move for move from the same seed and start
// (the node budget, not the clock, ends the search at the settings where it
// matters), and differs from game to game with the seed.

// The range of Strength.Elo.
const (
	MinElo = 1000
	MaxElo = 2850
)

// Strength weakens a search to play at about Elo on the scale of Stockfish
// 15.1's UCI_Elo (weakCalibration, or weakCalibration960 in Chess960). The
// zero value is full strength.
type Strength struct {
	Elo      int    // 0: full strength; else MinElo..MaxElo (values outside are clamped)
	Seed     uint64 // the random choices: the same seed, game and setting replay the same moves
	Chess960 bool   // the game is Chess960 or DFRC: the setting is placed by weakCalibration960
}

// Enabled tells whether s weakens the search.
func (s Strength) Enabled() bool { return s.Elo > 0 }

// weakState is what a weakened search needs: its plan, set when the search
// starts, and the root lines of the last depth it completed.
type weakState struct {
	on        bool
	level     float64 // the setting's place on the plan's scale (weakLevel)
	nodes     uint64  // node budget: no new depth from nodes/weakSoftNodesDiv, stop at nodes
	depth     int     // deepest depth searched
	lines     int     // root lines searched (MultiPV)
	temp      float64 // softmax temperature in centipawns, before the position's factor
	maxLoss   int     // largest loss against the best line a chosen line may have
	technical bool    // a technical win: always the best line
	seed      uint64

	done      []rootMove // the lines of the last completed depth, best first
	doneLen   int        // how many of done are valid
	doneDepth int        // the depth they were completed at; 0 = none yet
}

// weakCalibration places settings on the plan's level scale, where the
// weak* constants are given at weakLevelLow and weakLevelHigh. The points
// were set by matches against Stockfish 15.1 at the same UCI_Elo at
// 10+0.1, the lowest setting by its score against the 1400
// (bench/README.md has the record), all with kingrook-11, whose stronger
// net moved 1400 from level 1550 (+89 ± 105 with it) to 1480 and 2200 from
// 2600 (+89 ± 122) to 2450. At 2600 full strength held Stockfish's 2600
// with kingrook-10 but scored far above it with kingrook-11, so 2600 has
// the plan of two lines at level 3000 (which held it with kingrook-11; with
// kingrook-5 it had scored well below), and the full search on one thread
// (weakFullLevel) starts at 2800. It holds 2850, the top of the range.
// Between the points the level is linear in the setting.
var weakCalibration = [...]calibrationPoint{
	{MinElo, 1060},
	{1400, 1480},
	{1800, 1950},
	{2200, 2450},
	{2600, 3000},
	{2800, 3300},
	{MaxElo, 3400},
}

// weakCalibration960 is weakCalibration for Chess960 and DFRC, set by the
// same matches on FRC_openings. Against Stockfish's limited levels the same
// plan scored differently in Chess960: with the kingrook-10 net less at
// 1800 and more at 1400 and 2200. kingrook-11 moved 1800 from level 2050
// (+203 ± 133 with it) to 1900, where Chess960 and DFRC both held (at 1920
// DFRC scored +108 ± 96), and 2200 from 2590 (+158 ± 103) to 2510.
// From 2600 up it is full strength (one line), which holds Stockfish's
// 2600 in Chess960 but not in standard chess.
var weakCalibration960 = [...]calibrationPoint{
	{MinElo, 1060},
	{1400, 1460},
	{1800, 1900},
	{2200, 2510},
	{2600, 3300},
	{MaxElo, 3450},
}

// calibrationPoint places the setting elo at the plan level level.
type calibrationPoint struct{ elo, level int }

// calibration returns the calibration table of standard chess, or of
// Chess960 when chess960 is set.
func calibration(chess960 bool) []calibrationPoint {
	if chess960 {
		return weakCalibration960[:]
	}
	return weakCalibration[:]
}

// weakLevel returns the plan level of the setting elo (clamped to
// MinElo..MaxElo), by the Chess960 table when chess960 is set.
func weakLevel(elo int, chess960 bool) float64 {
	table := calibration(chess960)
	e := max(MinElo, min(MaxElo, elo))
	for i := 1; i < len(table); i++ {
		lo, hi := table[i-1], table[i]
		if e <= hi.elo {
			f := float64(e-lo.elo) / float64(hi.elo-lo.elo)
			return float64(lo.level) + f*float64(hi.level-lo.level)
		}
	}
	return float64(table[len(table)-1].level)
}

// weakScale places a plan level on the scale of the weak* constants: 0 at
// weakLevelLow, 1 at weakLevelHigh, beyond them outside 0..1.
func weakScale(level float64) float64 {
	return (level - weakLevelLow) / (weakLevelHigh - weakLevelLow)
}

// geom moves geometrically from lo (x = 0) to hi (x = 1).
func geom(lo, hi, x float64) float64 {
	return lo * math.Pow(hi/lo, x)
}

// planWeak sets the plan of a search of pos at strength s (off when s is
// full strength).
func (p *Pool) planWeak(pos *movegen.Position, s Strength) {
	p.weak.on = s.Enabled()
	p.weak.doneLen, p.weak.doneDepth = 0, 0
	if !p.weak.on {
		return
	}
	st := &p.weak
	st.level = weakLevel(s.Elo, s.Chess960)
	st.seed = s.Seed
	if st.full() {
		// The top of the scale: what the full search sees in its time,
		// at every time control.
		st.nodes, st.depth, st.lines = math.MaxUint64, eval.MaxPly-1, 1
		st.temp, st.maxLoss, st.technical = 0, 0, false
		return
	}
	x := weakScale(st.level)
	st.nodes = uint64(geom(weakNodesLow, weakNodesHigh, x))
	st.depth = min(eval.MaxPly-1, max(1, int(math.Round(weakDepthLow+(weakDepthHigh-weakDepthLow)*x))))
	st.lines = min(MaxMultiPV, max(1, int(math.Round(weakLinesLow+(weakLinesHigh-weakLinesLow)*x))))
	st.temp = geom(weakTempLow, weakTempHigh, x)
	st.maxLoss = int(math.Round(geom(weakLossLow, weakLossHigh, x)))
	st.technical = technicalWin(pos)
	if st.technical {
		st.nodes = max(st.nodes, weakTechNodes)
		st.depth = eval.MaxPly - 1
		st.lines = 1
	}
}

// fitSearch fits the plan to the search it runs in, once planWeak has set
// it: multiPV is the number of lines shown, the MultiPV asked for or fewer
// when the root has fewer moves. The budget grows with lines shown beyond
// the plan's, so that the lines it chooses among are searched about as
// deep as without; and a one-line plan, which leaves no choice to draw, has
// its budget varied by the seed instead, so that games differ where the
// budget ends the search. It does nothing to the full search.
func (st *weakState) fitSearch(pos *movegen.Position, multiPV int) {
	if !st.on || st.full() {
		return
	}
	if multiPV > st.lines {
		st.nodes = st.nodes / uint64(st.lines) * uint64(multiPV)
	}
	if st.lines == 1 && !st.technical {
		st.nodes = uint64(float64(st.nodes) * (1 + weakNodeJitter*(2*st.rng(pos).Float64()-1)))
	}
}

// rng returns the generator of the random choices at pos: the seed and
// the position (its key and its ply in the game) decide them.
func (st *weakState) rng(pos *movegen.Position) *rand.Rand {
	return rand.New(rand.NewPCG(st.seed, pos.Key()^uint64(pos.Ply())*0x9e3779b97f4a7c15))
}

// full tells whether the plan is the full search on one thread: the level
// is weakFullLevel or above.
func (st *weakState) full() bool { return st.level >= weakFullLevel }

// technicalWin tells whether the side to move has a simple technical win:
// the opponent has only king and pawns, the side to move a queen or a rook,
// and there are at most weakTechMen men on the board.
func technicalWin(pos *movegen.Position) bool {
	us := pos.SideToMove()
	them := us ^ 1
	if pos.NonPawnMaterial(them) || pos.Occupied().Count() > weakTechMen {
		return false
	}
	return pos.Pieces(us, movegen.Queen)|pos.Pieces(us, movegen.Rook) != 0
}

// weakSoftStop tells the main worker, after a completed depth, to start no
// new one: the next would likely overrun the node budget.
func (p *Pool) weakSoftStop(w *worker) bool {
	return p.weak.on && w.nodes >= p.weak.nodes/weakSoftNodesDiv
}

// weakSnapshot keeps the first n root lines of the depth just completed.
func (w *worker) weakSnapshot(depth, n int) {
	st := &w.pool.weak
	for len(st.done) < n {
		st.done = append(st.done, rootMove{})
	}
	for i := 0; i < n; i++ {
		rm := &w.rootMoves[i]
		d := &st.done[i]
		pv := append(d.pv[:0], rm.pv...)
		*d = *rm
		d.pv = pv
	}
	st.doneLen, st.doneDepth = n, depth
}

// weakResult chooses the move of a weakened search among the lines of its
// last completed depth, reports that line (with its own score) as the last
// info, and returns it. ok is false when no depth was completed; the full
// search's result then stands.
func (p *Pool) weakResult(onInfo func(Info)) (Result, bool) {
	st := &p.weak
	w := p.workers[0]
	if st.doneDepth == 0 || st.doneLen == 0 {
		return Result{}, false
	}
	lines := st.done[:st.doneLen]
	i := st.choose(w.pos, lines, st.rng(w.pos))
	line := lines[i]
	if onInfo != nil {
		score, bound := p.tbRootScore(line.score, line.bound)
		score, bound = w.exactDraw(score, bound, line.pv)
		onInfo(w.lineInfo(w.progress(), line, 1, st.doneDepth, score, bound))
	}
	score, _ := w.exactDraw(line.score, Exact, line.pv)
	res := Result{BestMove: line.move, Score: score, Depth: st.doneDepth, Nodes: p.totalNodes()}
	if len(line.pv) > 1 {
		res.PonderMove = line.pv[1]
	} else {
		res.PonderMove = p.ponderFromTT(w.pos, line.move)
	}
	return res, true
}

// choose returns the index of the line to play among lines (best first)
// of the root position pos.
func (st *weakState) choose(pos *movegen.Position, lines []rootMove, rng *rand.Rand) int {
	best := lines[0].score
	if len(lines) == 1 || st.technical || eval.IsMate(best) {
		return 0
	}
	temp := st.temp * st.tempFactor(pos, lines)
	if temp <= 0 {
		return 0
	}
	var weights [MaxMultiPV]float64
	total := 0.0
	for i, l := range lines {
		loss := best - l.score
		if loss > st.maxLoss || eval.IsMate(l.score) {
			continue
		}
		weights[i] = math.Exp(-float64(loss) / temp)
		total += weights[i]
	}
	r := rng.Float64() * total
	for i := range lines {
		if r < weights[i] {
			return i
		}
		r -= weights[i]
	}
	return 0
}

// tempFactor scales the temperature by what kind of decision the root
// position asks for: an obvious one (a recapture, a winning capture, a check
// to answer, one move clearly best) is made with fewer errors than a quiet
// one, and a quiet position errs more the more moves it offers.
func (st *weakState) tempFactor(pos *movegen.Position, lines []rootMove) float64 {
	best := lines[0].move
	var f float64
	switch {
	case isRecapture(pos, best):
		if st.level >= weakSafeLevel {
			return 0
		}
		f = weakRecaptureTemp
	case pos.InCheck():
		f = weakCheckTemp
	case isCapture(pos, best) && see(pos, best, 0):
		f = weakCaptureTemp
	default:
		var l movegen.MoveList
		pos.GenerateLegal(&l)
		x := float64(l.N-weakQuietMovesLow) / float64(weakQuietMovesHigh-weakQuietMovesLow)
		f = weakQuietTempLow + (weakQuietTempHigh-weakQuietTempLow)*max(0, min(1, x))
	}
	if lines[0].score-lines[1].score >= weakObviousGap {
		f *= weakObviousTemp
	}
	return f
}

// isRecapture tells whether m takes back on the square where the last move
// captured.
func isRecapture(pos *movegen.Position, m movegen.Move) bool {
	last := pos.LastMove()
	if last == movegen.NoMove || last == movegen.NullMove || !isCapture(pos, m) || m.To() != last.To() {
		return false
	}
	prev := pos.Clone()
	prev.Unmake()
	return prev.CapturedType(last) != movegen.NoPieceType
}
