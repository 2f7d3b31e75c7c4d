package movegen

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The differential test against Stockfish: random playouts from many start
// positions, then perft divides compared move by move with Stockfish's
// `go perft`. Set KINGROOK_SF_GAMES to play more games than the default.
const (
	sfDefaultGames = 800 // playouts in a normal run (about 15 s, 15000 positions)
	sfShortGames   = 20  // playouts under -short
	sfMaxPlies     = 120 // length of each random playout
	sfSampleEvery  = 6   // plies between compared positions
	sfTimeout      = 60 * time.Second
)

// stockfish is a long-lived Stockfish process spoken to over UCI.
type stockfish struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	mode  int // -1 unknown, 0 standard, 1 Chess960
}

func stockfishPath() string {
	if p, err := exec.LookPath("stockfish"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/games/stockfish"); err == nil {
		return "/usr/games/stockfish"
	}
	return ""
}

func startStockfish(t *testing.T) *stockfish {
	t.Helper()
	path := stockfishPath()
	if path == "" {
		t.Skip("stockfish not found in PATH or /usr/games/stockfish: install it (apt-get install -y stockfish) to run the differential test")
	}
	cmd := exec.Command(path)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sf := &stockfish{cmd: cmd, in: in, lines: make(chan string, 1024), mode: -1}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			sf.lines <- sc.Text()
		}
		close(sf.lines)
	}()
	t.Cleanup(func() {
		fmt.Fprintln(sf.in, "quit")
		sf.in.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
		}
	})
	sf.send(t, "uci")
	sf.waitFor(t, "uciok")
	return sf
}

func (sf *stockfish) send(t *testing.T, s string) {
	t.Helper()
	if _, err := fmt.Fprintln(sf.in, s); err != nil {
		t.Fatalf("writing to stockfish: %v", err)
	}
}

// waitFor reads lines until one starts with prefix and returns it.
func (sf *stockfish) waitFor(t *testing.T, prefix string) string {
	t.Helper()
	deadline := time.After(sfTimeout)
	for {
		select {
		case line, ok := <-sf.lines:
			if !ok {
				t.Fatalf("stockfish exited while waiting for %q", prefix)
			}
			if strings.HasPrefix(line, prefix) {
				return line
			}
		case <-deadline:
			t.Fatalf("stockfish: no %q within %v", prefix, sfTimeout)
		}
	}
}

// divide runs `go perft depth` on fen and returns the count per move text
// and the total.
func (sf *stockfish) divide(t *testing.T, fen string, depth int, chess960 bool) (map[string]uint64, uint64) {
	t.Helper()
	if mode := map[bool]int{false: 0, true: 1}[chess960]; mode != sf.mode {
		sf.send(t, fmt.Sprintf("setoption name UCI_Chess960 value %v", chess960))
		sf.mode = mode
	}
	sf.send(t, "position fen "+fen)
	sf.send(t, fmt.Sprintf("go perft %d", depth))
	moves := map[string]uint64{}
	deadline := time.After(sfTimeout)
	for {
		select {
		case line, ok := <-sf.lines:
			if !ok {
				t.Fatalf("stockfish exited during perft of %q", fen)
			}
			if rest, found := strings.CutPrefix(line, "Nodes searched: "); found {
				n, err := strconv.ParseUint(strings.TrimSpace(rest), 10, 64)
				if err != nil {
					t.Fatalf("stockfish: bad line %q", line)
				}
				return moves, n
			}
			text, count, found := strings.Cut(line, ": ")
			if !found {
				continue
			}
			n, err := strconv.ParseUint(strings.TrimSpace(count), 10, 64)
			if err != nil {
				continue
			}
			moves[text] = n
		case <-deadline:
			t.Fatalf("stockfish: no perft result for %q within %v", fen, sfTimeout)
		}
	}
}

// ourDivide is Divide keyed by the move's UCI text.
func ourDivide(p *Position, depth int, chess960 bool) (map[string]uint64, uint64) {
	moves := map[string]uint64{}
	var total uint64
	for _, e := range p.Divide(depth, nil) {
		moves[e.Move.UCI(chess960)] = e.Nodes
		total += e.Nodes
	}
	return moves, total
}

