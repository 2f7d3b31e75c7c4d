package engine

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// OptionType is the UCI type of an option.
type OptionType string

// The UCI option types Kingrook uses.
const (
	Check  OptionType = "check"
	Spin   OptionType = "spin"
	Button OptionType = "button"
	String OptionType = "string"
)

// Option names, spelled as Kingrook advertises them. Names are matched
// case-insensitively.
const (
	OptHash         = "Hash"
	OptThreads      = "Threads"
	OptMultiPV      = "MultiPV"
	OptPonder       = "Ponder"
	OptMoveOverhead = "Move Overhead"
	OptClearHash    = "Clear Hash"
	OptChess960     = "UCI_Chess960"
	OptShowWDL      = "UCI_ShowWDL"
	OptDebugLogFile = "Debug Log File"
	// Syzygy tablebases, with Stockfish's names and defaults.
	OptSyzygyPath       = "SyzygyPath"
	OptSyzygyProbeDepth = "SyzygyProbeDepth"
	OptSyzygy50MoveRule = "Syzygy50MoveRule"
	OptSyzygyProbeLimit = "SyzygyProbeLimit"
	// The evaluation network, with Stockfish's names.
	OptEvalFile = "EvalFile"
	OptUseNNUE  = "Use NNUE"
)

// DefaultUseNNUE is the default of Use NNUE: whether the embedded network,
// rather than the hand-written evaluation, evaluates positions. It is on
// since a network (kingrook-2) beat the hand-written evaluation in SPRTs;
// the embedded net is now kingrook-5, which beat kingrook-4 in an SPRT on
// standard openings, as kingrook-4 had beaten kingrook-2 on standard and
// Chess960 openings (eval/nnue/README.md); false gives the hand-written
// evaluation.
const DefaultUseNNUE = true

// Ranges and defaults of the spin options.
const (
	DefaultHash         = tt.DefaultMB
	MinHash             = tt.MinMB
	MaxHash             = tt.MaxMB
	DefaultThreads      = 1
	MinThreads          = 1
	MaxThreads          = search.MaxThreads
	DefaultMultiPV      = 1
	MinMultiPV          = 1
	MaxMultiPV          = search.MaxMultiPV
	DefaultMoveOverhead = 10 // milliseconds
	MinMoveOverhead     = 0
	MaxMoveOverhead     = 5000
	DefaultProbeDepth   = 1
	MinProbeDepth       = 1
	MaxProbeDepth       = 100
	DefaultProbeLimit   = 7
	MinProbeLimit       = 0
	MaxProbeLimit       = 7
)

// EmptyString is how UCI writes an empty string option value.
const EmptyString = "<empty>"

// Option describes one UCI option as advertised after "uci".
type Option struct {
	Name     string
	Type     OptionType
	Default  string // "" for buttons; EmptyString for an empty string option
	Min, Max int    // spin options only
}

// Options lists the options Kingrook supports, in the order it advertises
// them.
func Options() []Option {
	return []Option{
		{Name: OptHash, Type: Spin, Default: strconv.Itoa(DefaultHash), Min: MinHash, Max: MaxHash},
		{Name: OptThreads, Type: Spin, Default: strconv.Itoa(DefaultThreads), Min: MinThreads, Max: MaxThreads},
		{Name: OptMultiPV, Type: Spin, Default: strconv.Itoa(DefaultMultiPV), Min: MinMultiPV, Max: MaxMultiPV},
		{Name: OptPonder, Type: Check, Default: "false"},
		{Name: OptMoveOverhead, Type: Spin, Default: strconv.Itoa(DefaultMoveOverhead), Min: MinMoveOverhead, Max: MaxMoveOverhead},
		{Name: OptClearHash, Type: Button},
		{Name: OptChess960, Type: Check, Default: "false"},
		{Name: OptShowWDL, Type: Check, Default: "false"},
		{Name: OptDebugLogFile, Type: String, Default: EmptyString},
		{Name: OptSyzygyPath, Type: String, Default: EmptyString},
		{Name: OptSyzygyProbeDepth, Type: Spin, Default: strconv.Itoa(DefaultProbeDepth), Min: MinProbeDepth, Max: MaxProbeDepth},
		{Name: OptSyzygy50MoveRule, Type: Check, Default: "true"},
		{Name: OptSyzygyProbeLimit, Type: Spin, Default: strconv.Itoa(DefaultProbeLimit), Min: MinProbeLimit, Max: MaxProbeLimit},
		{Name: OptEvalFile, Type: String, Default: nnue.DefaultName},
		{Name: OptUseNNUE, Type: Check, Default: strconv.FormatBool(DefaultUseNNUE)},
	}
}

// String formats the option as a UCI "option" line.
func (o Option) String() string {
	switch o.Type {
	case Spin:
		return fmt.Sprintf("option name %s type spin default %s min %d max %d", o.Name, o.Default, o.Min, o.Max)
	case Button:
		return fmt.Sprintf("option name %s type button", o.Name)
	default:
		return fmt.Sprintf("option name %s type %s default %s", o.Name, o.Type, o.Default)
	}
}

// Settings are the current values of the options.
type Settings struct {
	Hash         int // MiB
	Threads      int
	MultiPV      int
	Ponder       bool
	MoveOverhead time.Duration
	Chess960     bool // move text in and out: king takes rook when set
	ShowWDL      bool
	DebugLogFile string // "" = none
	SyzygyPath   string // "" = no tablebases
	ProbeDepth   int    // SyzygyProbeDepth: least depth of a probe in the tree
	Rule50       bool   // Syzygy50MoveRule: cursed wins and blessed losses are draws
	ProbeLimit   int    // SyzygyProbeLimit: most pieces probed
	EvalFile     string // the network in use: nnue.DefaultName (embedded) or a file's path
	UseNNUE      bool   // evaluate with the network instead of the hand-written evaluation
}

// DefaultSettings returns the option defaults.
func DefaultSettings() Settings {
	return Settings{
		Hash:         DefaultHash,
		Threads:      DefaultThreads,
		MultiPV:      DefaultMultiPV,
		MoveOverhead: DefaultMoveOverhead * time.Millisecond,
		ProbeDepth:   DefaultProbeDepth,
		Rule50:       true,
		ProbeLimit:   DefaultProbeLimit,
		EvalFile:     nnue.DefaultName,
		UseNNUE:      DefaultUseNNUE,
	}
}

// lookupOption finds an option by name, case-insensitively.
func lookupOption(name string) (Option, bool) {
	name = strings.Join(strings.Fields(name), " ")
	for _, o := range Options() {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return Option{}, false
}

// parseValue checks value against the option's type and range.
func (o Option) parseValue(value string) (n int, b bool, s string, err error) {
	value = strings.TrimSpace(value)
	switch o.Type {
	case Spin:
		n, err = strconv.Atoi(value)
		if err != nil {
			return 0, false, "", fmt.Errorf("option %s: value %q is not an integer", o.Name, value)
		}
		if n < o.Min || n > o.Max {
			return 0, false, "", fmt.Errorf("option %s: value %d out of range %d..%d", o.Name, n, o.Min, o.Max)
		}
	case Check:
		switch strings.ToLower(value) {
		case "true":
			b = true
		case "false":
		default:
			return 0, false, "", fmt.Errorf("option %s: value %q is not true or false", o.Name, value)
		}
	case String:
		if value != EmptyString {
			s = value
		}
	}
	return n, b, s, nil
}
