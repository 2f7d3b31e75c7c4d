package selfplay

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/eval"
	"github.com/kingrook/kingrook/movegen"
)

// counts tallies the special moves of generated games, so that the round
// trip test can tell that it covered them.
type counts struct{ castling, ep, promotions, captures int }

// randomGame plays a random game from a start of kind v, preferring
// castling, en passant and promotions when they are legal, with random
// scores (mates and missing scores included).
func randomGame(rng *rand.Rand, v movegen.Variant, c *counts) *Game {
	start := movegen.NewPosition()
	if err := movegen.RandomPlies(start, movegen.RandomStartFEN(v, rng), rng.IntN(4), rng); err != nil {
		panic(err)
	}
	if err := start.SetFEN(start.FEN(true)); err != nil { // a start without history
		panic(err)
	}
	g := &Game{Start: start, Result: byte(rng.IntN(3))}
	pos := start.Clone()
	var l movegen.MoveList
	for range 100 + rng.IntN(200) {
		l.Clear()
		pos.GenerateLegal(&l)
		if l.N == 0 || pos.IsDrawByRule() {
			break
		}
		m := l.At(rng.IntN(l.N))
		for i := 0; i < l.N; i++ {
			if k := l.At(i).Kind(); k != movegen.Normal && rng.IntN(2) == 0 {
				m = l.At(i)
			}
		}
		switch {
		case m.IsCastling():
			c.castling++
		case m.Kind() == movegen.EnPassant:
			c.ep++
		case m.IsPromotion():
			c.promotions++
		case pos.PieceOn(m.To()) != movegen.NoPiece:
			c.captures++
		}
		score := int16(rng.IntN(4001) - 2000)
		switch rng.IntN(20) {
		case 0:
			score = NoScore
		case 1:
			score = eval.Mate - int16(rng.IntN(40))
		case 2:
			score = -eval.Mate + int16(rng.IntN(40))
		}
		g.Plies = append(g.Plies, Ply{Move: m, Score: score})
		pos.Make(m)
	}
	return g
}

func randomGames(t *testing.T, n int, seed uint64) ([]*Game, counts) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var c counts
	games := make([]*Game, n)
	for i := range games {
		games[i] = randomGame(rng, movegen.Variant(i%3), &c)
	}
	return games, c
}

func encode(t *testing.T, games []*Game) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if err := w.Write(g); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func readAll(t *testing.T, r *Reader) []*Game {
	t.Helper()
	var out []*Game
	for {
		var g Game
		err := r.ReadGame(&g)
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &g)
	}
}

func sameGame(t *testing.T, i int, got, want *Game) {
	t.Helper()
	if got.Start.FEN(true) != want.Start.FEN(true) {
		t.Fatalf("game %d: start %q, want %q", i, got.Start.FEN(true), want.Start.FEN(true))
	}
	if got.Result != want.Result || len(got.Plies) != len(want.Plies) {
		t.Fatalf("game %d: result %d plies %d, want %d and %d", i, got.Result, len(got.Plies), want.Result, len(want.Plies))
	}
	for j := range got.Plies {
		if got.Plies[j] != want.Plies[j] {
			t.Fatalf("game %d ply %d: %+v, want %+v", i, j, got.Plies[j], want.Plies[j])
		}
	}
}

func TestRoundTrip(t *testing.T) {
	games, c := randomGames(t, 60, 1)
	if c.castling == 0 || c.ep == 0 || c.promotions == 0 || c.captures == 0 {
		t.Fatalf("the random games miss a kind of move: %+v", c)
	}
	data := encode(t, games)
	plies := 0
	for _, g := range games {
		plies += len(g.Plies)
	}
	perPosition := float64(len(data)) / float64(plies)
	t.Logf("%d games, %d plies, %d bytes: %.2f bytes a position (%+v)", len(games), plies, len(data), perPosition, c)
	if perPosition > 6 {
		t.Errorf("%.2f bytes a position, want at most 6", perPosition)
	}
	r := NewReader(bytes.NewReader(data))
	got := readAll(t, r)
	if len(got) != len(games) {
		t.Fatalf("read %d games, wrote %d", len(got), len(games))
	}
	for i := range got {
		sameGame(t, i, got[i], games[i])
	}
	if r.Truncated() != 0 || r.Offset() != int64(len(data)) {
		t.Errorf("truncated %d, offset %d of %d", r.Truncated(), r.Offset(), len(data))
	}
}

