// Command kingrook is a UCI chess engine for standard chess, Chess960 and
// Double Fischer Random.
//
// Usage:
//
//	kingrook [global flags]                 UCI on stdin/stdout (the default)
//	kingrook bench [--depth N] [--hash MB] [--threads N] [--nnue=BOOL] [--evalfile FILE] [--cpuprofile FILE]
//	kingrook bench [hash [threads [limit [default|FILE [depth|nodes|movetime]]]]]  (Stockfish's order)
//	kingrook perft --depth N [--fen FEN] [--chess960] [--divide]
//	kingrook frc N | frc --random | frc W B | frc --dfrc
//	kingrook probe --syzygy PATH --fen FEN
//	kingrook atlas [--nodes N] [--threads T] [--hash MB] [--out FILE.csv] [--svg FILE.svg] [--games K]
//	kingrook spsa [PREFIX...]                  (a build with -tags tune)
//	kingrook version | kingrook --version
//	kingrook "UCI command" ...                 UCI commands, run in order, then exit
//
// Arguments that are not a subcommand and begin with a UCI command word are
// UCI commands, run in order as if typed, then kingrook exits; each go with
// a limit finishes before the next command. An argument that begins with a
// command word starts a command, any other continues the one before, so
// `kingrook go depth 10` is one command and `kingrook "go depth 10"` the
// same. OpenBench runs `kingrook "genfens N seed S book None" quit` this way.
//
// Global flags (--hash, --threads, --log-file, --log-level) come before the
// subcommand; --hash, --threads and --log-file preset the UCI options.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/rs/zerolog"
	"github.com/spf13/pflag"

	"github.com/kingrook/kingrook/bench"
	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/eval/nnue"
	"github.com/kingrook/kingrook/movegen"
	"github.com/kingrook/kingrook/uci"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// globals are the flags before the subcommand.
type globals struct {
	hash     int
	threads  int
	logFile  string
	logLevel string
	version  bool
	set      map[string]bool // flags given on the command line
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := pflag.NewFlagSet("kingrook", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SetInterspersed(false)
	var g globals
	defaults := engine.DefaultSettings()
	fs.IntVar(&g.hash, "hash", defaults.Hash, "transposition table size in MiB (UCI option Hash)")
	fs.IntVar(&g.threads, "threads", defaults.Threads, "search threads (UCI option Threads)")
	fs.StringVar(&g.logFile, "log-file", "", "record every UCI line in and out in this file (UCI option Debug Log File)")
	fs.StringVar(&g.logLevel, "log-level", "warn", "diagnostics on stderr: debug, info, warn, error or disabled")
	fs.BoolVar(&g.version, "version", false, "print the version, as kingrook version does, and exit")
	fs.Usage = func() { usage(fs.Output(), fs) }
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	g.set = map[string]bool{}
	fs.Visit(func(f *pflag.Flag) { g.set[f.Name] = true })
	if g.version {
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "kingrook: --version takes no command, got %q\n", fs.Args())
			return exitUsage
		}
		return runVersion(stdout, stderr, nnue.LoadEmbedded)
	}

	level, err := zerolog.ParseLevel(g.logLevel)
	if err != nil || g.logLevel == "" {
		fmt.Fprintf(stderr, "kingrook: bad --log-level %q: want debug, info, warn, error or disabled\n", g.logLevel)
		return exitUsage
	}
	log := zerolog.New(zerolog.ConsoleWriter{Out: stderr, NoColor: true}).Level(level).With().Timestamp().Logger()

	rest := fs.Args()
	if len(rest) == 0 {
		return runUCI(g, stdin, stdout, stderr, log)
	}
	sub, subArgs := rest[0], rest[1:]
	switch sub {
	case "uci":
		if code, done := noArgs("uci", "Speaks UCI on stdin/stdout, as kingrook with no command does. Global flags\ngo before it: kingrook --hash 64 uci", subArgs, stdout, stderr); done {
			return code
		}
		return runUCI(g, stdin, stdout, stderr, log)
	case "bench":
		return runBench(g, subArgs, stdout, stderr)
	case "perft":
		return runPerft(subArgs, stdout, stderr)
	case "frc":
		return runFRC(subArgs, stdout, stderr)
	case "probe":
		return runProbe(subArgs, stdout, stderr)
	case "atlas":
		return runAtlas(g, subArgs, stdout, stderr)
	case "spsa":
		return runSPSA(subArgs, stdout, stderr)
	case "version":
		if code, done := noArgs("version", "Prints the version, the Go version and platform, whether the network\nruns on the SIMD path, and the embedded network's name and SHA-256", subArgs, stdout, stderr); done {
			return code
		}
		return runVersion(stdout, stderr, nnue.LoadEmbedded)
	case "help":
		usage(stdout, fs)
		return exitOK
	default:
		if words := strings.Fields(sub); len(words) > 0 && uci.IsCommand(words[0]) {
			return runCommands(g, rest, stdout, stderr, log)
		}
		fmt.Fprintf(stderr, "kingrook: unknown command %q (try kingrook --help)\n", sub)
		return exitUsage
	}
}

