package selfplay

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"
)

// TestMutatedInput reads thousands of randomly damaged files, with and
// without metadata (bytes changed, cut out or inserted): the reader returns
// errors, never panics or loops. (FuzzReader explores further with go test -fuzz.)
func TestMutatedInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	seeds := [][]byte{sampleFile(rng, false), sampleFile(rng, true)}
	for i := 0; i < 4000; i++ {
		seed := seeds[i%2]
		data := bytes.Clone(seed)
		for range 1 + rng.IntN(4) {
			switch rng.IntN(3) {
			case 0:
				data[rng.IntN(len(data))] = byte(rng.IntN(256))
			case 1:
				j := rng.IntN(len(data))
				k := min(len(data), j+1+rng.IntN(8))
				data = append(data[:j:j], data[k:]...)
			case 2:
				j := 8 + rng.IntN(len(data)-8)
				ins := make([]byte, 1+rng.IntN(16))
				for k := range ins {
					ins[k] = byte(rng.IntN(256))
				}
				data = append(data[:j:j], append(ins, data[j:]...)...)
			}
			if len(data) < 9 {
				data = bytes.Clone(seed)
			}
		}
		done := make(chan struct{})
		go func() {
			readEverything(data)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(time.Minute): // a hang guard, not a speed limit
			t.Fatalf("hang on input %d: %x", i, data[:64])
		}
	}
}
