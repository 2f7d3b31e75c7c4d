// Package syzygy probes Syzygy endgame tablebases: WDL (.rtbw) and DTZ
// (.rtbz) files for up to seven pieces, in pure Go.
//
// Tables are found by name when a set is opened and read lazily: a file is
// opened (memory-mapped where the system allows it, read with ReadAt
// elsewhere) and its header parsed on the first probe that needs it. A file
// that is corrupt or truncated is treated as missing. Probes are safe for
// concurrent use by any number of goroutines, each with its own Position.
//
// The format is the one published with the Syzygy generator: a table holds,
// for every placement of its pieces reduced by the board's symmetries, a
// value compressed by recursive pairing and canonical Huffman codes into
// blocks, found through a sparse index of the block lengths. WDL tables
// store win/draw/loss with the 50-move rule ("cursed" wins and "blessed"
// losses), DTZ tables the distance in plies to the next capture or pawn
// move, for one side to move only.
package syzygy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/kingrook/kingrook/movegen"
)

// MaxPieces is the largest number of pieces, kings included, a Syzygy table
// holds.
const MaxPieces = 7

// WDL is a tablebase result from the side to move's view.
type WDL int8

// Tablebase results. A cursed win is a win that the 50-move rule turns into
// a draw, a blessed loss a loss that it saves.
const (
	Loss        WDL = -2
	BlessedLoss WDL = -1
	Draw        WDL = 0
	CursedWin   WDL = 1
	Win         WDL = 2
)

// String gives Fathom's words: Loss, BlessedLoss, Draw, CursedWin, Win.
func (w WDL) String() string {
	switch w {
	case Loss:
		return "Loss"
	case BlessedLoss:
		return "BlessedLoss"
	case Draw:
		return "Draw"
	case CursedWin:
		return "CursedWin"
	case Win:
		return "Win"
	}
	return fmt.Sprintf("WDL(%d)", int(w))
}

// WDLFromDTZ classifies a DTZ value (as ProbeDTZ returns it) given the
// position's half-move clock: a win whose zeroing move comes after the
// 50-move rule has struck is a cursed win, a loss likewise a blessed loss.
func WDLFromDTZ(dtz, rule50 int) WDL {
	switch {
	case dtz > 0 && dtz+rule50 <= 100:
		return Win
	case dtz > 0:
		return CursedWin
	case dtz < 0 && -dtz+rule50 <= 100:
		return Loss
	case dtz < 0:
		return BlessedLoss
	}
	return Draw
}

// Tables is an opened tablebase set. The zero value holds no tables.
type Tables struct {
	entries   map[uint64]*entry // by material key, both colour orders
	wdlFiles  int
	dtzFiles  int
	maxPieces int
	readAt    bool // read with ReadAt even where mmap is available (tests)
	mu        sync.Mutex
	open      []source // files opened so far, for Close
}

// Open finds the tables in the directories of paths, separated by the
// system's list separator (':' on unix, ';' on Windows) as in Stockfish's
// SyzygyPath. An empty path or "<empty>" opens no tables. Directories that
// cannot be read are skipped and named in the returned error; the Tables
// returned is usable in every case.
func Open(paths string) (*Tables, error) {
	return open(paths, false)
}

func open(paths string, readAt bool) (*Tables, error) {
	t := &Tables{entries: map[uint64]*entry{}, readAt: readAt}
	if paths == "" || paths == "<empty>" {
		return t, nil
	}
	var errs []error
	for _, dir := range filepath.SplitList(paths) {
		if dir == "" {
			continue
		}
		list, err := os.ReadDir(dir)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, de := range list {
			if de.IsDir() {
				continue
			}
			name := de.Name()
			ext := filepath.Ext(name)
			if ext != ".rtbw" && ext != ".rtbz" {
				continue
			}
			t.add(strings.TrimSuffix(name, ext), ext == ".rtbz", filepath.Join(dir, name))
		}
	}
	return t, errors.Join(errs...)
}

// add registers one file; the first directory that holds a table wins.
func (t *Tables) add(name string, dtz bool, path string) {
	var counts [2][7]int
	if !parseMaterial(name, &counts) {
		return
	}
	key, key2 := materialKey(&counts[0], &counts[1]), materialKey(&counts[1], &counts[0])
	e := t.entries[key]
	if e == nil {
		e = newEntry(name, &counts)
		t.entries[key] = e
		t.entries[key2] = e
	}
	lt := &e.wdl
	if dtz {
		lt = &e.dtz
	}
	if lt.path != "" {
		return
	}
	lt.path = path
	if dtz {
		t.dtzFiles++
	} else {
		t.wdlFiles++
	}
	t.maxPieces = max(t.maxPieces, e.num)
}

// parseMaterial reads a table name such as KRPvKB: the white pieces, 'v',
// the black pieces, each side starting with its king.
func parseMaterial(name string, counts *[2][7]int) bool {
	sides := strings.Split(name, "v")
	if len(sides) != 2 {
		return false
	}
	total := 0
	for c, s := range sides {
		if len(s) == 0 || s[0] != 'K' {
			return false
		}
		for i := 0; i < len(s); i++ {
			t := strings.IndexByte(" PNBRQK", s[i])
			if t <= 0 || (t == int(movegen.King) && i > 0) {
				return false
			}
			counts[c][t]++
			total++
		}
	}
	return total <= MaxPieces
}

// Count returns how many WDL and DTZ files were found.
func (t *Tables) Count() (wdl, dtz int) { return t.wdlFiles, t.dtzFiles }

// MaxPieces is the largest number of pieces of any table found (0 when
// none was).
func (t *Tables) MaxPieces() int { return t.maxPieces }

// Close releases the files opened by probes. No probe may run during or
// after Close.
func (t *Tables) Close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.open {
		s.close()
	}
	t.open = nil
	return nil
}

// materialKey packs the piece counts of the two sides (kings left out),
// white's first.
func materialKey(white, black *[7]int) uint64 {
	var k uint64
	for pt := movegen.Pawn; pt < movegen.King; pt++ {
		k |= uint64(white[pt])<<(4*(pt-1)) | uint64(black[pt])<<(4*(pt-1)+20)
	}
	return k
}

// positionKey is the material key of a position.
func positionKey(pos *movegen.Position) uint64 {
	var k uint64
	for pt := movegen.Pawn; pt < movegen.King; pt++ {
		k |= uint64(pos.Count(movegen.MakePiece(movegen.White, pt)))<<(4*(pt-1)) |
			uint64(pos.Count(movegen.MakePiece(movegen.Black, pt)))<<(4*(pt-1)+20)
	}
	return k
}