func usage(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprintf(w, `Kingrook %s: a UCI chess engine for standard chess, Chess960 and Double Fischer Random.

Usage:
  kingrook [global flags]            speak UCI on stdin/stdout (the default)
  kingrook [global flags] uci        the same
  kingrook bench [flags]             run the fixed benchmark; last line "<N> nodes <M> nps"
  kingrook bench 16 1 13             the same with Stockfish's arguments (hash threads depth)
  kingrook perft --depth N [flags]   count the leaf nodes of the move tree
  kingrook frc N                     print Chess960 start position N (0..959) as Shredder-FEN
  kingrook frc --random              a random Chess960 start position
  kingrook frc W B                   Double Fischer Random: White's position W, Black's B
  kingrook frc --dfrc                a random Double Fischer Random position
  kingrook probe --syzygy PATH --fen FEN
                                     Syzygy tablebase value (WDL, DTZ) of a position and its moves
  kingrook atlas [flags]             search all 960 Chess960 start positions: a CSV (and SVG) of White's score
  kingrook spsa [PREFIX...]          the tunable search parameters as OpenBench SPSA input
                                     (a tuning build: make TAGS=tune)
  kingrook version                   print the version, Go version, SIMD use and embedded net
  kingrook "CMD" ["CMD"...]          run UCI commands in order, then exit, e.g.
                                     kingrook "position startpos" "go depth 5" quit
                                     kingrook position startpos go depth 5
                                     kingrook "genfens 10 seed 1 book None" quit

Each command takes --help.

Global flags:
`, versionString())
	fmt.Fprint(w, fs.FlagUsages())
}

// runCommands runs UCI commands given as arguments (see joinCommands) in
// order; each go with a limit finishes before the next command.
func runCommands(g globals, args []string, stdout, stderr io.Writer, log zerolog.Logger) int {
	in := strings.NewReader(strings.Join(joinCommands(args), "\n") + "\n")
	return runProtocol(g, in, stdout, stderr, log, true)
}

// joinCommands groups command-line arguments into UCI commands: an
// argument whose first word names a UCI command starts a command, and any
// other argument continues the one before it. Both
// `kingrook "position startpos" "go depth 12" quit` (one command an
// argument, as OpenBench runs it) and `kingrook position startpos go depth
// 12 quit` (one word an argument) run the same three commands. A word of a
// command that is itself a command word (a setoption value "stop") must
// stand in the same quoted argument as its command.
func joinCommands(args []string) []string {
	var cmds []string
	for _, a := range args {
		words := strings.Fields(a)
		if len(words) == 0 {
			continue
		}
		if len(cmds) == 0 || uci.IsCommand(words[0]) {
			cmds = append(cmds, strings.Join(words, " "))
		} else {
			cmds[len(cmds)-1] += " " + strings.Join(words, " ")
		}
	}
	return cmds
}

// runUCI runs the protocol loop.
func runUCI(g globals, stdin io.Reader, stdout, stderr io.Writer, log zerolog.Logger) int {
	return runProtocol(g, stdin, stdout, stderr, log, false)
}

// runProtocol runs the protocol loop on the commands of stdin.
func runProtocol(g globals, stdin io.Reader, stdout, stderr io.Writer, log zerolog.Logger, waitForSearch bool) int {
	eng, err := newEngine(g, log)
	if err != nil {
		fmt.Fprintf(stderr, "kingrook: %v\n", err)
		return exitUsage
	}
	cfg := uci.Config{
		Version: versionString(),
		Log:     log,
		Bench: func(out io.Writer, args []string) error {
			cfg, err := bench.ParseArgs(args, eng.Position().FEN(false))
			if err != nil {
				return err
			}
			cfg.Verbose = true
			if eng.Settings().UseNNUE {
				cfg.Net = eng.Net()
			}
			bench.Run(cfg, out)
			return nil
		},
		WaitForSearch: waitForSearch,
	}
	if err := uci.Run(context.Background(), stdin, stdout, eng, cfg); err != nil {
		log.Error().Err(err).Msg("uci")
		return exitFailure
	}
	return exitOK
}