// TestPositions replays the games beside the reader: every position with
// a score comes out once, with its score and result.
func TestPositions(t *testing.T) {
	games, _ := randomGames(t, 12, 2)
	data := encode(t, games)
	var want []string
	for _, g := range games {
		pos := g.Start.Clone()
		for _, p := range g.Plies {
			if p.Score != NoScore {
				want = append(want, pos.FEN(true)+" | "+strconv.Itoa(int(p.Score))+" | "+
					strconv.FormatFloat(ResultValue(g.Result), 'f', 1, 64))
			}
			pos.Make(p.Move)
		}
	}
	var got []string
	for s, err := range NewReader(bytes.NewReader(data)).Positions(Filter{}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s.Text())
	}
	if len(got) != len(want) {
		t.Fatalf("%d positions, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("position %d: %q, want %q", i, got[i], want[i])
		}
	}
}

func TestTrainingFilter(t *testing.T) {
	games, _ := randomGames(t, 12, 3)
	data := encode(t, games)
	n := 0
	for s, err := range NewReader(bytes.NewReader(data)).Positions(TrainingFilter) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		switch {
		case s.Ply < 12:
			t.Errorf("ply %d kept", s.Ply)
		case s.Pos.InCheck():
			t.Errorf("position in check kept: %s", s.FEN())
		case !IsQuiet(s.Pos, s.Move):
			t.Errorf("noisy move %s kept in %s", s.Move.UCI(true), s.FEN())
		case s.Score >= 2000 || s.Score <= -2000 || IsMate(s.Score):
			t.Errorf("score %d kept", s.Score)
		}
	}
	if n == 0 {
		t.Fatal("the filter kept nothing")
	}
}

// TestTruncated cuts a file at every byte of its last game: the reader
// yields the complete games only.
func TestTruncated(t *testing.T) {
	games, _ := randomGames(t, 3, 4)
	full := encode(t, games)
	twoGames := int(int64(len(encode(t, games[:2]))))
	for cut := twoGames; cut < len(full); cut++ {
		r := NewReader(bytes.NewReader(full[:cut]))
		got := readAll(t, r)
		if len(got) != 2 {
			t.Fatalf("cut at %d: %d games, want 2", cut, len(got))
		}
		if want := int64(cut - twoGames); r.Truncated() != want {
			t.Fatalf("cut at %d: truncated %d, want %d", cut, r.Truncated(), want)
		}
		n := 0
		for _, err := range NewReader(bytes.NewReader(full[:cut])).Positions(Filter{}) {
			if err != nil {
				t.Fatalf("cut at %d: %v", cut, err)
			}
			n++
		}
		if n == 0 {
			t.Fatalf("cut at %d: no positions", cut)
		}
	}
	for cut := range headerSize {
		if got := readAll(t, NewReader(bytes.NewReader(full[:cut]))); len(got) != 0 {
			t.Fatalf("cut at %d: %d games", cut, len(got))
		}
	}
}

// TestConcatenated reads two files joined as one (cat a b > c).
func TestConcatenated(t *testing.T) {
	games, _ := randomGames(t, 5, 5)
	data := append(encode(t, games[:2]), encode(t, games[2:])...)
	got := readAll(t, NewReader(bytes.NewReader(data)))
	if len(got) != len(games) {
		t.Fatalf("%d games, want %d", len(got), len(games))
	}
	for i := range got {
		sameGame(t, i, got[i], games[i])
	}
}

