package main

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kingrook/kingrook/cmd/internal/cli"
	"github.com/kingrook/kingrook/cmd/internal/selfplay"
)

// The manifest of a games folder: one line per game file, tab-separated,
// under a header line of the column names (manifestColumns). It is written
// whole to a temporary file that is then renamed over it, so a reader
// never sees half of one, and under a lock on the folder, so that runs
// writing different files of one folder keep each other's rows.
const manifestName = "manifest.tsv"

// manifestColumns are the manifest's columns, in order.
var manifestColumns = []string{"file", "seed", "net", "net_sha256", "flags", "games", "plies", "positions", "bytes", "builds", "updated"}

// unknown is the manifest's value for what is not known (the seed of a
// file written before the manifest, and so on).
const unknown = "-"

// row is one game file's line of the manifest.
type row struct {
	file   string // the base name, in the manifest's folder
	seed   string // decimal, or unknown
	net    string // the network's name ("embedded" is recorded by its name), or handWritten
	netSHA string // the SHA-256 of the network's bytes, noNet for the hand-written evaluation, or unknown
	flags  string // the settings that decide the games besides seed and net (playConfig.gameFlags)
	selfplay.Counts
	bytes   int64  // the size of the file's complete games
	builds  string // the builds that wrote the file, comma-separated, "?" for a part of unknown build
	updated string // when the row was last written, UTC, RFC 3339
}

func (r *row) fields() []string {
	return []string{r.file, r.seed, r.net, r.netSHA, r.flags, strconv.FormatInt(r.Games, 10), strconv.FormatInt(r.Plies, 10),
		strconv.FormatInt(r.Positions, 10), strconv.FormatInt(r.bytes, 10), r.builds, r.updated}
}

// manifest is the rows of a manifest file, by file name.
type manifest struct {
	path string
	rows map[string]*row
}

// readManifest reads the manifest at path; a missing file is an empty
// manifest.
func readManifest(path string) (*manifest, error) {
	m := &manifest{path: path, rows: map[string]*row{}}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(data) == 0 || lines[0] != strings.Join(manifestColumns, "\t") {
		return nil, fmt.Errorf("%s: not a datagen manifest (want a first line of the columns %s)", path, strings.Join(manifestColumns, ", "))
	}
	for i, line := range lines[1:] {
		f := strings.Split(line, "\t")
		bad := func(what string) error { return fmt.Errorf("%s:%d: %s", path, i+2, what) }
		if len(f) != len(manifestColumns) {
			return nil, bad(fmt.Sprintf("%d columns, want %d", len(f), len(manifestColumns)))
		}
		r := &row{file: f[0], seed: f[1], net: f[2], netSHA: f[3], flags: f[4], builds: f[9], updated: f[10]}
		for j, p := range []*int64{&r.Games, &r.Plies, &r.Positions, &r.bytes} {
			n, err := strconv.ParseInt(f[5+j], 10, 64)
			if err != nil || n < 0 {
				return nil, bad(fmt.Sprintf("%s %q", manifestColumns[5+j], f[5+j]))
			}
			*p = n
		}
		if r.seed != unknown {
			if _, err := strconv.ParseUint(r.seed, 10, 64); err != nil {
				return nil, bad(fmt.Sprintf("seed %q", r.seed))
			}
		}
		if r.file == "" || filepath.Base(r.file) != r.file || m.rows[r.file] != nil {
			return nil, bad(fmt.Sprintf("file %q: want a base name listed once", r.file))
		}
		m.rows[r.file] = r
	}
	return m, nil
}

