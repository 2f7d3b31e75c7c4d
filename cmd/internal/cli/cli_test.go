package cli

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	cases := []struct {
		name      string
		args      []string
		code      int
		done      bool
		out, errs string // wanted in stdout and stderr ("" : nothing at all)
		depth     int
	}{
		{"flags", []string{"--depth", "5", "rest"}, ExitOK, false, "", "", 5},
		{"help", []string{"--help"}, ExitOK, true, "Usage: tool sub --depth N", "", 1},
		{"short help", []string{"-h"}, ExitOK, true, "Usage: tool sub --depth N", "", 1},
		{"unknown flag", []string{"--nope"}, ExitUsage, true, "", "tool sub: unknown flag: --nope", 1},
		{"bad value", []string{"--depth", "x"}, ExitUsage, true, "", "Usage: tool sub --depth N", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errs strings.Builder
			fs := SubFlags("tool sub", "--depth N", &errs)
			depth := fs.Int("depth", 1, "how deep")
			code, done := Parse(fs, c.args, &out, &errs)
			if code != c.code || done != c.done || *depth != c.depth {
				t.Fatalf("code %d done %v depth %d, want %d %v %d", code, done, *depth, c.code, c.done, c.depth)
			}
			for _, w := range []struct{ got, want, what string }{{out.String(), c.out, "stdout"}, {errs.String(), c.errs, "stderr"}} {
				if (w.want == "") != (w.got == "") || !strings.Contains(w.got, w.want) {
					t.Errorf("%s %q, want %q", w.what, w.got, w.want)
				}
			}
			if strings.Count(out.String()+errs.String(), "Usage") > 1 {
				t.Errorf("usage printed more than once: %q %q", out.String(), errs.String())
			}
		})
	}
}
