package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/search"
	"github.com/kingrook/kingrook/tt"
)

// atlasNodes keeps the atlas tests fast: a few milliseconds a position.
const atlasNodes = "3000"

// runAtlasIn runs the atlas command in-process.
func runAtlasIn(t *testing.T, ctx context.Context, stderr io.Writer, args ...string) (code int, stdout string) {
	t.Helper()
	var out bytes.Buffer
	if stderr == nil {
		stderr = io.Discard
	}
	code = atlasMain(ctx, globals{}, args, &out, stderr)
	return code, out.String()
}

// readAtlas returns the settings line and the CSV records (header first) of
// an atlas file, read by a CSV reader after the leading comment.
func readAtlas(t *testing.T, path string) (string, [][]string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, rest, _ := strings.Cut(string(data), "\n")
	r := csv.NewReader(strings.NewReader(rest))
	r.Comment = '#'
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatalf("%s is not CSV after its first line: %v", path, err)
	}
	return first, recs
}

func TestAtlasUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--nodes", "0"}, {"--threads", "0"}, {"--hash", "0"}, {"--games", "-1"}, {"--games", "100000"},
		{"--from", "5", "--to", "3"}, {"--to", "960"}, {"--from", "-1"}, {"extra"}, {"--bogus"}, {"--nodes", "x"},
		{"--evalfile", filepath.Join(t.TempDir(), "missing.nnue")}, {"--out", "a.csv", "--svg", "a.csv"},
	} {
		var errb bytes.Buffer
		code, out := runAtlasIn(t, context.Background(), &errb, args...)
		if code != exitUsage || errb.Len() == 0 || out != "" {
			t.Errorf("atlas %q: exit %d, stdout %q, stderr %q: want %d and a message", args, code, out, errb.String(), exitUsage)
		}
	}
	code, out, errOut := runIn(t, "", "atlas", "--help")
	if code != exitOK || !strings.Contains(out, "Usage: kingrook atlas") || !strings.Contains(out, "--games") || errOut != "" {
		t.Errorf("atlas --help: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestAtlasDeterministic: two runs give the same rows, every column, and
// the rows hold what the columns say.
func TestAtlasDeterministic(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 2 {
		path := filepath.Join(dir, "run"+strconv.Itoa(i)+".csv")
		if code, _ := runAtlasIn(t, context.Background(), nil, "--nodes", atlasNodes, "--from", "516", "--to", "519", "--out", path); code != exitOK {
			t.Fatalf("exit %d", code)
		}
		files = append(files, path)
	}
	s0, r0 := readAtlas(t, files[0])
	s1, r1 := readAtlas(t, files[1])
	if s0 != s1 || !slices.EqualFunc(r0, r1, slices.Equal) {
		t.Fatalf("two runs differ:\n%s\n%q\n%s\n%q", s0, r0, s1, r1)
	}
	for _, want := range []string{"nodes=" + atlasNodes, "threads=1", "hash=16", "net=embedded:", "games=0"} {
		if !strings.Contains(s0, want) {
			t.Errorf("settings line %q lacks %q", s0, want)
		}
	}
	if got := strings.Join(r0[0], ","); got != "number,fen,cp,win,draw,loss,score,bestmove,depth,nodes,pv" {
		t.Errorf("header %q", got)
	}
	if len(r0) != 5 {
		t.Fatalf("%d records, want the header and 4 rows", len(r0))
	}
	for i, rec := range r0[1:] {
		row, err := parseRow(rec, false)
		if err != nil {
			t.Fatal(err)
		}
		if row.number != 516+i || row.win+row.draw+row.loss != 1000 || row.depth < 1 || row.nodes < 3000 || row.nodes > 4000 {
			t.Errorf("row %q", rec)
		}
		pos := movegen.NewPosition()
		if err := pos.SetFEN(row.fen); err != nil {
			t.Fatal(err)
		}
		moves := strings.Fields(row.pv)
		if len(moves) == 0 || moves[0] != row.bestmove {
			t.Errorf("#%d: bestmove %s, pv %q", row.number, row.bestmove, row.pv)
		}
		for _, m := range moves {
			mv, err := movegen.ParseMove(pos, m, true)
			if err != nil {
				t.Fatalf("#%d: pv %q: %v", row.number, row.pv, err)
			}
			pos.Make(mv)
		}
	}
	if r0[3][1] != movegen.StartFEN[:len(movegen.StartFEN)-len(" w KQkq - 0 1")]+" w HAha - 0 1" {
		t.Errorf("#518 is %q", r0[3][1])
	}
}

// TestAtlasResume: rows already in the file are kept (a changed value
// survives), a partial last row is cut off, and the result is the
// uninterrupted run's.
func TestAtlasResume(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.csv")
	if code, _ := runAtlasIn(t, context.Background(), nil, "--nodes", atlasNodes, "--to", "3", "--out", whole); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	part := filepath.Join(dir, "part.csv")
	if code, _ := runAtlasIn(t, context.Background(), nil, "--nodes", atlasNodes, "--to", "1", "--out", part); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	data, _ := os.ReadFile(part)
	// A killed process's partial row, then resume.
	if err := os.WriteFile(part, append(slices.Clone(data), "2,bbqnrkrn/pp"...), 0o644); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	if code, _ := runAtlasIn(t, context.Background(), &errb, "--nodes", atlasNodes, "--to", "3", "--out", part); code != exitOK {
		t.Fatalf("resume: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "holds 2 positions; resuming") || !strings.Contains(errb.String(), "atlas: 4/4") {
		t.Errorf("stderr %q", errb.String())
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(part)
	if !bytes.Equal(a, b) {
		t.Fatalf("resumed file differs from the uninterrupted run:\n%s\n%s", a, b)
	}
	// A kept row is not searched again: mark one and resume a larger range.
	recs := strings.Split(string(b), "\n") // the settings, the header, #0, #1, ...
	f := strings.Split(recs[3], ",")
	f[2] = "12345"
	recs[3] = strings.Join(f, ",")
	if err := os.WriteFile(part, []byte(strings.Join(recs, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _ := runAtlasIn(t, context.Background(), nil, "--nodes", atlasNodes, "--to", "4", "--out", part); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	_, rows := readAtlas(t, part)
	if len(rows) != 6 || rows[2][0] != "1" || rows[2][2] != "12345" || rows[5][0] != "4" {
		t.Errorf("rows after resuming %q", rows)
	}
}

// TestAtlasRefusesOtherSettings: a file of other settings is refused,
// naming the setting, and left as it was.
func TestAtlasRefusesOtherSettings(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.csv")
	if code, _ := runAtlasIn(t, context.Background(), nil, "--nodes", atlasNodes, "--to", "0", "--out", path); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	before, _ := os.ReadFile(path)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--nodes", "2000"}, "nodes=3000, this run has nodes=2000"},
		{[]string{"--nodes", atlasNodes, "--hash", "8"}, "hash=16, this run has hash=8"},
		{[]string{"--nodes", atlasNodes, "--threads", "2"}, "threads=1, this run has threads=2"},
		{[]string{"--nodes", atlasNodes, "--nnue=false"}, "this run has net=none"},
		{[]string{"--nodes", atlasNodes, "--games", "1"}, "games=0, this run has games=1"},
	} {
		var errb bytes.Buffer
		code, _ := runAtlasIn(t, context.Background(), &errb, append(tc.args, "--to", "1", "--out", path)...)
		if code != exitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: exit %d, stderr %q, want %d and %q", tc.args, code, errb.String(), exitUsage, tc.want)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Fatalf("%q: the file was changed", tc.args)
		}
	}
	// The same net under another name is the same net.
	netFile := filepath.Join(t.TempDir(), "same.nnue")
	f, err := os.Create(netFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := nnue.Default().Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if code, _ := runAtlasIn(t, context.Background(), nil, "--nodes", atlasNodes, "--evalfile", netFile, "--to", "1", "--out", path); code != exitOK {
		t.Errorf("the embedded net as a file: exit %d", code)
	}
	notAtlas := filepath.Join(t.TempDir(), "other.csv")
	os.WriteFile(notAtlas, []byte("a,b,c\n1,2,3\n"), 0o644)
	var errb bytes.Buffer
	if code, _ := runAtlasIn(t, context.Background(), &errb, "--out", notAtlas); code != exitUsage || !strings.Contains(errb.String(), "not an atlas file") {
		t.Errorf("not an atlas file: exit %d, stderr %q", code, errb.String())
	}
}

// cancelAfter is a stderr that cancels a run once a progress line with
// this prefix has been written.
type cancelAfter struct {
	prefix string
	cancel context.CancelFunc
	buf    bytes.Buffer
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.buf.Write(p)
	if strings.Contains(c.buf.String(), c.prefix) {
		c.cancel()
	}
	return len(p), nil
}

// TestAtlasStopped: a run stopped during its second position writes only
// the first, exits 1, and resuming gives the uninterrupted file.
func TestAtlasStopped(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.csv")
	if code, _ := runAtlasIn(t, context.Background(), nil, "--nodes", atlasNodes, "--from", "10", "--to", "12", "--out", whole); code != exitOK {
		t.Fatalf("exit %d", code)
	}
	path := filepath.Join(dir, "stopped.csv")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &cancelAfter{prefix: "atlas: 1/3", cancel: cancel}
	if code, _ := runAtlasIn(t, ctx, stderr, "--nodes", atlasNodes, "--from", "10", "--to", "12", "--out", path); code != exitFailure {
		t.Fatalf("stopped run: exit %d", code)
	}
	if !strings.Contains(stderr.buf.String(), "stopped after 1 positions") {
		t.Errorf("stderr %q", stderr.buf.String())
	}
	if _, rows := readAtlas(t, path); len(rows) != 2 || rows[1][0] != "10" {
		t.Fatalf("stopped file rows %q", rows)
	}
	if code, _ := runAtlasIn(t, context.Background(), nil, "--nodes", atlasNodes, "--from", "10", "--to", "12", "--out", path); code != exitOK {
		t.Fatalf("resume: exit %d", code)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(path)
	if !bytes.Equal(a, b) {
		t.Fatalf("resumed file differs:\n%s\n%s", a, b)
	}
}

// TestAtlasSIGINT stops the real program with SIGINT while it runs, then
// resumes it: the file has complete rows only, and ends as an
// uninterrupted run's.
func TestAtlasSIGINT(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the program several times")
	}
	dir := t.TempDir()
	args := []string{"atlas", "--nodes", "50000", "--from", "100", "--to", "123"}
	whole := filepath.Join(dir, "whole.csv")
	if err := exec.Command(binary, append(args, "--out", whole)...).Run(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "stopped.csv")
	cmd := exec.Command(binary, append(args, "--out", path)...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if data, _ := os.ReadFile(path); strings.Count(string(data), "\n") >= 3 || time.Now().After(deadline) {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var exit *exec.ExitError
	switch {
	case err == nil:
		t.Skip("the run ended before the signal came")
	case !errors.As(err, &exit) || exit.ExitCode() != exitFailure:
		t.Fatalf("stopped run: %v, want exit status %d", err, exitFailure)
	}
	data, _ := os.ReadFile(path)
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatalf("the stopped file does not end with a whole row: %q", data)
	}
	wholeData, _ := os.ReadFile(whole)
	if !bytes.HasPrefix(wholeData, data) || len(data) == len(wholeData) {
		t.Fatalf("the stopped file is not a part of the whole run's:\n%s\n%s", data, wholeData)
	}
	if err := exec.Command(binary, append(args, "--out", path)...).Run(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); !bytes.Equal(data, wholeData) {
		t.Fatalf("resumed file differs:\n%s\n%s", data, wholeData)
	}
}

func TestAtlasStdoutAndSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "a.svg")
	var errb bytes.Buffer
	code, out := runAtlasIn(t, context.Background(), &errb, "--nodes", "1500", "--from", "500", "--to", "529", "--svg", svg)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 32 || !strings.HasPrefix(lines[0], "# kingrook atlas format=1 nodes=1500 ") || !strings.HasPrefix(lines[1], "number,fen,cp") {
		t.Fatalf("stdout %q", out)
	}
	if !strings.Contains(errb.String(), "atlas: 30 positions: White's cp mean") || !strings.Contains(errb.String(), "#518 (standard)") {
		t.Errorf("summary %q", errb.String())
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	texts := 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not well-formed XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "text" {
			texts++
		}
	}
	for _, want := range []string{"<svg", "standard chess, #518 RNBQKBNR", "The 10 most balanced", "The 10 least balanced", "30 of the 960"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	if texts < 30 {
		t.Errorf("%d text elements", texts)
	}
}

// TestAtlasGames: the games column and White's score, the same in two
// runs.
func TestAtlasGames(t *testing.T) {
	var rows []string
	for range 2 {
		code, out := runAtlasIn(t, context.Background(), nil, "--nodes", "1000", "--games", "2", "--game-nodes", "200", "--from", "518", "--to", "518")
		if code != exitOK {
			t.Fatalf("exit %d", code)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != 3 || !strings.HasSuffix(lines[1], ",games,white_score") || !strings.Contains(lines[0], "games=2 game-nodes=200 seed=1") {
			t.Fatalf("stdout %q", out)
		}
		rows = append(rows, lines[2])
	}
	f := strings.Split(rows[0], ",")
	ws, err := strconv.ParseFloat(f[len(f)-1], 64)
	if rows[0] != rows[1] || f[len(f)-2] != "2" || err != nil || ws != 0 && ws != 0.25 && ws != 0.5 && ws != 0.75 && ws != 1 {
		t.Errorf("rows %q", rows)
	}
}

// TestAtlasGameVaries: games from one start differ by seed, repeat with
// the same seed, and end with the right result.
func TestAtlasGameVaries(t *testing.T) {
	table := tt.New(4)
	pool := search.NewPool(table)
	opts := search.Options{Threads: 1, MultiPV: 1, Net: nnue.Default()}
	start := movegen.NewPosition()
	play := func(pos *movegen.Position, seed uint64) (float64, []movegen.Move) {
		r, moves, ok := playAtlasGame(context.Background(), pool, table, opts, pos, 300, rand.New(rand.NewPCG(seed, 0)))
		if !ok {
			t.Fatal("stopped")
		}
		return r, moves
	}
	r1, g1 := play(start, 1)
	r1b, g1b := play(start, 1)
	_, g2 := play(start, 2)
	if r1 != r1b || !slices.Equal(g1, g1b) {
		t.Errorf("the same seed played two games")
	}
	if slices.Equal(g1[:min(len(g1), 12)], g2[:min(len(g2), 12)]) {
		t.Errorf("seeds 1 and 2 opened alike: %v", g1[:12])
	}
	won := movegen.NewPosition()
	if err := won.SetFEN("7k/8/5K2/8/8/8/8/Q7 w - - 0 1"); err != nil {
		t.Fatal(err)
	}
	if r, moves := play(won, 1); r != 1 {
		t.Errorf("KQ against K: White scored %v after %d plies", r, len(moves))
	}
	lost := movegen.NewPosition()
	if err := lost.SetFEN("7K/8/5k2/8/8/8/8/q7 w - - 0 1"); err != nil {
		t.Fatal(err)
	}
	if r, _ := play(lost, 1); r != 0 {
		t.Errorf("K against KQ: White scored %v", r)
	}
	drawn := movegen.NewPosition()
	if err := drawn.SetFEN("7k/8/5K2/8/8/8/8/N7 w - - 0 1"); err != nil {
		t.Fatal(err)
	}
	if r, moves := play(drawn, 1); r != 0.5 || len(moves) != 0 {
		t.Errorf("KN against K: White scored %v after %d plies", r, len(moves))
	}
}

func TestCompareSettings(t *testing.T) {
	run := "# kingrook atlas format=1 nodes=5 threads=1 hash=16 net=embedded:abc games=0 game-nodes=0 seed=0 search=7 version=v2"
	for _, tc := range []struct{ file, key string }{
		{"# kingrook atlas format=1 nodes=5 threads=1 hash=16 net=embedded:abc games=0 game-nodes=0 seed=0 search=7 version=v1", ""},
		{"# kingrook atlas format=1 nodes=5 threads=1 hash=16 net=other.nnue:abc games=0 game-nodes=0 seed=0 search=7 version=v2", ""},
		{"# kingrook atlas format=1 nodes=5 threads=1 hash=16 net=embedded:abd games=0 game-nodes=0 seed=0 search=7 version=v2", "net"},
		{"# kingrook atlas format=1 nodes=5 threads=1 hash=16 net=embedded:abc games=0 game-nodes=0 seed=0 search=8 version=v2", "search"},
		{"# kingrook atlas format=2 nodes=5", "format"},
		{"number,fen", "?"},
	} {
		err := compareSettings(tc.file, run)
		var se *settingsError
		switch {
		case tc.key == "" && err != nil, tc.key != "" && !errors.As(err, &se):
			t.Errorf("%q: %v", tc.file, err)
		case tc.key == "?" && se.key != "", tc.key != "" && tc.key != "?" && se.key != tc.key:
			t.Errorf("%q: %v, want the key %s", tc.file, err, tc.key)
		}
	}
}

func TestSigned(t *testing.T) {
	for v, want := range map[float64]string{35: "+35", 0: "0", math.Copysign(0, -1): "0", -4: "-4", -0.4: "0", 2.6: "+3"} {
		if got := signed(v); got != want {
			t.Errorf("signed(%v) = %q, want %q", v, got, want)
		}
	}
}
