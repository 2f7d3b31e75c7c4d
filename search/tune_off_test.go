//go:build !tune

package search

import (
	"strings"
	"testing"
)

// TestNoTunables: without the tag tune no parameter can be set.
func TestNoTunables(t *testing.T) {
	if n := len(Tunables()); n != 0 {
		t.Errorf("%d tunables without the tag tune, want none", n)
	}
	if err := SetTunable("rfpMargin", 80); err == nil || !strings.Contains(err.Error(), "-tags tune") {
		t.Errorf("SetTunable without the tag tune: error %v, want one that names -tags tune", err)
	}
	if _, err := TunableValue("rfpMargin"); err == nil {
		t.Error("TunableValue without the tag tune gave a value")
	}
}
