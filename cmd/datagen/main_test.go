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
		// One seed for both: an experiment, outside the manifest.
		args := []string{"--games", "2", "--nodes", "300", "--concurrency", "1", "--seed", "5", "--out", out, "--manifest", "none"}
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
			"--frc", c.frc, "--dfrc", c.dfrc, "--seed", "3", "--out", out, "--manifest", "none")
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
	parts, whole := filepath.Join(dir, "parts.bin"), filepath.Join(t.TempDir(), "whole.bin")
	args := []string{"--nodes", "200", "--concurrency", "1", "--seed", "5"}
	datagen(t, append(args, "--games", "2", "--out", parts)...)
	_, stderr := datagen(t, append(args, "--games", "2", "--out", parts)...)
	if !strings.Contains(stderr, "holds 2 games") {
		t.Errorf("no word of the games in the file: %s", stderr)
	}
	datagen(t, append(args, "--games", "4", "--out", whole)...)
	a, b := readGames(t, parts), readGames(t, whole)
	if len(a) != 4 || len(b) != 4 {
		t.Fatalf("%d games appended, %d in one run: want 4", len(a), len(b))
	}
	for i := range a {
		if a[i].Start.FEN(true) != b[i].Start.FEN(true) || a[i].Result != b[i].Result || !slices.Equal(a[i].Plies, b[i].Plies) {
			t.Fatalf("game %d of the appended file differs from one run's", i)
		}
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
		{"--frc", "NaN"},
		{"--dfrc", "+Inf"},
		{"--format", "csv"},
		{"--nodes", "0"},
		{"--nodes", "5000", "--soft-nodes", "5001"},
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
			label, res := exactSearch(context.Background(), search.NewPool(tt.New(8)), pos, search.Limits{Nodes: nodes}, searchOptions, &st)
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
		// With --soft-nodes (and room under --nodes) the search ends on its
		// last completed depth: the same search as the depth-limited one,
		// so its final score is the label and no node went to a depth
		// dropped.
		for _, soft := range []uint64{700, 2500, 6000} {
			pos := movegen.NewPosition()
			if err := pos.SetFEN(fen); err != nil {
				t.Fatal(err)
			}
			var st stats
			label, res := exactSearch(context.Background(), search.NewPool(tt.New(8)), pos, search.Limits{Nodes: 100 * soft, SoftNodes: soft}, searchOptions, &st)
			ref := search.NewPool(tt.New(8)).Search(context.Background(), pos, search.Limits{Depth: res.Depth}, searchOptions, nil)
			if st.noExact != 0 || st.inexact != 0 || label != res.Score || label != ref.Score || res.Nodes != ref.Nodes || res.BestMove != ref.BestMove || res.Nodes < soft {
				t.Errorf("%s, soft %d: label %d, final %d %v in %d nodes at depth %d (inexact %d); depth-%d search %d %v in %d nodes",
					fen, soft, label, res.Score, res.BestMove, res.Nodes, res.Depth, st.inexact, res.Depth, ref.Score, ref.BestMove, ref.Nodes)
			}
		}
	}
}

// manifestRows reads a folder's manifest: each row's fields by column.
func manifestRows(t *testing.T, dir string) map[string]map[string]string {
	t.Helper()
	m, err := readManifest(filepath.Join(dir, manifestName))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]map[string]string{}
	for name, r := range m.rows {
		rows[name] = map[string]string{}
		for i, f := range r.fields() {
			rows[name][manifestColumns[i]] = f
		}
	}
	return rows
}

// fileCounts returns what the manifest should list for a game file: games,
// plies, training positions (as datagen export counts them) and bytes.
func fileCounts(t *testing.T, path string) map[string]string {
	t.Helper()
	plies := 0
	games := readGames(t, path)
	for _, g := range games {
		plies += len(g.Plies)
	}
	stdout, _ := datagen(t, "export", path)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"games": strconv.Itoa(len(games)), "plies": strconv.Itoa(plies),
		"positions": strconv.Itoa(strings.Count(stdout, "\n")), "bytes": strconv.FormatInt(fi.Size(), 10)}
}