func TestOpenAppend(t *testing.T) {
	games, _ := randomGames(t, 6, 6)
	path := filepath.Join(t.TempDir(), "games.bin")
	write := func(gs []*Game, wantBefore int) {
		t.Helper()
		w, n, err := OpenAppend(path)
		if err != nil {
			t.Fatal(err)
		}
		if n != wantBefore {
			t.Fatalf("OpenAppend found %d games, want %d", n, wantBefore)
		}
		for _, g := range gs {
			if err := w.Write(g); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write(games[:2], 0)
	write(games[2:3], 2)
	// A process killed while writing game 4 leaves part of it.
	whole := encode(t, games[3:4])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(whole[headerSize : headerSize+20]); err != nil {
		t.Fatal(err)
	}
	f.Close()
	write(games[3:], 3)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, encode(t, games)) {
		t.Fatal("the appended file differs from the games written at once")
	}
	// An empty file and a cut header are started afresh.
	for _, content := range []string{"", "KRS"} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		write(games[:1], 0)
		if got := readAll(t, NewReader(bytes.NewReader(must(os.ReadFile(path))))); len(got) != 1 {
			t.Fatalf("after %q: %d games", content, len(got))
		}
	}
	// Another kind of file is refused, untouched.
	if err := os.WriteFile(path, []byte("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0 | 0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenAppend(path); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("OpenAppend on a text file: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestCorrupt(t *testing.T) {
	games, _ := randomGames(t, 2, 7)
	good := encode(t, games)
	cases := map[string]func([]byte) []byte{
		"magic":      func(b []byte) []byte { b[1] = 'X'; return b },
		"no header":  func(b []byte) []byte { return b[headerSize:] },
		"result":     func(b []byte) []byte { b[headerSize] = 7; return b },
		"first move": func(b []byte) []byte { return corruptFirstMove(b, games[0]) },
		"piece code": func(b []byte) []byte { b[headerSize+9] = 0x77; return b },
		"side to move": func(b []byte) []byte {
			occ := games[0].Start.Occupied().Count()
			b[headerSize+9+(occ+1)/2] = 5
			return b
		},
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			data := mutate(bytes.Clone(good))
			var g Game
			err := NewReader(bytes.NewReader(data)).ReadGame(&g)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("ReadGame: %v, want ErrCorrupt", err)
			}
			for _, err := range NewReader(bytes.NewReader(data)).Positions(Filter{}) {
				if err != nil {
					if !errors.Is(err, ErrCorrupt) {
						t.Fatalf("Positions: %v, want ErrCorrupt", err)
					}
					return
				}
			}
			t.Fatal("Positions: no error")
		})
	}
	bad := bytes.Clone(good)
	bad[4] = 9
	var g Game
	if err := NewReader(bytes.NewReader(bad)).ReadGame(&g); err == nil || !strings.Contains(err.Error(), "version 9") {
		t.Fatalf("version 9: %v", err)
	}
}

// corruptFirstMove replaces the first move of the first game with a move
// of a piece of the side not to move.
func corruptFirstMove(b []byte, g *Game) []byte {
	off := headerSize + 1 + startSize(uint64(g.Start.Occupied())) + 2
	other := g.Start.ByColor(g.Start.SideToMove().Other())
	from := other.PopLSB()
	m := movegen.NewMove(from, from^8)
	b[off], b[off+1] = byte(m), byte(m>>8)
	return b
}

// sampleFile returns a file of three random games (standard, Chess960,
// DFRC), the seed input of the damaged-file tests; with meta, under a
// version 2 header.
func sampleFile(rng *rand.Rand, meta bool) []byte {
	var c counts
	var buf bytes.Buffer
	w, _ := NewWriter(&buf)
	if meta {
		_ = w.SetMeta(Meta{"tool": "test", "seed": "8"})
	}
	for i := range 3 {
		_ = w.Write(randomGame(rng, movegen.Variant(i), &c))
	}
	_ = w.Close()
	return buf.Bytes()
}

func FuzzReader(f *testing.F) {
	f.Add(sampleFile(rand.New(rand.NewPCG(8, 1)), false))
	f.Add(sampleFile(rand.New(rand.NewPCG(8, 1)), true))
	f.Add([]byte(Magic))
	f.Fuzz(func(t *testing.T, data []byte) { readEverything(data) })
}

// readEverything reads data game by game and position by position, to the
// first error: damaged data must end in an error, never a panic or a hang.
func readEverything(data []byte) {
	r := NewReader(bytes.NewReader(data))
	for {
		var g Game
		if err := r.ReadGame(&g); err != nil {
			break
		}
	}
	for range NewReader(bytes.NewReader(data)).Positions(Filter{}) {
	}
}

// BenchmarkPositions measures how fast the reader yields training
// positions (replaying and checking every move).
func BenchmarkPositions(b *testing.B) {
	var c counts
	rng := rand.New(rand.NewPCG(11, 1))
	var buf bytes.Buffer
	w, _ := NewWriter(&buf)
	plies := 0
	for i := range 30 {
		g := randomGame(rng, movegen.Variant(i%3), &c)
		plies += len(g.Plies)
		_ = w.Write(g)
	}
	_ = w.Close()
	data := buf.Bytes()
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for range b.N {
		for _, err := range NewReader(bytes.NewReader(data)).Positions(Filter{}) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "positions/s")
}

