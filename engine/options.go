package engine

import (
	"fmt"
	"math"
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

// EmptyString is how UCI writes an empty string option value.
const EmptyString = "<empty>"

// Option describes one UCI option as advertised after "uci".
type Option struct {
	Name     string
	Type     OptionType
	Default  string // "" for buttons; EmptyString for an empty string option
	Min, Max int    // spin options only
	// Decimal marks a spin option whose values are decimal numbers, in
	// DecMin..DecMax (Min and Max unused): only the float search parameters
	// of a tune build are (search.Tunables). Standard UCI spins are
	// integers; fastchess, which OpenBench runs, reads a spin whose default
	// and range are decimals as a decimal option.
	Decimal        bool
	DecMin, DecMax float64
}

// Settings are the current values of the options.
type Settings struct {
	Hash         int // MiB
	Threads      int
	MultiPV      int
	Ponder       bool
	MoveOverhead time.Duration // whole milliseconds: a fraction is dropped
	Chess960     bool          // move text in and out: king takes rook when set; UCI_Elo's Chess960 calibration
	ShowWDL      bool
	DebugLogFile string // "" = none
	SyzygyPath   string // "" = no tablebases
	ProbeDepth   int    // SyzygyProbeDepth: least depth of a probe in the tree
	Rule50       bool   // Syzygy50MoveRule: cursed wins and blessed losses are draws
	ProbeLimit   int    // SyzygyProbeLimit: most pieces probed
	EvalFile     string // the network in use: nnue.EmbeddedName() (embedded) or a file's path
	UseNNUE      bool   // evaluate with the network instead of the hand-written evaluation
	// UCI_LimitStrength and UCI_Elo: play at about Elo (search.Strength).
	LimitStrength bool
	Elo           int
	Seed          int // the random choices of UCI_LimitStrength: 0 draws them anew each game
}

// optionTable declares every option once, in the order "uci" advertises
// them: its name, type, default and range, where its value goes in the
// Settings and what the engine does when it is set. Options, Settings'
// defaults and SetOption all read it. A build with the tag tune adds one
// spin option per search margin and reduction, named as the parameter
// (tunableOptions); other builds have none.
var optionTable = append([]optionDef{
	spin("Hash", tt.DefaultMB, tt.MinMB, tt.MaxMB, func(s *Settings) *int { return &s.Hash }).
		withAct((*Engine).checkHashLocked),
	spin("Threads", 1, 1, search.MaxThreads, func(s *Settings) *int { return &s.Threads }).
		withAct(func(e *Engine, v optValue) error {
			if e.raiseProcs {
				raiseProcs(v.n)
			}
			return nil
		}),
	spin("MultiPV", 1, 1, search.MaxMultiPV, func(s *Settings) *int { return &s.MultiPV }),
	check("Ponder", false, func(s *Settings) *bool { return &s.Ponder }),
	millis("Move Overhead", 10, 0, 5000, func(s *Settings) *time.Duration { return &s.MoveOverhead }),
	button("Clear Hash", func(e *Engine, _ optValue) error { e.clearPending = true; return nil }),
	check("UCI_Chess960", false, func(s *Settings) *bool { return &s.Chess960 }),
	check("UCI_ShowWDL", false, func(s *Settings) *bool { return &s.ShowWDL }),
	// Playing at a chosen strength, with Stockfish's names.
	check("UCI_LimitStrength", false, func(s *Settings) *bool { return &s.LimitStrength }),
	spin("UCI_Elo", search.MinElo, search.MinElo, search.MaxElo, func(s *Settings) *int { return &s.Elo }),
	// A fixed seed replays a weakened game move for move (from ucinewgame).
	spin("Seed", 0, 0, math.MaxInt32, func(s *Settings) *int { return &s.Seed }).
		withAct(func(e *Engine, v optValue) error { e.seed = gameSeed(v.n); return nil }),
	str("Debug Log File", "", func(s *Settings) *string { return &s.DebugLogFile }),
	// Syzygy tablebases, with Stockfish's names and defaults.
	str("SyzygyPath", "", func(s *Settings) *string { return &s.SyzygyPath }).
		withAct((*Engine).openTablesLocked),
	spin("SyzygyProbeDepth", 1, 1, 100, func(s *Settings) *int { return &s.ProbeDepth }),
	check("Syzygy50MoveRule", true, func(s *Settings) *bool { return &s.Rule50 }),
	spin("SyzygyProbeLimit", 7, 0, 7, func(s *Settings) *int { return &s.ProbeLimit }),
	// The evaluation network, with Stockfish's names. The empty string and
	// <empty> also name the embedded net (evalFileName).
	str("EvalFile", nnue.EmbeddedName(), func(s *Settings) *string { return &s.EvalFile }).
		withSet(func(s *Settings, v optValue) { s.EvalFile = evalFileName(v.s) }).
		withAct((*Engine).loadNetLocked),
	// On: the network evaluates, as it plays stronger (bench/README.md);
	// false gives the hand-written evaluation.
	check("Use NNUE", true, func(s *Settings) *bool { return &s.UseNNUE }),
}, tunableOptions()...)

// optValue is a parsed option value; the field of the option's type is set.
type optValue struct {
	n int     // spin
	f float64 // decimal spin
	b bool    // check
	s string  // string; "" for EmptyString
}

// optionDef is one row of optionTable.
type optionDef struct {
	Option
	def optValue // the default, as Option.Default says
	// set stores a value in the settings and get reads it; nil for buttons
	// and the tunable search parameters, which Settings do not hold.
	set func(*Settings, optValue)
	get func(*Settings) optValue
	// act, when not nil, is the engine's own work for a new value (check
	// that it fits, open files), run with e.mu held before set. An error
	// refuses the value and leaves everything unchanged.
	act func(*Engine, optValue) error
}

// spin declares a spin option whose value is the Settings field that
// field points to.
func spin(name string, def, lo, hi int, field func(*Settings) *int) optionDef {
	return optionDef{
		Option: Option{Name: name, Type: Spin, Default: strconv.Itoa(def), Min: lo, Max: hi},
		def:    optValue{n: def},
		set:    func(s *Settings, v optValue) { *field(s) = v.n },
		get:    func(s *Settings) optValue { return optValue{n: *field(s)} },
	}
}

// millis declares a spin option in milliseconds whose value is a duration
// field.
func millis(name string, def, lo, hi int, field func(*Settings) *time.Duration) optionDef {
	d := spin(name, def, lo, hi, nil)
	d.set = func(s *Settings, v optValue) { *field(s) = time.Duration(v.n) * time.Millisecond }
	d.get = func(s *Settings) optValue {
		// Whole milliseconds, rounded down: a negative duration stays
		// below the range.
		t := *field(s)
		n := t / time.Millisecond
		if t < 0 && t%time.Millisecond != 0 {
			n--
		}
		return optValue{n: int(n)}
	}
	return d
}

// check declares a check option whose value is a bool field.
func check(name string, def bool, field func(*Settings) *bool) optionDef {
	return optionDef{
		Option: Option{Name: name, Type: Check, Default: strconv.FormatBool(def)},
		def:    optValue{b: def},
		set:    func(s *Settings, v optValue) { *field(s) = v.b },
		get:    func(s *Settings) optValue { return optValue{b: *field(s)} },
	}
}

// str declares a string option whose value is a string field; def "" is
// advertised as EmptyString.
func str(name, def string, field func(*Settings) *string) optionDef {
	shown := def
	if shown == "" {
		shown = EmptyString
	}
	return optionDef{
		Option: Option{Name: name, Type: String, Default: shown},
		def:    optValue{s: def},
		set:    func(s *Settings, v optValue) { *field(s) = v.s },
		get:    func(s *Settings) optValue { return optValue{s: *field(s)} },
	}
}

// button declares a button option.
func button(name string, act func(*Engine, optValue) error) optionDef {
	return optionDef{Option: Option{Name: name, Type: Button}, act: act}
}

// tunableOptions declares the options of the tunable search parameters (a
// tune build's; none in other builds).
func tunableOptions() []optionDef {
	var defs []optionDef
	for _, t := range search.Tunables() {
		defs = append(defs, tunable(t))
	}
	return defs
}

// tunable declares the option of a tunable search parameter. It sets the
// parameter itself, which every search of the process shares, so it is
// refused while a search runs; Settings do not hold it.
func tunable(t search.Tunable) optionDef {
	d := optionDef{Option: Option{Name: t.Name, Type: Spin, Default: t.Format(t.Default)}}
	if t.Float {
		d.Decimal, d.DecMin, d.DecMax = true, t.Min, t.Max
		d.def.f = t.Default
	} else {
		d.Min, d.Max = int(t.Min), int(t.Max)
		d.def.n = int(t.Default)
	}
	d.act = func(e *Engine, v optValue) error {
		if e.cur != nil {
			return fmt.Errorf("option %s: not set while a search runs", t.Name)
		}
		if t.Float {
			return search.SetTunable(t.Name, v.f)
		}
		return search.SetTunable(t.Name, float64(v.n))
	}
	return d
}

// withAct returns d with act as its engine work.
func (d optionDef) withAct(act func(*Engine, optValue) error) optionDef {
	d.act = act
	return d
}

// withSet returns d storing its values with set.
func (d optionDef) withSet(set func(*Settings, optValue)) optionDef {
	d.set = set
	return d
}

// Options lists the options Kingrook supports, in the order it advertises
// them.
func Options() []Option {
	opts := make([]Option, len(optionTable))
	for i, d := range optionTable {
		opts[i] = d.Option
	}
	return opts
}

// DefaultSettings returns the option defaults.
func DefaultSettings() Settings {
	var s Settings
	for _, d := range optionTable {
		if d.set != nil {
			d.set(&s, d.def)
		}
	}
	return s
}

// ValidateOption reports whether value is a valid value of the option
// called name, without setting it: the error SetOption would give for an
// unknown name, a value of the wrong form or one out of the option's range.
// What depends on the machine or the files is found only by SetOption: a
// Hash that does not fit in the memory available and an EvalFile that
// cannot be read.
func ValidateOption(name, value string) error {
	d, err := lookupOption(name)
	if err != nil {
		return err
	}
	_, err = d.parse(value)
	return err
}

// String formats the option as a UCI "option" line.
func (o Option) String() string {
	switch o.Type {
	case Spin:
		lo, hi := o.Range()
		return fmt.Sprintf("option name %s type spin default %s min %s max %s", o.Name, o.Default, lo, hi)
	case Button:
		return fmt.Sprintf("option name %s type button", o.Name)
	default:
		return fmt.Sprintf("option name %s type %s default %s", o.Name, o.Type, o.Default)
	}
}

// Range returns the bounds of a spin option as its option line writes them.
func (o Option) Range() (lo, hi string) {
	if o.Decimal {
		return formatDecimal(o.DecMin), formatDecimal(o.DecMax)
	}
	return strconv.Itoa(o.Min), strconv.Itoa(o.Max)
}

// formatDecimal writes v with a decimal point, so that a reader tells a
// decimal option from an integer one.
func formatDecimal(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// lookupOption finds an option by name, case-insensitively and whatever
// the spacing between the words of the name.
func lookupOption(name string) (optionDef, error) {
	name = strings.Join(strings.Fields(name), " ")
	for _, d := range optionTable {
		if strings.EqualFold(d.Name, name) {
			return d, nil
		}
	}
	return optionDef{}, fmt.Errorf("unknown option %q", name)
}

// parse checks value against the option's type and range.
func (o Option) parse(value string) (optValue, error) {
	value = strings.TrimSpace(value)
	var v optValue
	switch {
	case o.Decimal:
		f, err := strconv.ParseFloat(value, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return v, fmt.Errorf("option %s: value %q is not a number", o.Name, value)
		}
		if f < o.DecMin || f > o.DecMax {
			lo, hi := o.Range()
			return v, fmt.Errorf("option %s: value %s out of range %s..%s", o.Name, value, lo, hi)
		}
		v.f = f
	case o.Type == Spin:
		n, err := strconv.Atoi(value)
		if err != nil {
			return v, fmt.Errorf("option %s: value %q is not an integer", o.Name, value)
		}
		if err := o.checkInt(n); err != nil {
			return v, err
		}
		v.n = n
	case o.Type == Check:
		switch strings.ToLower(value) {
		case "true":
			v.b = true
		case "false":
		default:
			return v, fmt.Errorf("option %s: value %q is not true or false", o.Name, value)
		}
	case o.Type == String:
		if value != EmptyString {
			v.s = value
		}
	}
	return v, nil
}

// checkInt checks the value n of a spin option against its range.
func (o Option) checkInt(n int) error {
	if n < o.Min || n > o.Max {
		return fmt.Errorf("option %s: value %d out of range %d..%d", o.Name, n, o.Min, o.Max)
	}
	return nil
}

// evalFileName is the EvalFile setting for a value: the embedded net's name
// for "" (also <empty>) and for that name, else the path.
func evalFileName(path string) string {
	if path == "" {
		return nnue.EmbeddedName()
	}
	return path
}