func checkRow(t *testing.T, dir, file string, want map[string]string) {
	t.Helper()
	r := manifestRows(t, dir)[file]
	if r == nil {
		t.Fatalf("%s: no row", file)
	}
	for k, v := range want {
		if r[k] != v {
			t.Errorf("%s: %s %q, want %q", file, k, r[k], v)
		}
	}
}

// TestManifest: a run records its file's row (seed, net, settings and the
// counts of the whole file), an append without --seed takes the recorded
// seed, and a seed, net or settings that disagree with the record are
// refused (exit 2) before anything is written.
func TestManifest(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a-5.bin")
	args := []string{"--nodes", "200", "--concurrency", "1"}
	_, stderr := datagen(t, append(args, "--games", "2", "--seed", "5", "--out", a)...)
	if !strings.Contains(stderr, "manifest.tsv: row of a-5.bin kept up to date") {
		t.Errorf("stderr: %s", stderr)
	}
	flags := "--nodes 200 --frc 0.3333333333333333 --dfrc 0.3333333333333333 --random-plies 8 --hash 8"
	want := fileCounts(t, a)
	want["seed"], want["net"], want["net_sha256"], want["flags"] = "5", "hand-written", "none", flags
	checkRow(t, dir, "a-5.bin", want)
	if want["games"] != "2" || want["positions"] == "0" || want["positions"] == want["plies"] {
		t.Fatalf("counts %v", want)
	}
	datagen(t, append(args, "--games", "1", "--out", a)...) // the seed from the manifest
	want2 := fileCounts(t, a)
	if want2["games"] != "3" {
		t.Fatalf("%s games after appending one to two", want2["games"])
	}
	checkRow(t, dir, "a-5.bin", want2)
	// Each run's games follow a header with its metadata.
	segs, _, err := surveyFile(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 2 || segs[0].Meta[metaSeed] != "5" || segs[1].Meta[metaSeed] != "5" || segs[1].Meta[metaFirst] != "2" ||
		segs[1].Meta[metaFlags] != flags || segs[0].Games != 2 || segs[1].Games != 1 {
		t.Fatalf("segments %+v", segs)
	}

	before, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(dir, "b.bin")
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--seed", "5", "--out", b}, "seed 5 is a-5.bin's"},
		{[]string{"--out", b}, "seed 1 is"}, // the default seed
		{[]string{"--seed", "6", "--out", a}, "played with seed 5, not 6"},
		{[]string{"--nodes", "300", "--out", a}, "played with --nodes 200"},
		{[]string{"--nodes", "200", "--soft-nodes", "100", "--out", a}, "played with --nodes 200 --frc"},
		{[]string{"--net", "embedded", "--nodes", "200", "--out", a}, "net of SHA-256 none"},
	} {
		if c.msg == "seed 1 is" {
			datagen(t, append(args, "--games", "1", "--seed", "1", "--out", filepath.Join(dir, "c-1.bin"))...)
			before, _ = os.ReadFile(filepath.Join(dir, manifestName))
		}
		var stderr bytes.Buffer
		code := run(context.Background(), append([]string{"--games", "1", "--concurrency", "1"}, c.args...), strings.NewReader(""), io.Discard, &stderr)
		if code != exitUsage || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%q: exit %d, %q: want exit %d and %q", c.args, code, stderr.String(), exitUsage, c.msg)
		}
		if after, _ := os.ReadFile(filepath.Join(dir, manifestName)); !bytes.Equal(after, before) {
			t.Errorf("%q: the manifest changed", c.args)
		}
		if _, err := os.Stat(b); err == nil {
			t.Errorf("%q: %s created", c.args, b)
		}
	}
	checkRow(t, dir, "a-5.bin", want2)
	// --soft-nodes is one of the settings, recorded after --nodes.
	d := filepath.Join(dir, "d-9.bin")
	datagen(t, append(args, "--soft-nodes", "100", "--games", "1", "--seed", "9", "--out", d)...)
	want3 := fileCounts(t, d)
	want3["seed"], want3["flags"] = "9", "--nodes 200 --soft-nodes 100 --frc 0.3333333333333333 --dfrc 0.3333333333333333 --random-plies 8 --hash 8"
	checkRow(t, dir, "d-9.bin", want3)
}

