package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kingrook/kingrook/cmd/internal/selfplay"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// datagen runs the command in-process and fails the test on a non-zero
// exit.
func datagen(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("datagen %q: exit %d: %s", args, code, errb.String())
	}
	return out.String(), errb.String()
}

func readGames(t *testing.T, path string) []*selfplay.Game {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := selfplay.NewReader(f)
	var games []*selfplay.Game
	for {
		var g selfplay.Game
		err := r.ReadGame(&g) // checks every move's legality
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, &g)
	}
	if r.Truncated() != 0 {
		t.Fatalf("%s ends in a partial game of %d bytes", path, r.Truncated())
	}
	return games
}

func TestPlaysBinaryGames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.bin")
	_, stderr := datagen(t, "--games", "3", "--nodes", "300", "--concurrency", "1", "--out", out)
	if !strings.Contains(stderr, "done: games 3,") {
		t.Errorf("no final progress line: %s", stderr)
	}
	games := readGames(t, out)
	if len(games) != 3 {
		t.Fatalf("%d games, want 3", len(games))
	}
	for i, g := range games {
		if len(g.Plies) < 10 {
			t.Errorf("game %d: %d plies", i, len(g.Plies))
		}
		if g.Start.Ply() != 0 || !g.Start.HasLegalMove() {
			t.Errorf("game %d: start %s", i, g.Start.FEN(true))
		}
		for j, p := range g.Plies {
			if p.Score == selfplay.NoScore {
				t.Fatalf("game %d ply %d: no score", i, j)
			}
		}
	}
}

// TestPlaysWithNet: --net embedded plays games evaluated by the network, and
// they differ from the hand-written evaluation's games of the same seed.
func TestPlaysWithNet(t *testing.T) {
	dir := t.TempDir()
	plies := map[string][]selfplay.Ply{}
	for _, net := range []string{"", "embedded"} {
		out := filepath.Join(dir, "games-"+net+".bin")
		args := []string{"--games", "2", "--nodes", "300", "--concurrency", "1", "--seed", "5", "--out", out}
		if net != "" {
			args = append(args, "--net", net)
		}
		datagen(t, args...)
		games := readGames(t, out)
		if len(games) != 2 {
			t.Fatalf("--net %q: %d games", net, len(games))
		}
		// A game may end early by adjudication: the two games together
		// must hold some plies.
		for _, g := range games {
			plies[net] = append(plies[net], g.Plies...)
		}
		if len(plies[net]) < 10 {
			t.Fatalf("--net %q: %d plies in two games", net, len(plies[net]))
		}
	}
	if slices.Equal(plies[""], plies["embedded"]) {
		t.Error("the network's game equals the hand-written evaluation's")
	}
}

// backRanks returns a start position's first and last ranks of its FEN.
func backRanks(fen string) (white, black string) {
	ranks := strings.Split(strings.Fields(fen)[0], "/")
	return ranks[7], ranks[0]
}

// TestStartMix plays from the start positions themselves (no random
// plies): --frc and --dfrc choose the kind.
func TestStartMix(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, frc, dfrc string
		check           func(white, black string) bool
		all             bool // every game passes check (else at least one)
	}{
		{"standard", "0", "0", func(w, b string) bool { return w == "RNBQKBNR" && b == "rnbqkbnr" }, true},
		{"chess960", "1", "0", func(w, b string) bool { return strings.ToLower(w) == b }, true},
		{"dfrc", "0", "1", func(w, b string) bool { return strings.ToLower(w) != b }, false},
	}
	for _, c := range cases {
		out := filepath.Join(dir, c.name+".bin")
		datagen(t, "--games", "4", "--nodes", "100", "--concurrency", "1", "--random-plies", "0",
			"--frc", c.frc, "--dfrc", c.dfrc, "--seed", "3", "--out", out)
		pass := 0
		for _, g := range readGames(t, out) {
			w, b := backRanks(g.Start.FEN(true))
			if c.check(w, b) {
				pass++
			} else if c.all {
				t.Errorf("%s: start %s", c.name, g.Start.FEN(true))
			}
		}
		if pass == 0 {
			t.Errorf("%s: no game from such a start", c.name)
		}
	}
}

