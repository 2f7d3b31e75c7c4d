package search

// Every pruning margin, reduction and time-management constant lives here.

const (
	// Aspiration windows.
	aspirationDepth = 4  // first depth searched with a window
	aspirationDelta = 12 // initial half-width in centipawns

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

	// Futility pruning of quiet moves.
	fpMaxDepth = 8
	fpBase     = 90
	fpMargin   = 100 // per ply

	// SEE pruning in the main search (per ply of depth).
	seeQuietMargin   = -60
	seeCaptureMargin = -25
	seeMaxDepth      = 8

	// Late move reductions: r = lmrBase + ln(depth)*ln(moves)/lmrDiv.
	lmrBase        = 0.75
	lmrDiv         = 2.25
	lmrMinDepth    = 3
	lmrHistoryDiv  = 8192
	lmrCaptureBase = 0.2
	lmrCaptureDiv  = 3.0

	// Singular extensions.
	seMinDepth        = 8
	seTTDepthMargin   = 3
	seBetaMargin      = 2 // singular beta = ttScore - seBetaMargin*depth
	seDoubleMargin    = 20
	seMaxDoubleExtend = 6

	// Quiescence: delta pruning margin.
	qsDeltaMargin = 200

	// History.
	historyMax      = 16384
	historyBonusMul = 300
	historyBonusSub = 250
	historyBonusMax = 2400

	// Time management (all in fractions of the time left after overhead).
	tmDefaultMovesToGo = 30
	tmIncNum           = 3 // soft limit adds 3/4 of the increment
	tmIncDen           = 4
	tmHardMul          = 5 // hard limit = soft * tmHardMul, capped below
	tmHardCapNum       = 3 // ... and never over 3/4 of the time left
	tmHardCapDen       = 4
	tmMinMillis        = 1    // never budget less than this
	tmSafetyMillis     = 5    // kept back from the clock beyond the overhead
	tmStabilityMin     = 0.55 // soft-limit scale when the best move is stable
	tmStabilityMax     = 1.6  // ... and when it keeps changing
	tmCheckNodes       = 1023 // check the clock every 1024 nodes
	tmSingleReplyDepth = 6    // with one legal move, search only this deep (for the ponder move and score)
)

// Piece values for SEE and move ordering (centipawns), by piece type.
var seeValues = [7]int{0, 100, 320, 330, 500, 950, 0}
