//go:build tune

package engine

import (
	"fmt"
	"testing"

	"github.com/kingrook/kingrook/search"
)

// restoreTunables sets every tunable search parameter back to its default
// when t ends (they are shared by every engine of the process).
func restoreTunables(t *testing.T) {
	t.Cleanup(func() {
		for _, p := range search.Tunables() {
			if err := search.SetTunable(p.Name, p.Default); err != nil {
				t.Errorf("restoring %s: %v", p.Name, err)
			}
		}
	})
}

// TestTunableOptions: a tune build advertises one spin option per tunable
// search parameter, after the others, named as the parameter, with its
// default and range; the range of a float parameter is written with
// decimals.
func TestTunableOptions(t *testing.T) {
	ts := search.Tunables()
	if len(ts) == 0 {
		t.Fatal("no tunable parameters in a tune build")
	}
	opts := Options()
	tail := opts[len(opts)-len(ts):]
	lines := map[string]string{}
	for i, p := range ts {
		want := fmt.Sprintf("option name %s type spin default %s min %s max %s",
			p.Name, p.Format(p.Default), p.Format(p.Min), p.Format(p.Max))
		if got := tail[i].String(); got != want {
			t.Errorf("option %d: %q, want %q", len(opts)-len(ts)+i, got, want)
		}
		lines[p.Name] = tail[i].String()
	}
	for name, want := range map[string]string{
		"rfpMargin":      "option name rfpMargin type spin default 75 min 37 max 150",
		"seeQuietMargin": "option name seeQuietMargin type spin default -60 min -120 max -30",
		"lmrBase":        "option name lmrBase type spin default 0.75 min 0.375 max 1.5",
		"lmrCaptureDiv":  "option name lmrCaptureDiv type spin default 3.0 min 1.5 max 6.0",
	} {
		if lines[name] != want {
			t.Errorf("%s: %q, want %q", name, lines[name], want)
		}
	}
}

// TestSetTunableOption: setoption sets the parameter (the name in any
// case); a value out of range or not a number, or any value while a search
// runs, is refused and leaves it as it was.
func TestSetTunableOption(t *testing.T) {
	restoreTunables(t)
	e := newEngine(t)
	value := func(name string) float64 {
		v, err := search.TunableValue(name)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, c := range []struct {
		name, value, param string
		want               float64
	}{
		{"rfpMargin", "80", "rfpMargin", 80},
		{"RFPMARGIN", "81", "rfpMargin", 81},
		{"lmrBase", "0.8125", "lmrBase", 0.8125},
		{"lmrbase", "1", "lmrBase", 1},
	} {
		if err := e.SetOption(c.name, c.value); err != nil {
			t.Errorf("SetOption(%q, %q): %v", c.name, c.value, err)
		}
		if got := value(c.param); got != c.want {
			t.Errorf("SetOption(%q, %q): the parameter is %v", c.name, c.value, got)
		}
	}
	for _, c := range []struct{ name, value string }{
		{"rfpMargin", "36"}, {"rfpMargin", "151"}, {"rfpMargin", "80.5"}, {"rfpMargin", "x"},
		{"lmrBase", "2"}, {"lmrBase", "NaN"}, {"lmrBase", "Inf"}, {"lmrBase", "abc"}, {"lmrBase", ""},
	} {
		if err := e.SetOption(c.name, c.value); err == nil {
			t.Errorf("SetOption(%q, %q) accepted", c.name, c.value)
		}
	}
	if value("rfpMargin") != 81 || value("lmrBase") != 1 {
		t.Errorf("refused values changed the parameters: rfpMargin %v, lmrBase %v", value("rfpMargin"), value("lmrBase"))
	}

	e.Go(search.Limits{Infinite: true}, nil, func(search.Result) {})
	if err := e.SetOption("rfpMargin", "90"); err == nil {
		t.Error("SetOption(rfpMargin) accepted while a search runs")
	}
	e.Stop()
	e.Wait()
	if value("rfpMargin") != 81 {
		t.Errorf("rfpMargin is %v after a refused set during a search, want 81", value("rfpMargin"))
	}
	if err := e.SetOption("rfpMargin", "90"); err != nil || value("rfpMargin") != 90 {
		t.Errorf("SetOption(rfpMargin, 90) after the search: %v, the parameter is %v", err, value("rfpMargin"))
	}
}
