//go:build !tune

//go:generate go run gen_tune.go

package search

import "time"

// Every pruning margin, reduction, move-ordering weight and
// time-management constant lives here. A build with the tag tune compiles
// params_tune.go instead, generated from this file (go generate ./search):
// there the margins and reductions are variables a tuner sets (tune.go).

const (
	// Aspiration windows.
	aspirationDepth        = 4  // first depth searched with a window
	aspirationDelta        = 12 // initial half-width in centipawns
	aspirationGrowthDiv    = 2  // each failure widens the window by delta/aspirationGrowthDiv
	aspirationMaxFailHighs = 3  // fail highs in a row each search one ply less, up to this many

	// Iterative deepening.
	helperAheadNum  = 1               // a helper skips a depth that this share of the workers
	helperAheadDen  = 2               // ... (1/2) already search, or that one of them completed
	bestChangeDecay = 0.5             // per iteration, of the count of best-move changes
	reportInterval  = 3 * time.Second // from then on every MultiPV line and re-search is reported

	// Table entries.
	evalOnlyDepth     = -6 // depth stored with an eval-only entry, below any search depth
	qsDepth           = 0  // depth stored by quiescence's first ply (with the quiet checks)
	qsNoChecksDepth   = -1 // depth stored by its later plies
	ttCutoffMaxRule50 = 90 // no TT cutoff from this 50-move counter on: the stored score may miss the draw

	// The fifty-move rule: a draw after this many plies without a capture
	// or pawn move (unless that last move mated).
	rule50Plies = 100

	// The network's evaluation is multiplied by (netFadeBase - rule50) /
	// netFadeBase: a drawish trend as the counter nears the rule.
	netFadeBase = 200

	// Reverse futility (static null move) pruning.
	rfpMaxDepth = 8
	rfpMargin   = 75 // per ply of depth, reduced by one step when improving

	// Razoring.
	razorMaxDepth = 3
	razorMargin   = 250 // per ply

	// Null-move pruning.
	nmpMinDepth  = 3
	nmpBase      = 3
	nmpDepthDiv  = 3
	nmpEvalDiv   = 200
	nmpEvalLimit = 3

	// Internal iterative reduction.
	iirMinDepth = 4

	// Late move pruning: quiet moves tried at depth d before the rest are
	// skipped is (lmpBase + d*d) / (2 - improving).
	lmpMaxDepth = 8
	lmpBase     = 3

	// Futility pruning of quiet moves: the margin adds the move's history
	// over fpHistoryDiv.
	fpMaxDepth   = 8
	fpBase       = 90
	fpMargin     = 100 // per ply
	fpHistoryDiv = 128

	// History pruning: a quiet move at depth hpMaxDepth or less is skipped
	// when its history is below -hpMargin per ply of depth.
	hpMaxDepth = 4
	hpMargin   = 4096

	// SEE pruning in the main search (per ply of depth).
	seeQuietMargin   = -60
	seeCaptureMargin = -25
	seeMaxDepth      = 8

	// Late move reductions: r = lmrBase + ln(depth)*ln(moves)/lmrDiv.
	lmrBase              = 0.75
	lmrDiv               = 2.25
	lmrMinDepth          = 3
	lmrHistoryDiv        = 8192
	lmrCaptureBase       = 0.2
	lmrCaptureDiv        = 3.0
	lmrCaptureHistoryDiv = 8192 // a capture's history lowers its reduction by one ply per this much
	lmrCutNode           = 2    // plies more for a quiet move at a cut node
	lmrTableSize         = 64   // depths and move counts from here on use the last entry

	// After a reduced search fails high, the full-depth search goes a ply
	// deeper when its score beat the best by lmrDeeperBase +
	// lmrDeeperMul*depth, and a ply shallower when it did not beat the best
	// by lmrShallowerMargin.
	lmrDeeperBase      = 40
	lmrDeeperMul       = 2
	lmrShallowerMargin = 10

	// A PV node whose alpha rises searches its later moves a ply less, at
	// depths pvDropMinDepth to pvDropMaxDepth.
	pvDropMinDepth = 3
	pvDropMaxDepth = 11

	// Hindsight: a node reached by a reduced move is searched a ply deeper
	// when the reduction was hindsightDeeperR or more and the mover's
	// evaluation did not fall, a ply shallower when it was
	// hindsightShallowerR or more and the evaluation fell by
	// hindsightFallMargin.
	hindsightDeeperR    = 3
	hindsightShallowerR = 2
	hindsightFallMargin = 150

	// Extensions apply while ply < extensionPlyFactor * root depth.
	extensionPlyFactor = 2

	// Singular extensions.
	seMinDepth        = 8
	seTTDepthMargin   = 3
	seBetaMargin      = 2 // singular beta = ttScore - seBetaMargin*depth
	seDepthDiv        = 2 // the search without the TT move goes to (depth-1)/seDepthDiv
	seDoubleMargin    = 20
	seMaxDoubleExtend = 6

	// Quiescence: delta pruning margin, and the capture-history bonus of a
	// cutoff (and malus of the captures tried before it).
	qsDeltaMargin  = 200
	qsHistoryBonus = 350
	qsCheckMargin  = 150 // quiet checks at quiescence's first ply only when the static eval is within this of alpha

	// History.
	historyMax      = 16384
	historyBonusMul = 300
	historyBonusSub = 250
	historyBonusMax = 2400
	maxQuietsTried  = 64 // quiet moves per node that get the history malus
	trivialCutDepth = 3  // a quiet cutoff by the first quiet move at this depth or less earns no history bonus
	maxNoisyTried   = 32 // noisy moves per node that get the capture-history malus

	// Correction histories (history.go): the correction added to the static
	// evaluation is sum(weight*entry) / (corrGrain*corrWeightDen).
	corrSize          = 16384 // entries per colour and table, indexed by a key
	corrGrain         = 128   // an entry holds centipawns times this
	corrMax           = 16384 // entries stay within ±this (±128 cp)
	corrMaxBonus      = 4096  // an update moves an entry at most this far
	corrDepthDiv      = 8     // an update's step is the error times depth/corrDepthDiv
	corrWeightDen     = 8
	corrPawnWeight    = 4
	corrNonPawnWeight = 2 // each side's
	corrCont2Weight   = 2
	corrCont3Weight   = 1
	corrEvalLimit     = 31000 // a corrected evaluation stays within ±this, below the tablebase and mate scores

	// Move ordering. Noisy moves score victim*noisyVictimMul +
	// captureHistory/noisyHistoryDiv (+ queen*noisyPromoMul for a
	// promotion); a noisy move is tried late when SEE loses more than
	// score/badNoisySEEDiv. Quiet moves score butterfly + quietCont1Mul*cont1
	// + cont2 + cont4/quietCont4Div, from the continuation histories 1, 2
	// and 4 plies back.
	noisyVictimMul   = 16
	noisyHistoryDiv  = 16
	noisyPromoMul    = 8
	badNoisySEEDiv   = 64
	quietCont1Mul    = 2
	quietCont4Div    = 2    // also the divisor of the continuation history six plies back
	rootCaptureBonus = 1000 // root moves: captures first, by victim - attacker/rootAttackerDiv
	rootAttackerDiv  = 10

	// Time management (all in fractions of the time left after overhead).
	tmDefaultMovesToGo = 30
	tmLastMoveNum      = 9 // with movestogo 1 the hard limit may use 9/10 of the time left
	tmLastMoveDen      = 10
	tmIncNum           = 3 // soft limit adds 3/4 of the increment
	tmIncDen           = 4
	tmHardMul          = 5 // hard limit = soft * tmHardMul, capped below
	tmHardCapNum       = 3 // ... and never over 3/4 of the time left
	tmHardCapDen       = 4
	tmMinMillis        = 1    // never budget less than this
	tmOverdueMillis    = 20   // Options.Overdue is called this long after the hard limit ...
	tmOverdueDiv       = 2    // ... or sooner: at most 1/2 of the way from the hard limit to the end of the clock
	tmOverdueMinMillis = 10   // ... but never sooner than this after the hard limit
	tmSafetyMillis     = 5    // kept back from the clock beyond the overhead
	tmStabilityMin     = 0.55 // soft-limit scale when the best move is stable
	tmStabilityMax     = 1.6  // ... and when it keeps changing
	tmNodeShareDepth   = 8    // from this completed depth on, the soft limit also scales with ...
	tmNodeShareBase    = 1.5  // ... (tmNodeShareBase - the best move's share of the root nodes) ...
	tmNodeShareMul     = 1.35 // ... times this
	tmTrendWeight      = 0.5  // weight of the newest depth's score in the score trend
	tmFallPerCp        = 0.01 // soft-limit scale added per centipawn the score falls below its trend ...
	tmFallMin          = 0.85 // ... within these bounds
	tmFallMax          = 1.5
	tmTrendClamp       = 1000 // scores beyond ±this count as ±this in the trend
	tmCheckNodes       = 1023 // check the clock every 1024 nodes
	tmSingleReplyDepth = 6    // with one legal move, search only this deep (for the ponder move and score)
)

