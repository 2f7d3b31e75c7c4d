//go:build tune

package main

import (
	"strings"
	"testing"

	"github.com/kingrook/kingrook/search"
)

// TestSPSA: kingrook spsa prints one SPSA line per tunable parameter, in
// order; prefixes keep the parameters they begin; a prefix that keeps none
// is a usage error.
func TestSPSA(t *testing.T) {
	var all []string
	for _, p := range search.Tunables() {
		all = append(all, p.SPSALine())
	}
	code, out, errOut := runIn(t, "", "spsa")
	if code != 0 || errOut != "" || out != strings.Join(all, "\n")+"\n" {
		t.Errorf("kingrook spsa: code %d, stderr %q, stdout:\n%s\nwant:\n%s", code, errOut, out, strings.Join(all, "\n"))
	}
	code, out, _ = runIn(t, "", "spsa", "nmp", "lmrBase")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 6 || !strings.HasPrefix(lines[0], "nmpMinDepth, int, ") || !strings.HasPrefix(lines[5], "lmrBase, float, 0.75, ") {
		t.Errorf("kingrook spsa nmp lmrBase: code %d, lines %q; want the 5 nmp parameters and lmrBase", code, lines)
	}
	if code, out, errOut := runIn(t, "", "spsa", "noSuch"); code != 2 || out != "" || errOut == "" {
		t.Errorf("kingrook spsa noSuch: code %d, stdout %q, stderr %q; want 2 and a message", code, out, errOut)
	}
}