// TestAppendContinues: two runs appending to one file give the same games
// as one run, since a game depends on the seed and its number only.
func TestAppendContinues(t *testing.T) {
	dir := t.TempDir()
	parts, whole := filepath.Join(dir, "parts.bin"), filepath.Join(dir, "whole.bin")
	args := []string{"--nodes", "200", "--concurrency", "1", "--seed", "5"}
	datagen(t, append(args, "--games", "2", "--out", parts)...)
	_, stderr := datagen(t, append(args, "--games", "2", "--out", parts)...)
	if !strings.Contains(stderr, "holds 2 games") {
		t.Errorf("no word of the games in the file: %s", stderr)
	}
	datagen(t, append(args, "--games", "4", "--out", whole)...)
	a, err := os.ReadFile(parts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	if len(readGames(t, parts)) != 4 || !bytes.Equal(a, b) {
		t.Fatalf("appended file (%d bytes) differs from one run (%d bytes)", len(a), len(b))
	}
}

// TestStopKeepsCompleteGames cancels a run (as SIGINT does) once a game is
// in the file: the file holds complete games only.
func TestStopKeepsCompleteGames(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.bin")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if fi, err := os.Stat(out); err == nil && fi.Size() > 8 {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	var stderr bytes.Buffer
	code := run(ctx, []string{"--games", "0", "--nodes", "300", "--concurrency", "2", "--out", out},
		strings.NewReader(""), io.Discard, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "complete games only") {
		t.Errorf("stop not reported: %s", stderr.String())
	}
	if n := len(readGames(t, out)); n < 1 {
		t.Fatalf("%d games", n)
	}
}

func TestDurationStops(t *testing.T) {
	out := filepath.Join(t.TempDir(), "games.bin")
	datagen(t, "--duration", "1ns", "--out", out)
	if n := len(readGames(t, out)); n != 0 {
		t.Fatalf("%d games after a duration of 1ns", n)
	}
}

func TestTextFormats(t *testing.T) {
	dir := t.TempDir()
	text, epd := filepath.Join(dir, "data.txt"), filepath.Join(dir, "data.epd")
	args := []string{"--games", "2", "--nodes", "300", "--concurrency", "1", "--seed", "9"}
	datagen(t, append(args, "--format", "text", "--out", text)...)
	datagen(t, append(args, "--format", "epd", "--out", epd)...)
	lines := func(path string) []string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	tl, el := lines(text), lines(epd)
	if len(tl) < 10 || len(tl) != len(el) {
		t.Fatalf("%d text lines, %d epd lines", len(tl), len(el))
	}
	for i, l := range tl {
		f := strings.Split(l, " | ")
		if len(f) != 3 {
			t.Fatalf("line %q", l)
		}
		var p movegen.Position
		if err := p.SetFEN(f[0]); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if p.InCheck() {
			t.Errorf("position in check: %q", l)
		}
		if s, err := strconv.Atoi(f[1]); err != nil || s <= -2000 || s >= 2000 {
			t.Errorf("score in %q", l)
		}
		if f[2] != "1.0" && f[2] != "0.5" && f[2] != "0.0" {
			t.Errorf("result in %q", l)
		}
		if want := f[0] + " [" + f[2] + "]"; el[i] != want {
			t.Errorf("epd line %q, want %q", el[i], want)
		}
	}
}

// TestPGNConversion converts the PGN reader's fixture (written by hand,
// in cmd/internal/selfplay/testdata) and prints it back as text.
func TestPGNConversion(t *testing.T) {
	evalsPGN := filepath.Join("..", "internal", "selfplay", "testdata", "evals.pgn")
	out := filepath.Join(t.TempDir(), "pgn.bin")
	_, stderr := datagen(t, "pgn", "--out", out, evalsPGN)
	if !strings.Contains(stderr, "5 games, 24 plies converted; 2 games skipped") ||
		!strings.Contains(stderr, "pgn game 6: move 1 (e5)") {
		t.Errorf("stderr: %s", stderr)
	}
	if n := len(readGames(t, out)); n != 5 {
		t.Fatalf("%d games", n)
	}
	stdout, _ := datagen(t, "export", "--all", out)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 22 { // 24 plies, 2 without a score
		t.Fatalf("%d positions: %s", len(lines), stdout)
	}
	want := []string{
		"rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w HAha - 0 2 | 30 | 1.0",
		"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1 | 10 | 0.5",
		"7k/P7/6K1/8/8/8/8/8 w - - 0 1 | 31999 | 1.0",
		"6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1 | 31998 | 1.0",
	}
	for _, w := range want {
		if !strings.Contains(stdout, w+"\n") {
			t.Errorf("missing %q in\n%s", w, stdout)
		}
	}
	// The training selection drops them all: every game is shorter than 12 plies.
	stdout, _ = datagen(t, "export", out)
	if stdout != "" {
		t.Errorf("training selection: %q", stdout)
	}
}

func TestBadArguments(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text.txt")
	if err := os.WriteFile(text, []byte("not a game file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--nope"},
		{"--frc", "0.7", "--dfrc", "0.5"},
		{"--frc", "-0.1"},
		{"--format", "csv"},
		{"--nodes", "0"},
		{"--concurrency", "0"},
		{"--net", filepath.Join(dir, "missing.nnue")},
		{"--net", text}, // not a network
		{"stray"},
		{"pgn", "--nope"},
		{"export", "--nope"},
	} {
		var stderr bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), io.Discard, &stderr); code != exitUsage {
			t.Errorf("%q: exit %d, want %d (%s)", args, code, exitUsage, stderr.String())
		}
		if !strings.HasPrefix(stderr.String(), "datagen") {
			t.Errorf("%q: no message on stderr: %q", args, stderr.String())
		}
	}
	// --help prints the usage to stdout and succeeds.
	for _, args := range [][]string{{"--help"}, {"pgn", "--help"}, {"export", "-h"}} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != exitOK ||
			!strings.HasPrefix(stdout.String(), "Usage: datagen") || stderr.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout.String(), stderr.String())
		}
	}
	for _, args := range [][]string{
		{"--games", "1", "--out", text},        // appending games to a text file
		{"export", text},                       // not a game file
		{"export", filepath.Join(dir, "none")}, // missing
		{"pgn", filepath.Join(dir, "none")},
	} {
		var stderr bytes.Buffer
		if code := run(context.Background(), args, strings.NewReader(""), io.Discard, &stderr); code != exitFailure {
			t.Errorf("%q: exit %d, want %d (%s)", args, code, exitFailure, stderr.String())
		}
	}
}

