package search

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Tuning. A build with the tag tune (go build -tags tune, make TAGS=tune)
// compiles params_tune.go instead of params.go: the same declarations,
// generated from params.go by gen_tune.go (go generate), except that the
// search margins, reductions, depth limits and move-ordering weights are
// variables, listed with their ranges in the table tunables. The engine
// offers each as a UCI option and `kingrook spsa` prints them as the input of
// an OpenBench SPSA tune. A build without the tag keeps them constants and
// the table empty.

// spsaREnd is the r_end of every parameter in the SPSA input: the ratio
// a/c² of SPSA's gains at the end of a tune (OpenBench sets a_end = r_end ·
// c_end²); 0.002 is the customary value of OpenBench tunes.
const spsaREnd = 0.002

// Tunable describes a search parameter that a tune build lets a tuner set.
type Tunable struct {
	Name     string  // the constant's name in params.go, also the UCI option's
	Float    bool    // a float64 parameter; otherwise an int
	Default  float64 // its value in params.go
	Min, Max float64 // the range a tuner may set
	// Step is the size of SPSA's perturbation at the end of a tune (c_end):
	// a twentieth of the range, and at least 0.5 for an int.
	Step float64
}

// tunable is a row of the table: the parameter and the variable that holds
// it (i for an int, f for a float64).
type tunable struct {
	Tunable
	i *int
	f *float64
}

// tunables lists the tunable parameters in the order of params.go; a tune
// build's init (params_tune.go) fills it, other builds leave it empty.
var tunables []tunable

// Tunables returns the search parameters a tuner may set, in the order of
// params.go: none unless the build has the tag tune.
func Tunables() []Tunable {
	out := make([]Tunable, len(tunables))
	for i, t := range tunables {
		out[i] = t.Tunable
	}
	return out
}

// lookupTunable finds the tunable parameter called name (exactly).
func lookupTunable(name string) (*tunable, error) {
	for i := range tunables {
		if tunables[i].Name == name {
			return &tunables[i], nil
		}
	}
	if len(tunables) == 0 {
		return nil, fmt.Errorf("no tunable parameter %q: this build has none (build with -tags tune)", name)
	}
	return nil, fmt.Errorf("no tunable parameter %q", name)
}

// TunableValue returns the current value of the tunable parameter called
// name.
func TunableValue(name string) (float64, error) {
	t, err := lookupTunable(name)
	if err != nil {
		return 0, err
	}
	if t.f != nil {
		return *t.f, nil
	}
	return float64(*t.i), nil
}

// SetTunable sets the tunable parameter called name to v, which must lie in
// its range (and be a whole number for an int parameter). The parameters
// are shared by every search of the process: set them only while no search
// runs (the engine refuses its options during a search).
func SetTunable(name string, v float64) error {
	t, err := lookupTunable(name)
	if err != nil {
		return err
	}
	if math.IsNaN(v) || v < t.Min || v > t.Max {
		return fmt.Errorf("%s: %v out of range %s..%s", name, v, t.Format(t.Min), t.Format(t.Max))
	}
	if t.f != nil {
		*t.f = v
	} else {
		if v != math.Trunc(v) {
			return fmt.Errorf("%s: %v is not a whole number", name, v)
		}
		*t.i = int(v)
	}
	initLMR() // the table of base reductions is made from some of them
	return nil
}

// Format writes v, a value of the parameter, as the UCI option and the SPSA
// input give it: a float always with a decimal point (fastchess reads a
// spin option as decimal when its default and range are), an int as an
// integer.
func (t Tunable) Format(v float64) string {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if t.Float && !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// SPSALine is the parameter's line of an OpenBench SPSA input:
// "name, int|float, value, min, max, c_end, r_end".
func (t Tunable) SPSALine() string {
	kind := "int"
	if t.Float {
		kind = "float"
	}
	return fmt.Sprintf("%s, %s, %s, %s, %s, %s, %s", t.Name, kind, t.Format(t.Default), t.Format(t.Min), t.Format(t.Max),
		strconv.FormatFloat(t.Step, 'f', -1, 64), strconv.FormatFloat(spsaREnd, 'f', -1, 64))
}