// TestManifestTakesOverLegacyFile: a file without metadata (written by a
// build before the manifest) is appended to with the --seed it was made
// with, which is then recorded; without --seed it is refused.
func TestManifestTakesOverLegacyFile(t *testing.T) {
	if testing.Short() {
		t.Skip("waits legacySettle for the file to stop growing")
	}
	dir := t.TempDir()
	src := filepath.Join(t.TempDir(), "src.bin")
	args := []string{"--nodes", "200", "--concurrency", "1"}
	datagen(t, append(args, "--games", "2", "--seed", "7", "--out", src)...)
	legacy := filepath.Join(dir, "old-7.bin")
	var buf bytes.Buffer
	w, _ := selfplay.NewWriter(&buf)
	for _, g := range readGames(t, src) {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if err := os.WriteFile(legacy, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), append(args, "--games", "1", "--out", legacy), strings.NewReader(""), io.Discard, &stderr); code != exitUsage ||
		!strings.Contains(stderr.String(), "holds 2 games and no record of their seed") {
		t.Fatalf("no --seed: exit %d, %s", code, stderr.String())
	}
	datagen(t, append(args, "--games", "1", "--seed", "7", "--out", legacy)...)
	want := fileCounts(t, legacy)
	want["seed"], want["builds"] = "7", "?,unknown" // a test binary has no commit stamped
	checkRow(t, dir, "old-7.bin", want)
	if !slices.Equal(readGames(t, src)[1].Plies, readGames(t, legacy)[1].Plies) {
		t.Fatal("the legacy games changed")
	}
}

// TestManifestCommand: datagen manifest rebuilds a lost manifest from the
// files' own records, keeps what a manifest records, and --check tells
// counts that differ from the files.
func TestManifestCommand(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--nodes", "200", "--concurrency", "1", "--games", "1"}
	datagen(t, append(args, "--seed", "3", "--out", filepath.Join(dir, "x-3.bin"))...)
	datagen(t, append(args, "--seed", "4", "--out", filepath.Join(dir, "y-4.bin"))...)
	path := filepath.Join(dir, manifestName)
	orig := manifestRows(t, dir)
	if stdout, _ := datagen(t, "manifest", "--check", dir); !strings.Contains(stdout, "2 files: 2 games") {
		t.Errorf("check of a current manifest: %s", stdout)
	}
	os.Remove(path)
	stdout, _ := datagen(t, "manifest", dir)
	if !strings.Contains(stdout, "x-3.bin: not listed: seed 3") {
		t.Errorf("rebuild: %s", stdout)
	}
	rebuilt := manifestRows(t, dir)
	for name, r := range orig {
		for k, v := range r {
			if k != "updated" && rebuilt[name][k] != v {
				t.Errorf("rebuilt %s: %s %q, was %q", name, k, rebuilt[name][k], v)
			}
		}
	}
	// A count that differs, and a file that is gone (its row stays: its
	// seed is taken).
	data, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(data), "\t"+rebuilt["x-3.bin"]["plies"]+"\t", "\t1\t", 1)), 0o644)
	os.Remove(filepath.Join(dir, "y-4.bin"))
	var out bytes.Buffer
	if code := run(context.Background(), []string{"manifest", "--check", dir}, strings.NewReader(""), &out, io.Discard); code != exitFailure ||
		!strings.Contains(out.String(), "x-3.bin: listed 1 games, 1 plies") || !strings.Contains(out.String(), "y-4.bin: listed (seed 4") {
		t.Errorf("check: exit %d: %s", code, out.String())
	}
	datagen(t, "manifest", dir)
	if r := manifestRows(t, dir); r["x-3.bin"]["plies"] != rebuilt["x-3.bin"]["plies"] || r["y-4.bin"]["seed"] != "4" {
		t.Errorf("after the rebuild: %v", r)
	}
	var stderr bytes.Buffer
	if code := run(context.Background(), append(args, "--seed", "4", "--out", filepath.Join(dir, "z.bin")), strings.NewReader(""), io.Discard, &stderr); code != exitUsage {
		t.Errorf("the seed of a lost file: exit %d, %s", code, stderr.String())
	}
}