// newEngine returns an engine with the options the global flags preset.
func newEngine(g globals, log zerolog.Logger) (*engine.Engine, error) {
	// The binary owns its process: it raises GOMAXPROCS for the search
	// threads (Config.RaiseProcs), as a library must not.
	eng, err := engine.New(&engine.Config{Log: log, RaiseProcs: true})
	if err != nil {
		return nil, err
	}
	presets := []struct{ flag, option, value string }{
		{"hash", "Hash", fmt.Sprint(g.hash)},
		{"threads", "Threads", fmt.Sprint(g.threads)},
		{"log-file", "Debug Log File", g.logFile},
	}
	for _, p := range presets {
		if !g.set[p.flag] {
			continue
		}
		if err := eng.SetOption(p.option, p.value); err != nil {
			return nil, fmt.Errorf("--%s: %w", p.flag, err)
		}
	}
	if g.logFile != "" {
		// The protocol loop opens it again; a path that cannot be written is
		// a usage error here rather than a silent loss of the log.
		f, err := os.OpenFile(g.logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("--log-file: %w", err)
		}
		f.Close()
	}
	return eng, nil
}

// noArgs parses the arguments of a subcommand that takes none but --help;
// done reports that run should return code (help was printed, or there were
// arguments).
func noArgs(name, what string, args []string, stdout, stderr io.Writer) (code int, done bool) {
	fs := pflag.NewFlagSet("kingrook "+name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintf(fs.Output(), "Usage: kingrook %s\n\n%s.\nNo flags but --help.\n", name, what) }
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code, true
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "kingrook %s: unexpected arguments %q\n", name, fs.Args())
		return exitUsage, true
	}
	return exitOK, false
}

// runBench runs the benchmark. Besides its flags it takes Stockfish's
// positional arguments: kingrook bench 16 1 13 default depth.
func runBench(g globals, args []string, stdout, stderr io.Writer) int {
	fs := subFlags("bench", "[--depth N] [--hash MB] [--threads N] [--nnue=BOOL] [--evalfile FILE] [--cpuprofile FILE]\n"+
		"       kingrook bench "+bench.ArgsUsage+"  (Stockfish's order)", stderr)
	depth := fs.Int("depth", bench.DefaultDepth, "search depth per position")
	hash := fs.Int("hash", bench.DefaultHash, "transposition table size in MiB")
	threads := fs.Int("threads", bench.DefaultThreads, "search threads (more than one makes the node count vary)")
	useNet := fs.Bool("nnue", engine.DefaultSettings().UseNNUE, "evaluate with the network (the UCI option Use NNUE)")
	evalFile := fs.String("evalfile", "", "network file to evaluate with (implies --nnue; default: the embedded net)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (pprof format; make pgo makes cmd/kingrook/default.pgo with it)")
	if code, done := parseFlags(fs, args, stdout, stderr); done {
		return code
	}
	if !fs.Changed("hash") && g.set["hash"] {
		*hash = g.hash
	}
	if !fs.Changed("threads") && g.set["threads"] {
		*threads = g.threads
	}
	if *depth < 1 || *depth > eval.MaxPly {
		fmt.Fprintf(stderr, "kingrook bench: --depth %d out of range 1..%d\n", *depth, eval.MaxPly)
		return exitUsage
	}
	for _, f := range []struct {
		flag, option string
		value        int
	}{{"hash", "Hash", *hash}, {"threads", "Threads", *threads}} {
		if err := engine.ValidateOption(f.option, strconv.Itoa(f.value)); err != nil {
			fmt.Fprintf(stderr, "kingrook bench: --%s: %v\n", f.flag, err)
			return exitUsage
		}
	}
	cfg, err := bench.ParseArgs(fs.Args(), movegen.StartFEN) // "current" is the start position, as in Stockfish
	if err != nil {
		fmt.Fprintf(stderr, "kingrook bench: %v\n", err)
		return exitUsage
	}
	// A value given both ways is an error; otherwise a positional value wins
	// over a default or a global flag.
	for i, c := range []struct {
		name  string
		given bool
	}{{"hash", cfg.Hash != 0}, {"threads", cfg.Threads != 0}, {"depth", cfg.Depth != 0}} {
		if c.given && fs.Changed(c.name) {
			fmt.Fprintf(stderr, "kingrook bench: the %s is given twice (--%s and the argument %q)\n", c.name, c.name, fs.Arg(i))
			return exitUsage
		}
	}
	if cfg.Hash == 0 {
		cfg.Hash = *hash
	}
	if cfg.Threads == 0 {
		cfg.Threads = *threads
	}
	if cfg.Depth == 0 {
		cfg.Depth = *depth
	}
	cfg.Verbose = true
	switch {
	case *evalFile != "":
		n, err := nnue.LoadFile(*evalFile)
		if err != nil {
			fmt.Fprintf(stderr, "kingrook bench: --evalfile: %v\n", err)
			return exitUsage
		}
		cfg.Net = n
	case *useNet:
		cfg.Net = nnue.Default()
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintf(stderr, "kingrook bench: --cpuprofile: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(stderr, "kingrook bench: --cpuprofile: %v\n", err)
			return exitFailure
		}
		defer pprof.StopCPUProfile()
	}
	res := bench.Run(cfg, stdout)
	if res.Errors > 0 {
		return exitFailure
	}
	return exitOK
}