// write replaces the manifest file with m's rows, sorted by file name:
// written to a temporary file beside it, synced, then renamed over it.
func (m *manifest) write() error {
	var b strings.Builder
	b.WriteString(strings.Join(manifestColumns, "\t") + "\n")
	for _, name := range slices.Sorted(maps.Keys(m.rows)) {
		for _, f := range m.rows[name].fields() {
			if strings.ContainsAny(f, "\t\n") {
				return fmt.Errorf("manifest: %s: a tab or a line break in %q", name, f)
			}
		}
		b.WriteString(strings.Join(m.rows[name].fields(), "\t") + "\n")
	}
	tmp, err := os.CreateTemp(filepath.Dir(m.path), "."+filepath.Base(m.path)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(b.String())
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), m.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// row returns file's row, nil when there is none (or no manifest).
func (m *manifest) row(file string) *row {
	if m == nil {
		return nil
	}
	return m.rows[file]
}

// seedOwner returns the file other than file whose row has seed, or "".
func (m *manifest) seedOwner(seed, file string) string {
	for _, r := range m.rows {
		if r.file != file && r.seed == seed {
			return r.file
		}
	}
	return ""
}

// nextSeed returns the smallest seed above every seed the manifest lists.
func (m *manifest) nextSeed() uint64 {
	var next uint64 = 1
	for _, r := range m.rows {
		if s, err := strconv.ParseUint(r.seed, 10, 64); err == nil && s >= next {
			next = s + 1
		}
	}
	return next
}

// updateManifest locks the manifest's folder, reads the manifest, applies
// change to it and writes it back.
func updateManifest(path string, change func(*manifest) error) error {
	unlock, err := lockDir(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer unlock()
	m, err := readManifest(path)
	if err != nil {
		return err
	}
	if err := change(m); err != nil {
		return err
	}
	return m.write()
}

// surveyFile reads a game file (plain or .gz) whole and returns its
// segments, positions counted by selfplay.TrainingFilter, and the size of
// its complete games (that of the decompressed data for .gz).
func surveyFile(path string) ([]selfplay.Segment, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		z, err := gzip.NewReader(bufio.NewReader(f))
		if err != nil {
			return nil, 0, fmt.Errorf("%s: %w", path, err)
		}
		defer z.Close()
		in = z
	}
	r := selfplay.NewReader(in)
	segs, err := r.Segments(selfplay.TrainingFilter)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	return segs, r.Offset(), nil
}

// total returns the counts of segments together.
func total(segs []selfplay.Segment) selfplay.Counts {
	var c selfplay.Counts
	for _, s := range segs {
		c.Add(s.Counts)
	}
	return c
}

// segmentBuilds returns the builds that wrote segs, in order, each once
// per run of equal ones: "?" for a segment without metadata.
func segmentBuilds(segs []selfplay.Segment) string {
	var builds []string
	for _, s := range segs {
		b := "?"
		if s.Meta != nil && s.Meta[metaBuild] != "" {
			b = s.Meta[metaBuild]
		}
		if s.Games > 0 && (len(builds) == 0 || builds[len(builds)-1] != b) {
			builds = append(builds, b)
		}
	}
	return strings.Join(builds, ",")
}

// addBuild returns builds with b after them, unless it is the last already.
func addBuild(builds, b string) string {
	switch {
	case builds == "" || builds == unknown:
		return b
	case strings.HasSuffix(","+builds, ","+b):
		return builds
	}
	return builds + "," + b
}

// lastMeta returns the metadata of the last segment that has some.
func lastMeta(segs []selfplay.Segment) selfplay.Meta {
	for i := len(segs) - 1; i >= 0; i-- {
		if segs[i].Meta != nil {
			return segs[i].Meta
		}
	}
	return nil
}

// runManifest rebuilds or checks the manifest of a folder of game files.
func runManifest(args []string, stdout, stderr io.Writer) int {
	fs := cli.SubFlags("datagen manifest", "[--check] DIR", stderr)
	check := fs.Bool("check", false, "only compare: print what differs, write nothing, exit 1 when anything does")
	if code, done := cli.Parse(fs, args, stdout, stderr); done {
		return code
	}
	if fs.NArg() != 1 {
		return fail(stderr, exitUsage, "manifest: want one folder, got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)
	path := filepath.Join(dir, manifestName)
	differ := 0
	rebuild := func(m *manifest) error {
		var names []string
		for _, pat := range []string{"*.bin", "*.bin.gz"} {
			found, err := filepath.Glob(filepath.Join(dir, pat))
			if err != nil {
				return err
			}
			names = append(names, found...)
		}
		slices.Sort(names)
		seen := map[string]bool{}
		for _, name := range names {
			base := filepath.Base(name)
			seen[base] = true
			old := m.rows[base]
			if busy, err := fileBusy(name); err != nil {
				return err
			} else if busy {
				fmt.Fprintf(stdout, "%s: being written by a running datagen, which keeps its row; not counted\n", base)
				continue
			}
			segs, size, err := surveyFile(name)
			if err != nil {
				return err
			}
			r := &row{file: base, seed: unknown, net: unknown, netSHA: unknown, flags: unknown, builds: segmentBuilds(segs)}
			if meta := lastMeta(segs); meta != nil {
				r.seed, r.net, r.netSHA, r.flags = orUnknown(meta[metaSeed]), orUnknown(meta[metaNet]), orUnknown(meta[metaNetSHA]), orUnknown(meta[metaFlags])
			}
			if old != nil { // what the manifest recorded stands
				r.seed, r.net, r.netSHA, r.flags = old.seed, old.net, old.netSHA, old.flags
				if old.builds != "" && old.builds != unknown {
					r.builds = old.builds
				}
			}
			r.Counts, r.bytes, r.updated = total(segs), size, time.Now().UTC().Format(time.RFC3339)
			switch {
			case old == nil:
				differ++
				fmt.Fprintf(stdout, "%s: not listed: seed %s, %d games, %d plies, %d positions\n", base, r.seed, r.Games, r.Plies, r.Positions)
			case old.Counts != r.Counts || old.bytes != r.bytes:
				differ++
				fmt.Fprintf(stdout, "%s: listed %d games, %d plies, %d positions, %d bytes; the file holds %d, %d, %d, %d\n",
					base, old.Games, old.Plies, old.Positions, old.bytes, r.Games, r.Plies, r.Positions, r.bytes)
			default:
				r.updated = old.updated
			}
			if r.seed == unknown && !strings.HasSuffix(base, ".gz") {
				fmt.Fprintf(stdout, "%s: seed unknown: the next datagen run appending to it records the --seed it is given\n", base)
			} else if r.seed == unknown {
				fmt.Fprintf(stdout, "%s: seed unknown\n", base)
			} else if other := m.seedOwner(r.seed, base); other != "" {
				fmt.Fprintf(stdout, "%s: seed %s is also %s's\n", base, r.seed, other)
				differ++
			}
			m.rows[base] = r
		}
		for name, r := range m.rows {
			if !seen[name] {
				// Kept: its seed stays taken.
				fmt.Fprintf(stdout, "%s: listed (seed %s, %d positions) but not in %s; the row is kept, so that its seed is not reused\n",
					name, r.seed, r.Positions, dir)
			}
		}
		var sum selfplay.Counts
		for _, r := range m.rows {
			if seen[r.file] {
				sum.Add(r.Counts)
			}
		}
		fmt.Fprintf(stdout, "%d files: %d games, %d plies, %d positions (selfplay.TrainingFilter)\n", len(seen), sum.Games, sum.Plies, sum.Positions)
		return nil
	}
	var err error
	if *check {
		var m *manifest
		if m, err = readManifest(path); err == nil {
			err = rebuild(m)
		}
	} else {
		err = updateManifest(path, rebuild)
	}
	switch {
	case err != nil:
		return fail(stderr, exitFailure, "manifest: %v", err)
	case *check && differ > 0:
		fmt.Fprintf(stdout, "%s: %d rows differ from the files\n", path, differ)
		return exitFailure
	case !*check:
		fmt.Fprintf(stdout, "wrote %s\n", path)
	}
	return exitOK
}

func orUnknown(s string) string {
	if s == "" {
		return unknown
	}
	return s
}
