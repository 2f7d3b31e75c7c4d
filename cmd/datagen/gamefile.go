package main

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kingrook/kingrook/cmd/internal/selfplay"
)

// legacySettle is how long a run watches a file without metadata (one
// written by a build before the manifest, which takes no lock) for growth
// before it appends to it.
const legacySettle = 3 * time.Second

// usageError is an error of the command line against the files: a seed
// taken, another net or other settings for a file (exit code 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// binarySink writes whole games in the selfplay format.
type binarySink struct {
	w    *selfplay.Writer
	lock *os.File // holds the file's lock; nil for stdout
	keep *keeper  // the file's manifest row; nil without a manifest
	run  selfplay.Counts
	// healed says which other rows of the manifest were recounted when
	// the run started (healStale).
	healed []string
}

func (s *binarySink) write(g *selfplay.Game) (selfplay.Counts, error) {
	if err := s.w.Write(g); err != nil {
		return selfplay.Counts{}, err
	}
	c := selfplay.CountGame(g, selfplay.TrainingFilter)
	s.run.Add(c)
	// Flushed game by game: a killed process leaves at most one partial
	// game, which readers drop and OpenAppend cuts off.
	return c, s.w.Flush()
}

// state returns what the manifest row needs; the caller holds the run's
// mutex.
func (s *binarySink) state() (selfplay.Counts, int64) { return s.run, s.w.Offset() }

// update writes the file's manifest row.
func (s *binarySink) update() error {
	if s.keep == nil {
		return nil
	}
	run, size := s.state()
	return s.keep.update(run, size)
}

func (s *binarySink) close() error {
	err := s.w.Close()
	if s.keep != nil {
		if uerr := s.keep.update(s.run, s.w.Offset()); err == nil {
			err = uerr
		}
	}
	if s.lock != nil {
		s.lock.Close()
	}
	return err
}

// keeper keeps one file's manifest row up to date.
type keeper struct {
	path string          // the manifest
	row  row             // the row's fixed part
	base selfplay.Counts // the games in the file before this run
}

// update writes the row with the run's counts and the file's size.
func (k *keeper) update(run selfplay.Counts, size int64) error {
	r := k.row
	r.Counts = k.base
	r.Add(run)
	r.bytes, r.updated = size, time.Now().UTC().Format(time.RFC3339)
	return updateManifest(k.path, func(m *manifest) error {
		m.rows[r.file] = &r
		return nil
	})
}

// openBinary opens c.out for appending games: it takes the file's lock,
// reads the games already there, settles the seed (the manifest's or the
// file's own record of it when --seed is not given), refuses a seed that
// the manifest lists for another file and a net or settings other than
// those the file's games were played with (usageError), and records the
// file's row in the manifest before the first game is played. It returns
// the sink and the number of games already in the file.
func openBinary(ctx context.Context, c *playConfig, start time.Time) (s *binarySink, first int, err error) {
	fi, statErr := os.Stat(c.out)
	existed := statErr == nil && fi.Size() > 0
	lock, err := os.OpenFile(c.out, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, 0, err
	}
	defer func() {
		if err != nil {
			lock.Close()
			if !existed {
				if fi, serr := os.Stat(c.out); serr == nil && fi.Size() == 0 {
					os.Remove(c.out) // created only to be locked
				}
			}
		}
	}()
	if held, err := lockFile(lock); err != nil {
		return nil, 0, err
	} else if held {
		return nil, 0, usagef("%s is being written by another datagen run", c.out)
	}
	var segs []selfplay.Segment
	var size int64
	var healed []string
	if existed {
		if segs, size, err = surveyFile(c.out); err != nil {
			return nil, 0, err
		}
	}
	base := total(segs)
	meta := lastMeta(segs)
	if base.Games > 0 && meta == nil {
		// Written by a build that takes no lock: is one still at it?
		if grew, err := grows(ctx, c.out, fi.Size(), legacySettle); err != nil {
			return nil, 0, err
		} else if grew {
			return nil, 0, usagef("%s grew while it was read: another process is writing it; stop it first (SIGINT keeps its complete games)", c.out)
		}
	}
	file := filepath.Base(c.out)
	r := row{file: file, seed: unknown, net: c.netName, netSHA: c.netSHA, flags: c.gameFlags(), builds: segmentBuilds(segs)}
	// What the file says of its games, then what the manifest says.
	rec := row{seed: unknown, netSHA: unknown, flags: unknown}
	if meta != nil {
		rec.seed, rec.netSHA, rec.flags = orUnknown(meta[metaSeed]), orUnknown(meta[metaNetSHA]), orUnknown(meta[metaFlags])
	}
	settle := func(m *manifest) error {
		if old := m.row(file); old != nil {
			for _, f := range []struct{ rec, old *string }{{&rec.seed, &old.seed}, {&rec.netSHA, &old.netSHA}, {&rec.flags, &old.flags}} {
				if *f.old != unknown {
					*f.rec = *f.old
				}
			}
			r.builds = old.builds
		}
		if err := c.settleSeed(rec, base); err != nil {
			return err
		}
		r.seed = strconv.FormatUint(c.seed, 10)
		switch {
		case base.Games == 0:
		case rec.netSHA != unknown && rec.netSHA != c.netSHA:
			return usagef("%s: its games were played with the net of SHA-256 %s, this run's is %s (%s): give a new file a new seed",
				c.out, rec.netSHA, c.netSHA, c.netName)
		case rec.flags != unknown && rec.flags != c.gameFlags():
			return usagef("%s: its games were played with %s, this run asks for %s: give a new file a new seed", c.out, rec.flags, c.gameFlags())
		}
		if m == nil {
			return nil
		}
		if other := m.seedOwner(r.seed, file); other != "" {
			return usagef("seed %s is %s's (%s): seeds are never reused; the next free one is %d", r.seed, other, m.path, m.nextSeed())
		}
		var herr error
		if healed, herr = healStale(m, file); herr != nil {
			return herr
		}
		r.builds = addBuild(r.builds, c.build)
		r.Counts, r.bytes, r.updated = base, size, time.Now().UTC().Format(time.RFC3339)
		m.rows[file] = &r
		return nil
	}
	if c.manifest == "" {
		err = settle(nil)
	} else {
		err = updateManifest(c.manifest, settle)
	}
	if err != nil {
		return nil, 0, err
	}
	w, n, err := selfplay.OpenAppend(c.out)
	if err != nil {
		return nil, 0, err
	}
	if int64(n) != base.Games {
		w.Close()
		return nil, 0, fmt.Errorf("%s: %d games when read, %d when opened: is another process writing it?", c.out, base.Games, n)
	}
	if err := w.SetMeta(c.meta(n, start)); err != nil {
		w.Close()
		return nil, 0, err
	}
	s = &binarySink{w: w, lock: lock, healed: healed}
	if c.manifest != "" {
		s.keep = &keeper{path: c.manifest, row: r, base: base}
	}
	return s, n, nil
}

