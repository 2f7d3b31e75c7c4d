//go:build !tune

package main

import (
	"strings"
	"testing"
)

// TestSPSANeedsTuneBuild: without the tag tune, kingrook spsa says how to
// build one and exits 2.
func TestSPSANeedsTuneBuild(t *testing.T) {
	code, out, errOut := runIn(t, "", "spsa")
	if code != 2 || out != "" || !strings.Contains(errOut, "TAGS=tune") {
		t.Errorf("kingrook spsa: code %d, stdout %q, stderr %q; want 2 and a message naming TAGS=tune", code, out, errOut)
	}
}