// TestManifestUpdatedWhileRunning: the row follows the games at each
// progress line, so a killed run leaves a nearly current one; a stopped run
// leaves the exact counts.
func TestManifestUpdatedWhileRunning(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r-9.bin")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int)
	var stderr bytes.Buffer
	go func() {
		done <- run(ctx, []string{"--games", "0", "--nodes", "200", "--concurrency", "1", "--seed", "9", "--progress", "20ms", "--out", out},
			strings.NewReader(""), io.Discard, &stderr)
	}()
	for {
		m, err := readManifest(filepath.Join(dir, manifestName))
		if err != nil {
			t.Fatal(err)
		}
		if r := m.rows["r-9.bin"]; r != nil && r.Games >= 2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	// While it runs, the file is its own: another run is refused and the
	// manifest command leaves its row to it.
	var other bytes.Buffer
	if code := run(context.Background(), []string{"--games", "1", "--seed", "9", "--out", out}, strings.NewReader(""), io.Discard, &other); code != exitUsage ||
		!strings.Contains(other.String(), "being written by another datagen run") {
		t.Errorf("a second run on the file: exit %d, %s", code, other.String())
	}
	if stdout, _ := datagen(t, "manifest", "--check", dir); !strings.Contains(stdout, "r-9.bin: being written by a running datagen") {
		t.Errorf("manifest --check: %s", stdout)
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	checkRow(t, dir, "r-9.bin", fileCounts(t, out))
}

// TestManifestHealsStaleRows: a run killed between two updates of its row
// leaves the manifest behind its file; the next run in the folder, on any
// file, recounts that row.
func TestManifestHealsStaleRows(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a-1.bin")
	args := []string{"--nodes", "200", "--concurrency", "1", "--games", "1"}
	datagen(t, append(args, "--seed", "1", "--out", a)...)
	path := filepath.Join(dir, manifestName)
	stale, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	datagen(t, append(args, "--out", a)...) // a second game
	want := fileCounts(t, a)
	if err := os.WriteFile(path, stale, 0o644); err != nil { // as a killed run leaves it
		t.Fatal(err)
	}
	if r := manifestRows(t, dir)["a-1.bin"]; r["games"] != "1" || want["games"] != "2" {
		t.Fatalf("set-up: the row lists %s games, the file holds %s", r["games"], want["games"])
	}
	_, stderr := datagen(t, append(args, "--seed", "2", "--out", filepath.Join(dir, "b-2.bin"))...)
	if !strings.Contains(stderr, "a-1.bin: the manifest listed 1 games, ") || !strings.Contains(stderr, "the file holds 2, "+want["positions"]) {
		t.Errorf("stderr: %s", stderr)
	}
	checkRow(t, dir, "a-1.bin", want)
	checkRow(t, dir, "b-2.bin", fileCounts(t, filepath.Join(dir, "b-2.bin")))
	// A current row is left alone.
	_, stderr = datagen(t, append(args, "--seed", "3", "--out", filepath.Join(dir, "c-3.bin"))...)
	if strings.Contains(stderr, "recounted") {
		t.Errorf("rows recounted again: %s", stderr)
	}
}