// TestMetaSegments: a Writer given metadata starts with a version 2 header;
// appending with other metadata adds a header before the new games (none
// when no game follows), and Segments counts each run's games under its own
// header's metadata. Without metadata the file is as before, version 1.
func TestMetaSegments(t *testing.T) {
	games, _ := randomGames(t, 5, 9)
	if plain := encode(t, games[:1]); string(plain[:headerSize]) != Magic+"\x01\x00\x00\x00" {
		t.Fatalf("a Writer without metadata writes header %q, want version 1", plain[:headerSize])
	}
	path := filepath.Join(t.TempDir(), "games.bin")
	write := func(meta Meta, gs []*Game) {
		t.Helper()
		w, _, err := OpenAppend(path)
		if err != nil {
			t.Fatal(err)
		}
		if meta != nil {
			if err := w.SetMeta(meta); err != nil {
				t.Fatal(err)
			}
		}
		for _, g := range gs {
			if err := w.Write(g); err != nil {
				t.Fatal(err)
			}
		}
		off := w.Offset()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(path); err != nil || st.Size() != off {
			t.Fatalf("Offset %d, file size %v (%v)", off, st.Size(), err)
		}
	}
	write(Meta{"seed": "1", "net": "a"}, games[:2])
	write(Meta{"seed": "1", "net": "b"}, nil) // no games: no header either
	write(Meta{"seed": "1", "net": "c"}, games[2:])
	data := must(os.ReadFile(path))
	if v := data[4]; v != 2 {
		t.Fatalf("first header of version %d, want 2", v)
	}
	got := readAll(t, NewReader(bytes.NewReader(data)))
	if len(got) != len(games) {
		t.Fatalf("%d games, want %d", len(got), len(games))
	}
	for i := range got {
		sameGame(t, i, got[i], games[i])
	}
	segs, err := NewReader(bytes.NewReader(data)).Segments(TrainingFilter)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 2 || segs[0].Meta["net"] != "a" || segs[1].Meta["net"] != "c" || segs[0].Offset != 0 ||
		segs[1].Offset != segs[0].End || segs[1].End != int64(len(data)) {
		t.Fatalf("segments %+v", segs)
	}
	for i, want := range [][]*Game{games[:2], games[2:]} {
		var c Counts
		for _, g := range want {
			c.Add(CountGame(g, TrainingFilter))
		}
		if segs[i].Counts != c || c.Positions == 0 || c.Positions == c.Plies {
			t.Fatalf("segment %d: counts %+v, want %+v", i, segs[i].Counts, c)
		}
	}
	// A cut inside the second header, or inside the game after it, reads as
	// the first segment's games; OpenAppend cuts it back to them.
	for _, cut := range []int64{segs[1].Offset + 3, segs[1].Offset + 12, segs[1].Offset + 20} {
		r := NewReader(bytes.NewReader(data[:cut]))
		if got := readAll(t, r); len(got) != 2 || r.Truncated() == 0 {
			t.Fatalf("cut at %d: %d games, truncated %d", cut, len(got), r.Truncated())
		}
	}
	// Damaged metadata and unknown versions are errors.
	bad := bytes.Clone(data)
	bad[12] = '['
	if err := NewReader(bytes.NewReader(bad)).ReadGame(new(Game)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("metadata not an object: %v", err)
	}
	bad = bytes.Clone(data)
	bad[8], bad[9], bad[10] = 0xff, 0xff, 0xff
	if err := NewReader(bytes.NewReader(bad)).ReadGame(new(Game)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("metadata of 16 MB: %v", err)
	}
	bad[4] = 3
	if err := NewReader(bytes.NewReader(bad)).ReadGame(new(Game)); err == nil || !strings.Contains(err.Error(), "version 3") {
		t.Fatalf("version 3: %v", err)
	}
	// SetMeta comes before the games.
	w := must(NewWriter(io.Discard))
	w.Write(games[0])
	if err := w.SetMeta(Meta{"x": "y"}); err == nil {
		t.Fatal("SetMeta after a game: no error")
	}
}
