package engine

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// memoryHeadroomMB is kept free beside the transposition table for the rest
// of the engine (search stacks, histories, the Go runtime).
const memoryHeadroomMB = 64

// availableMB returns the memory the system can still give this process, in
// MiB, and false where that is unknown (no /proc/meminfo, e.g. Windows).
func availableMB() (int, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.Atoi(fields[1])
			if err != nil {
				return 0, false
			}
			return kb / 1024, true
		}
	}
	return 0, false
}

// checkHashFits refuses a table that the machine cannot hold: Go cannot
// recover from running out of memory, so allocating it would end the
// program in the middle of a game. current is the size already allocated
// (freed before the new table is made).
func checkHashFits(mb, current int) error {
	avail, ok := availableMB()
	if !ok {
		return nil
	}
	if limit := avail + current - memoryHeadroomMB; mb > limit {
		return fmt.Errorf("Hash %d MB does not fit in the memory available (%d MB free)", mb, avail)
	}
	return nil
}