// settleSeed sets c.seed from rec, the seed recorded for a file holding
// the games base (unknown: none), when --seed was not given; a --seed
// other than the recorded one is refused, and so is none at all for a
// file whose games' seed is not recorded.
func (c *playConfig) settleSeed(rec row, base selfplay.Counts) error {
	want := strconv.FormatUint(c.seed, 10)
	switch {
	case rec.seed != unknown && c.seedSet && rec.seed != want:
		return usagef("%s: its games were played with seed %s, not %s", c.out, rec.seed, want)
	case rec.seed != unknown:
		s, err := strconv.ParseUint(rec.seed, 10, 64)
		if err != nil {
			return fmt.Errorf("%s: recorded seed %q: %v", c.out, rec.seed, err)
		}
		c.seed = s
	case base.Games > 0 && !c.seedSet:
		return usagef("%s holds %d games and no record of their seed: give the seed they were played with (--seed)", c.out, base.Games)
	}
	return nil
}

// grows tells whether the file at path, of size bytes before it was read,
// has another size after wait.
func grows(ctx context.Context, path string, size int64, wait time.Duration) (bool, error) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-t.C:
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	return fi.Size() != size, nil
}

// healStale recounts the rows of m, other than skip's, whose plain game
// file in the manifest's folder has another size than the row records and
// is not being written: the rows a killed run left behind (it updates its
// row only every manifestEvery). It returns a line for each row whose
// counts changed.
func healStale(m *manifest, skip string) ([]string, error) {
	var healed []string
	for _, name := range slices.Sorted(maps.Keys(m.rows)) {
		r := m.rows[name]
		if name == skip || !strings.HasSuffix(name, ".bin") {
			continue
		}
		path := filepath.Join(filepath.Dir(m.path), name)
		fi, err := os.Stat(path)
		if err != nil || fi.Size() == r.bytes {
			continue // gone (its row stays, its seed taken) or as recorded
		}
		if busy, err := fileBusy(path); err != nil || busy {
			continue // its run keeps the row
		}
		segs, size, err := surveyFile(path)
		if err != nil {
			return nil, err
		}
		if c := total(segs); c != r.Counts || size != r.bytes {
			healed = append(healed, fmt.Sprintf("%s: the manifest listed %d games, %d positions; the file holds %d, %d: row recounted",
				name, r.Games, r.Positions, c.Games, c.Positions))
			r.Counts, r.bytes, r.updated = c, size, time.Now().UTC().Format(time.RFC3339)
		}
	}
	return healed, nil
}