// compareWithStockfish compares one position at depth; on a difference it
// walks down the first differing move to the shallowest disagreement and
// reports that position.
func compareWithStockfish(t *testing.T, sf *stockfish, p *Position, depth int, chess960 bool, origin string) bool {
	t.Helper()
	fen := p.FEN(chess960)
	want, wantTotal := sf.divide(t, fen, depth, chess960)
	got, gotTotal := ourDivide(p, depth, chess960)
	if gotTotal == wantTotal && len(got) == len(want) {
		same := true
		for m, n := range want {
			if got[m] != n {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	var missing, extra, differ []string
	for m := range want {
		if _, ok := got[m]; !ok {
			missing = append(missing, m)
		}
	}
	for m := range got {
		if _, ok := want[m]; !ok {
			extra = append(extra, m)
		} else if got[m] != want[m] {
			differ = append(differ, m)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	slices.Sort(differ)
	if len(missing) > 0 || len(extra) > 0 || depth == 1 || len(differ) == 0 {
		t.Errorf("%s: position %q (960=%v) perft %d: ours %d, stockfish %d; moves we lack %v, moves we add %v, counts differ %v",
			origin, fen, chess960, depth, gotTotal, wantTotal, missing, extra, differ)
		return false
	}
	for _, m := range p.LegalMoves() {
		if m.UCI(chess960) == differ[0] {
			p.Make(m)
			compareWithStockfish(t, sf, p, depth-1, chess960, origin+" "+differ[0])
			p.Unmake()
			break
		}
	}
	return false
}

// playoutMove picks a random legal move, preferring special moves (castling,
// en passant, promotions, double steps) so that they are compared often.
func playoutMove(rng *rand.Rand, moves []Move, p *Position) Move {
	var special []Move
	for _, m := range moves {
		if m.Kind() != Normal || (p.PieceOn(m.From()).Type() == Pawn && (m.To()-m.From() == 16 || m.From()-m.To() == 16)) {
			special = append(special, m)
		}
	}
	if len(special) > 0 && rng.IntN(3) == 0 {
		return special[rng.IntN(len(special))]
	}
	return moves[rng.IntN(len(moves))]
}

func TestStockfishDifferential(t *testing.T) {
	sf := startStockfish(t)
	games := sfDefaultGames
	if testing.Short() {
		games = sfShortGames
	}
	if s := os.Getenv("KINGROOK_SF_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("KINGROOK_SF_GAMES=%q: want a positive number", s)
		}
		games = n
	}
	twoMoves := readLines(t, "testdata/books/2moves_v1-sample.epd")
	dfrcBook := readLines(t, "testdata/books/DFRC_4852_v1-sample.epd")
	rng := rand.New(rand.NewPCG(20260501, 7))
	compared, failures := 0, 0
	for g := 0; g < games && failures < 5; g++ {
		var fen, origin string
		chess960 := true
		switch g % 6 {
		case 0, 1:
			n := rng.IntN(960)
			fen, _ = Chess960FEN(n)
			origin = fmt.Sprintf("game %d from Chess960 #%d", g, n)
		case 2:
			w, b := rng.IntN(960), rng.IntN(960)
			fen, _ = DFRCFEN(w, b)
			origin = fmt.Sprintf("game %d from DFRC %d/%d", g, w, b)
		case 3:
			fen, origin = StartFEN, fmt.Sprintf("game %d from the start position", g)
			chess960 = g%12 == 3
		case 4:
			i := rng.IntN(len(twoMoves))
			fen, origin = twoMoves[i], fmt.Sprintf("game %d from 2moves_v1 sample line %d", g, i+1)
			chess960 = g%12 == 4
		default:
			i := rng.IntN(len(dfrcBook))
			fen, origin = dfrcBook[i], fmt.Sprintf("game %d from DFRC_4852_v1 sample line %d", g, i+1)
		}
		p := mustPos(t, fen)
		var played []string
		for ply := 0; ply < sfMaxPlies; ply++ {
			moves := p.LegalMoves()
			if len(moves) == 0 {
				break
			}
			if ply%sfSampleEvery == 0 {
				depth := 2 + rng.IntN(2)
				where := origin
				if len(played) > 0 {
					where += " after " + strings.Join(played, " ")
				}
				compared++
				if !compareWithStockfish(t, sf, p, depth, chess960, where) {
					failures++
					break
				}
			}
			m := playoutMove(rng, moves, p)
			played = append(played, m.UCI(chess960))
			p.Make(m)
			if p.IsDrawByRule() && p.RepetitionCount() >= 2 {
				break
			}
		}
	}
	t.Logf("%d games, %d positions compared with %s", games, compared, stockfishPath())
}
