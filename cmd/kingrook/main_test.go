package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
)

// runIn runs the command in-process.
func runIn(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestVersion: kingrook version and --version print the version, the Go
// version and platform, the SIMD state and the embedded net.
func TestVersion(t *testing.T) {
	n := nnue.Default()
	simd := "no ("
	if n.SIMD() {
		simd = "yes (AVX2)"
	}
	want := []string{
		"Kingrook " + versionString(),
		"go    " + runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH,
		"simd  " + simd,
		"net   " + nnue.EmbeddedName() + " sha256 " + nnue.EmbeddedSHA256()[:12],
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errOut := runIn(t, "", args...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != 0 || errOut != "" || len(lines) != len(want) {
			t.Fatalf("%q: code %d, stdout %q, stderr %q", args, code, out, errOut)
		}
		for i, w := range want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("%q: line %q, want %q", args, lines[i], w)
			}
		}
		if !regexp.MustCompile(`^net   \S+\.nnue sha256 [0-9a-f]{12}$`).MatchString(lines[3]) {
			t.Errorf("%q: net line %q", args, lines[3])
		}
	}
	if !strings.HasPrefix(versionString(), engine.Version) {
		t.Fatalf("versionString %q does not begin with %s", versionString(), engine.Version)
	}
}

// TestVersionBadNet: a net that does not load (a malformed EVALFILE) makes
// kingrook version fail with the loader's message.
func TestVersionBadNet(t *testing.T) {
	var out, errOut bytes.Buffer
	bad := func() (*nnue.Net, error) { return nil, errors.New("the embedded network bad.nnue: malformed") }
	if code := runVersion(&out, &errOut, bad); code != 1 || out.Len() != 0 || errOut.String() != "kingrook: the embedded network bad.nnue: malformed\n" {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}

func TestFormatVersion(t *testing.T) {
	stamp := func(kv ...string) *debug.BuildInfo {
		info := &debug.BuildInfo{}
		for i := 0; i+1 < len(kv); i += 2 {
			info.Settings = append(info.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return info
	}
	const rev = "0123456789abcdef0123456789abcdef01234567"
	v := engine.Version
	for _, c := range []struct {
		commit string
		info   *debug.BuildInfo
		want   string
	}{
		{"", nil, v},
		{"", stamp("GOARCH", "amd64"), v},
		{"", stamp("vcs", "git", "vcs.revision", rev, "vcs.modified", "false"), v + " (0123456)"},
		{"", stamp("vcs.revision", rev, "vcs.modified", "true"), v + " (0123456-dirty)"},
		{"abc1234", stamp("vcs.revision", rev), v + " (abc1234)"}, // the Makefile's wins
		{"abc1234-dirty", nil, v + " (abc1234-dirty)"},
	} {
		if got := formatVersion(c.commit, c.info); got != c.want {
			t.Errorf("formatVersion(%q, %v) = %q, want %q", c.commit, c.info, got, c.want)
		}
	}
}

func TestSIMDText(t *testing.T) {
	for _, c := range []struct {
		inUse, built bool
		arch, want   string
	}{
		{true, true, "amd64", "yes (AVX2)"},
		{false, true, "amd64", "no (this CPU has no AVX2)"},
		{false, false, "amd64", "no (built without GOEXPERIMENT=simd)"},
		{false, false, "arm64", "no (the SIMD path exists for amd64 only)"},
	} {
		if got := simdText(c.inUse, c.built, c.arch); got != c.want {
			t.Errorf("simdText(%v, %v, %s) = %q, want %q", c.inUse, c.built, c.arch, got, c.want)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--bogus"}, {"--hash"}, {"--hash", "x"}, {"--hash", "0"}, {"--threads", "999"}, {"--log-level", "loud"},
		{"nosuchcommand"}, {"uci", "extra"}, {"version", "extra"}, {"--version", "bench"},
		{"bench", "--depth", "0"}, {"bench", "--depth", "x"}, {"bench", "--hash", "0"}, {"bench", "--threads", "0"},
		{"bench", "extra"}, {"bench", "--nope"},
		{"perft"}, {"perft", "--depth", "0"}, {"perft", "--depth", "3", "--fen", "junk"}, {"perft", "--depth", "2", "x"},
		{"frc"}, {"frc", "960"}, {"frc", "-1"}, {"frc", "x"}, {"frc", "1", "2", "3"}, {"frc", "--random", "5"},
		{"frc", "--random", "--dfrc"}, {"frc", "--nope"},
		{"probe"}, {"probe", "--syzygy", tbDir}, {"probe", "--fen", "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1"},
		{"probe", "--syzygy", tbDir, "--fen", "junk"}, {"probe", "--nope"},
		{"--log-file", "/nonexistent-dir/kingrook.log"}, {"--log-file", t.TempDir()},
	} {
		code, out, errOut := runIn(t, "", args...)
		if code != 2 {
			t.Errorf("%q: exit code %d, want 2", args, code)
		}
		if out != "" || errOut == "" {
			t.Errorf("%q: stdout %q, stderr %q: the message belongs on stderr", args, out, errOut)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"bench", "--help"}, {"perft", "--help"}, {"frc", "--help"},
		{"uci", "--help"}, {"version", "--help"}, {"version", "-h"}, {"probe", "--help"}, {"spsa", "--help"}} {
		code, out, errOut := runIn(t, "", args...)
		if code != 0 || !strings.Contains(out, "Usage") || !strings.Contains(out, "--") {
			t.Errorf("%q: code %d, output %q", args, code, out)
		}
		if strings.Count(out, "Usage") != 1 || errOut != "" {
			t.Errorf("%q: usage printed more than once: stdout %q, stderr %q", args, out, errOut)
		}
	}
}

func TestFRC(t *testing.T) {
	check := func(args []string, want string) string {
		t.Helper()
		code, out, errOut := runIn(t, "", args...)
		fen := strings.TrimSuffix(out, "\n")
		if code != 0 || errOut != "" {
			t.Fatalf("%q: code %d, stderr %q", args, code, errOut)
		}
		if want != "" && fen != want {
			t.Fatalf("%q: %q, want %q", args, fen, want)
		}
		pos := movegen.NewPosition()
		if err := pos.SetFEN(fen); err != nil {
			t.Fatalf("%q printed a bad FEN %q: %v", args, fen, err)
		}
		return fen
	}
	std, _ := movegen.Chess960FEN(518)
	check([]string{"frc", "518"}, std)
	dfrc, _ := movegen.DFRCFEN(0, 959)
	check([]string{"frc", "0", "959"}, dfrc)
	check([]string{"frc", "--random"}, "")
	fen := check([]string{"frc", "--dfrc"}, "")
	if len(strings.Fields(fen)) != 6 {
		t.Fatalf("bad FEN %q", fen)
	}
}

func TestPerft(t *testing.T) {
	const kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
	pos := movegen.NewPosition()
	if err := pos.SetFEN(kiwipete); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runIn(t, "", "perft", "--depth", "3", "--fen", kiwipete, "--divide", "--chess960")
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var l movegen.MoveList
	pos.GenerateLegal(&l)
	if len(lines) != l.N+4 {
		t.Fatalf("%d lines for %d moves:\n%s", len(lines), l.N, out)
	}
	var sum uint64
	sawCastle := false
	for _, line := range lines[:l.N] {
		mv, n, _ := strings.Cut(line, ": ")
		m, err := movegen.ParseMove(pos, mv, true)
		if err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		sawCastle = sawCastle || mv == "e1h1" || mv == "e1a1"
		c, _ := strconv.ParseUint(n, 10, 64)
		sum += c
		_ = m
	}
	if !sawCastle {
		t.Error("--chess960 should print castling as king takes rook")
	}
	want := pos.Perft(3)
	if lines[l.N+1] != "Nodes searched: "+strconv.FormatUint(want, 10) || sum != want {
		t.Fatalf("%q, sum %d, want %d", lines[l.N+1], sum, want)
	}
	if !regexp.MustCompile(`^Nodes/second: \d+$`).MatchString(lines[l.N+3]) {
		t.Fatalf("last line %q", lines[l.N+3])
	}
	// Without --divide: just the totals.
	code, out, _ = runIn(t, "", "perft", "--depth", "2")
	if code != 0 || !strings.HasPrefix(out, "Nodes searched: 400\n") {
		t.Fatalf("code %d, output %q", code, out)
	}
}

func TestBenchCommand(t *testing.T) {
	code, out, _ := runIn(t, "", "bench", "--depth", "3")
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	m := regexp.MustCompile(`^(\d+) nodes (\d+) nps$`).FindStringSubmatch(lines[len(lines)-1])
	if m == nil || m[1] == "0" {
		t.Fatalf("last line %q", lines[len(lines)-1])
	}
	// bench evaluates as the engine does by default (Use NNUE), and
	// --nnue=BOOL picks the evaluation: the two signatures differ.
	nodes := map[string]string{"": m[1]}
	for _, flag := range []string{"--nnue=true", "--nnue=false"} {
		code, o, _ := runIn(t, "", "bench", "--depth", "3", flag)
		last := strings.Split(strings.TrimSuffix(o, "\n"), "\n")
		sig := regexp.MustCompile(`^(\d+) nodes`).FindStringSubmatch(last[len(last)-1])
		if code != 0 || sig == nil {
			t.Fatalf("bench %s: code %d, output %q", flag, code, o)
		}
		nodes[flag] = sig[1]
	}
	if def := "--nnue=" + strconv.FormatBool(engine.DefaultSettings().UseNNUE); nodes[""] != nodes[def] || nodes["--nnue=true"] == nodes["--nnue=false"] {
		t.Fatalf("bench signatures: default %s, --nnue=true %s, --nnue=false %s (Use NNUE default %v)",
			nodes[""], nodes["--nnue=true"], nodes["--nnue=false"], engine.DefaultSettings().UseNNUE)
	}
	// Stockfish's positional arguments: hash, threads, depth, positions,
	// limit type.
	for _, args := range [][]string{{"16", "1", "3"}, {"16", "1", "3", "default", "depth"}} {
		code, o, _ := runIn(t, "", append([]string{"bench"}, args...)...)
		if code != 0 || !strings.HasSuffix(o, "\n"+nodes[""]+" nodes "+strings.Fields(lastLine(o))[2]+" nps\n") {
			t.Fatalf("bench %v: code %d, output %q, want %s nodes", args, code, o, nodes[""])
		}
	}
	if code, _, errOut := runIn(t, "", "bench", "--depth", "3", "16", "1", "3"); code != 2 || !strings.Contains(errOut, "given twice") {
		t.Fatalf("depth given twice: code %d, stderr %q", code, errOut)
	}
	fens := filepath.Join(t.TempDir(), "fens.epd")
	if err := os.WriteFile(fens, []byte("8/8/8/4k3/8/8/4P3/4K3 w - - 0 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A node limit is not a depth: --depth beside it is no conflict.
	if code, o, _ := runIn(t, "", "bench", "--depth", "4", "8", "1", "2000", fens, "nodes"); code != 0 || !strings.Contains(o, "Positions: 1, nodes 2000, hash 8 MiB") {
		t.Fatalf("bench from a file: code %d, output %q", code, o)
	}
	// The global --hash reaches bench.
	code, out2, _ := runIn(t, "", "--hash", "8", "bench", "--depth", "2")
	if code != 0 || !strings.Contains(out2, "hash 8 MiB") {
		t.Fatalf("code %d, output %q", code, out2)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestUCIInProcess(t *testing.T) {
	code, out, errOut := runIn(t, "uci\nisready\nposition startpos\ngo depth 2\n", "--threads", "2")
	if code != 0 || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"id name Kingrook " + versionString() + "\n", "uciok\n", "readyok\n", "bestmove "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in %q", want, out)
		}
	}
	// The bench command of the UCI loop is wired, with Stockfish's
	// arguments: "current" is the session's position; bad arguments are an
	// info string.
	code, out, _ = runIn(t, "bench 16 1 2\nposition startpos moves e2e4\nbench 16 1 3 current\nbench 16 1 3 nofile.epd\n")
	if code != 0 || !regexp.MustCompile(`\n\d+ nodes \d+ nps\n(.|\n)*\n\d+ nodes \d+ nps\ninfo string bench: open nofile.epd: `).MatchString(out) ||
		!strings.Contains(out, "Positions: 1, depth 3,") || !strings.Contains(out, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") {
		t.Fatalf("code %d, output %q", code, out)
	}
}

func TestFlagsPresetOptions(t *testing.T) {
	logPath := filepath.Join(t.TempDir(), "io.log")
	g := globals{hash: 32, threads: 3, logFile: logPath, set: map[string]bool{"hash": true, "threads": true, "log-file": true}}
	eng, err := newEngine(g, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	s := eng.Settings()
	if s.Hash != 32 || s.Threads != 3 || s.DebugLogFile != logPath {
		t.Fatalf("settings %+v", s)
	}
	// Flags not given leave the defaults.
	eng, err = newEngine(globals{hash: 99, set: map[string]bool{}}, zerolog.Nop())
	if err != nil || eng.Settings() != engine.DefaultSettings() {
		t.Fatalf("%v %+v", err, eng.Settings())
	}
	// --log-file records the session.
	code, _, _ := runIn(t, "isready\n", "--log-file", logPath)
	data, err := os.ReadFile(logPath)
	if code != 0 || err != nil || !strings.Contains(string(data), `"in":"isready"`) || !strings.Contains(string(data), `"out":"readyok"`) {
		t.Fatalf("code %d, err %v, log %q", code, err, data)
	}
}

// TestStdoutOnlyProtocol: in UCI mode, even with diagnostics at debug
// level, stdout holds protocol lines only.
func TestStdoutOnlyProtocol(t *testing.T) {
	in := "uci\nisready\nsetoption name Nope value 1\nposition startpos moves e2e4\ngo depth 3\nisready\n"
	code, out, _ := runIn(t, in, "--log-level", "debug")
	if code != 0 {
		t.Fatalf("code %d", code)
	}
	prefix := regexp.MustCompile(`^(id (name|author) |option name |uciok$|readyok$|info |bestmove )`)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !prefix.MatchString(l) || strings.Contains(l, "  ") || strings.HasSuffix(l, " ") {
			t.Errorf("not a protocol line: %q", l)
		}
	}
	if strings.Contains(out, "\r") {
		t.Error("carriage return in output")
	}
}

// tbDir holds the syzygy package's test tables (its README says where they
// come from).
const tbDir = "../../eval/syzygy/testdata"

// guard bounds how long a test waits for the engine process before
// failing instead of hanging; it is not a speed requirement.
const guard = 60 * time.Second

// TestProbe checks the probe command against Fathom's answer for the same
// position (fathom --path=... "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1": Win, DTZ
// 13, winning move Kf2, drawing moves Kd1, Kf1, e3, e4).
func TestProbe(t *testing.T) {
	const dir = tbDir
	code, out, errOut := runIn(t, "", "probe", "--syzygy", dir, "--fen", "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1")
	want := "wdl Win dtz 13\ne1d1 wdl Draw dtz 0\ne1f1 wdl Draw dtz 0\ne1f2 wdl Win dtz 13\n" +
		"e2e3 wdl Draw dtz 0\ne2e4 wdl Draw dtz 0\n"
	if code != 0 || out != want || errOut != "" {
		t.Errorf("code %d, stdout %q, stderr %q; want stdout %q", code, out, errOut, want)
	}
	// Black to move draws by taking the pawn or standing in front of it.
	code, out, _ = runIn(t, "", "probe", "--syzygy", dir, "--fen", "8/8/8/8/8/2k5/4P3/4K3 b - - 0 1")
	if code != 0 || !strings.HasPrefix(out, "wdl Draw dtz 0\n") || !strings.Contains(out, "c3d4 wdl Draw dtz 0\n") ||
		!strings.Contains(out, "c3b2 wdl Loss dtz") {
		t.Errorf("black to move: code %d, stdout %q", code, out)
	}
	// No table covers five pieces, nor a directory without tables.
	for _, args := range [][]string{
		{"probe", "--syzygy", dir, "--fen", "8/8/8/8/8/2k5/4P3/R3K1N1 w - - 0 1"},
		{"probe", "--syzygy", t.TempDir(), "--fen", "8/8/8/8/8/2k5/4P3/4K3 w - - 0 1"},
	} {
		code, out, errOut := runIn(t, "", args...)
		if code != 1 || out != "" || errOut == "" {
			t.Errorf("%q: code %d, stdout %q, stderr %q; want exit 1 and a message", args, code, out, errOut)
		}
	}
}

// TestUCICommandArguments: arguments that are not subcommands run as UCI
// commands in order, each search finishing before the next command.
func TestUCICommandArguments(t *testing.T) {
	code, out, errOut := runIn(t, "", "genfens 4 seed 9 book None", "quit")
	if code != 0 || strings.Count(out, "info string genfens ") != 4 || strings.Count(out, "\n") != 4 {
		t.Fatalf("genfens: code %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runIn(t, "", "position startpos moves e2e4", "go depth 5", "d", "quit")
	i, j := strings.Index(out, "bestmove "), strings.Index(out, "Fen: ")
	if code != 0 || !strings.Contains(out, "info depth 5 ") || i < 0 || j < i {
		t.Fatalf("search: code %d, stdout %q", code, out)
	}
	if !strings.Contains(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") {
		t.Errorf("position not set: %q", out)
	}
	// Without quit the commands end with the arguments; stdin is not read.
	code, out, _ = runIn(t, "isready\n", "genfens 1 seed 1 book None dfrc x")
	if code != 0 || !strings.HasPrefix(out, "info string genfens: ") || strings.Contains(out, "readyok") {
		t.Errorf("bad genfens: code %d, stdout %q", code, out)
	}
}

// TestJoinCommands: an argument that begins with a UCI command word starts
// a command; any other argument continues the one before.
func TestJoinCommands(t *testing.T) {
	for _, c := range []struct {
		args, want []string
	}{
		{[]string{"position startpos", "go depth 12", "quit"}, []string{"position startpos", "go depth 12", "quit"}},
		{[]string{"go", "depth", "10"}, []string{"go depth 10"}},
		{[]string{"position", "startpos", "moves", "e2e4", "go", "depth", "10"}, []string{"position startpos moves e2e4", "go depth 10"}},
		{[]string{"position", "fen", "7k/8/6K1/8/8/8/8/R7", "w", "-", "-", "0", "1", "d", "quit"},
			[]string{"position fen 7k/8/6K1/8/8/8/8/R7 w - - 0 1", "d", "quit"}},
		{[]string{"position startpos", "moves e2e4 e7e5", "GO", "depth 3"}, []string{"position startpos moves e2e4 e7e5", "GO depth 3"}},
		{[]string{"genfens", "10", "seed", "1", "book", "None", "quit"}, []string{"genfens 10 seed 1 book None", "quit"}},
		{[]string{"setoption name Hash value 32", "isready", " ", "setoption", "name", "Threads", "value", "2"},
			[]string{"setoption name Hash value 32", "isready", "setoption name Threads value 2"}},
	} {
		if got := joinCommands(c.args); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("joinCommands(%q) = %q, want %q", c.args, got, c.want)
		}
	}
}

// TestUCICommandWords: UCI commands given one word an argument run as the
// commands they spell.
func TestUCICommandWords(t *testing.T) {
	code, out, errOut := runIn(t, "", "position", "startpos", "moves", "e2e4", "go", "depth", "3", "d")
	i, j := strings.Index(out, "bestmove "), strings.Index(out, "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
	if code != 0 || errOut != "" || !strings.Contains(out, "info depth 3 ") || i < 0 || j < i || strings.Contains(out, "info string") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runIn(t, "", "genfens", "3", "seed", "5", "book", "None")
	if code != 0 || strings.Count(out, "info string genfens ") != 3 || strings.Count(out, "\n") != 3 {
		t.Fatalf("genfens: code %d, stdout %q", code, out)
	}
}

// TestBenchCPUProfile: bench --cpuprofile writes a pprof profile (gzip-
// compressed protocol buffers), the input of `make pgo`, and an unwritable
// path is a usage error.
func TestBenchCPUProfile(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.pgo")
	if code, _, errOut := runIn(t, "", "bench", "--depth", "3", "--cpuprofile", prof); code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Fatalf("%s: %d bytes, not a gzip-compressed profile", prof, len(data))
	}
	bad := filepath.Join(t.TempDir(), "no-such-dir", "cpu.pgo")
	if code, _, errOut := runIn(t, "", "bench", "--depth", "1", "--cpuprofile", bad); code != 2 || !strings.Contains(errOut, "--cpuprofile") {
		t.Fatalf("unwritable profile: code %d, stderr %q", code, errOut)
	}
}