// Piece values for SEE and move ordering (centipawns), by piece type.
var seeValues = [7]int{0, 100, 320, 330, 500, 950, 0}

// contHistoryPlies are the plies back whose continuation histories a quiet
// move's history updates.
var contHistoryPlies = [...]int{1, 2, 4, 6}

// Tablebases (tb.go).
const (
	// tbStoreDepthBonus: a tablebase result is stored this much deeper
	// than the node, as it holds whatever the depth.
	tbStoreDepthBonus = 6
)

// Playing strength (strength.go). A setting is placed on a level scale
// (weakCalibration), and the level at x over weakLevelLow (x = 0) ..
// weakLevelHigh (x = 1), extended beyond both: the node budget, temperature
// and loss budget move geometrically from their value at x = 0 to their
// value at x = 1, the depth cap and the number of lines linearly.
const (
	weakLevelLow     = 1000.0   // the level of x = 0
	weakLevelHigh    = 2850.0   // the level of x = 1
	weakNodesLow     = 256.0    // node budget at x = 0
	weakNodesHigh    = 524288.0 // ... at x = 1 (each doubling is about 170 points of the level)
	weakDepthLow     = 3.0      // depth cap at x = 0
	weakDepthHigh    = 24.0     // ... at x = 1
	weakLinesLow     = 6.0      // root lines searched to choose from at x = 0
	weakLinesHigh    = 2.0      // ... at x = 1
	weakTempLow      = 80.0     // softmax temperature (centipawns of loss) at x = 0
	weakTempHigh     = 3.0      // ... at x = 1
	weakLossLow      = 400.0    // largest loss against the best line a chosen line may have at x = 0
	weakLossHigh     = 20.0     // ... at x = 1
	weakSoftNodesDiv = 2        // no new depth once this share (1/2) of the node budget is spent
	weakFullLevel    = 3300.0   // from this level up: the full search on one thread (no budget or depth cap, one line)
	weakNodeJitter   = 0.1      // a one-line plan's node budget varies by up to this share either way, by the seed

	// The position's factor on the temperature.
	weakSafeLevel      = 2000 // from this level on a recapture is always played (factor 0)
	weakRecaptureTemp  = 0.25 // the best move takes back on the square of the last capture
	weakCheckTemp      = 0.5  // in check
	weakCaptureTemp    = 0.5  // the best move is a capture that SEE does not lose
	weakQuietTempLow   = 0.6  // a quiet best move with weakQuietMovesLow legal moves or fewer
	weakQuietTempHigh  = 1.4  // ... with weakQuietMovesHigh or more (linear between)
	weakQuietMovesLow  = 10
	weakQuietMovesHigh = 40
	weakObviousGap     = 150 // the best line leads the second by this much: the factor is scaled
	weakObviousTemp    = 0.5 // ... by this

	// A technical win (a queen or rook against king and pawns, at most
	// weakTechMen men) is played with the best line and at least
	// weakTechNodes nodes, so that the mate is found at every setting.
	weakTechMen   = 6
	weakTechNodes = 32768
)
