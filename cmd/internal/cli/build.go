package cli

import "runtime/debug"

// commitDigits is how many hex digits of a stamped revision are shown.
const commitDigits = 7

// StampedCommit returns the short revision go build recorded in info,
// "-dirty" appended for a modified tree; "" when it recorded none (go test
// and go run builds, a build outside a git checkout).
func StampedCommit(info *debug.BuildInfo) string {
	var rev string
	modified := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return ""
	}
	rev = rev[:min(len(rev), commitDigits)]
	if modified {
		rev += "-dirty"
	}
	return rev
}

// BuildCommit returns StampedCommit of the running binary.
func BuildCommit() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	return StampedCommit(info)
}