// TestLabelIsLastCompletedDepth: the label of a node-limited search is the
// score a search limited to its last completed depth returns (both from a
// fresh table: the same tree up to that depth), not a bound or a score of
// the depth the node limit cut short.
func TestLabelIsLastCompletedDepth(t *testing.T) {
	fens := []string{
		movegen.StartFEN,
		"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
		"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
		"8/5pk1/6p1/3R4/7P/5PK1/r7/8 b - - 0 40",
		"r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
	}
	for _, fen := range fens {
		for _, nodes := range []uint64{700, 2500, 6000} {
			pos := movegen.NewPosition()
			if err := pos.SetFEN(fen); err != nil {
				t.Fatal(err)
			}
			var st stats
			label, res := exactSearch(context.Background(), search.NewPool(tt.New(8)), pos, nodes, searchOptions, &st)
			if st.noExact != 0 || res.Depth < 1 {
				t.Fatalf("%s, %d nodes: no completed depth", fen, nodes)
			}
			ref := search.NewPool(tt.New(8)).Search(context.Background(), pos, search.Limits{Depth: res.Depth}, searchOptions, nil)
			if res.Score != ref.Score {
				t.Logf("%s, %d nodes: final score %d differs from depth %d: %d (label %d)", fen, nodes, res.Score, res.Depth, ref.Score, label)
			}
			if label != ref.Score {
				t.Errorf("%s, %d nodes: label %d, depth-%d search %d (final score %d)", fen, nodes, label, res.Depth, ref.Score, res.Score)
			}
		}
	}
}
