package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kingrook/kingrook/engine"
	"github.com/kingrook/kingrook/search"
)

// readmeOptionsHeader heads the table of UCI options in README.md.
const readmeOptionsHeader = "| option | type | default | range | meaning |"

// readmeOptionRows returns the rows of README.md's options table, keyed by
// option name, each as its type, default and range cells.
func readmeOptionRows(t *testing.T, readme string) map[string][3]string {
	t.Helper()
	_, table, ok := strings.Cut(readme, "\n"+readmeOptionsHeader+"\n")
	if !ok {
		t.Fatalf("README.md has no line %q", readmeOptionsHeader)
	}
	rows := map[string][3]string{}
	for i, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		if i == 0 { // the |---| line
			continue
		}
		cells := strings.SplitN(line, "|", 7)
		if len(cells) < 7 {
			t.Errorf("README.md options row %q: want 5 cells", line)
			continue
		}
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		name, ok := strings.CutPrefix(cells[1], "`")
		name, ok2 := strings.CutSuffix(name, "`")
		if !ok || !ok2 {
			t.Errorf("README.md options row %q: the name is not in backticks", line)
		}
		if _, dup := rows[name]; dup {
			t.Errorf("README.md lists %s twice", name)
		}
		rows[name] = [3]string{cells[2], cells[3], cells[4]}
	}
	return rows
}

// readmeCells is how README.md's options table writes an option's type,
// default and range: string defaults in backticks (<empty> too), the range
// of a spin option as min..max, empty cells where there is nothing to say.
func readmeCells(o engine.Option) [3]string {
	cells := [3]string{string(o.Type), o.Default, ""}
	switch o.Type {
	case engine.String:
		cells[1] = "`" + o.Default + "`"
	case engine.Spin:
		cells[2] = fmt.Sprintf("%d..%d", o.Min, o.Max)
	}
	return cells
}

// TestReadmeOptionsTable: README.md's options table lists exactly the
// options Kingrook advertises, with their types, defaults and ranges.
func TestReadmeOptionsTable(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeOptionRows(t, string(data))
	tunable := map[string]bool{} // a tuning build's search parameters, which cmd/tune/README.md covers
	for _, p := range search.Tunables() {
		tunable[p.Name] = true
	}
	for _, o := range engine.Options() {
		if tunable[o.Name] {
			continue
		}
		got, ok := rows[o.Name]
		if !ok {
			t.Errorf("README.md does not list the option %s", o.Name)
			continue
		}
		delete(rows, o.Name)
		if want := readmeCells(o); got != want {
			t.Errorf("README.md: %s is %q, want %q (type, default, range)", o.Name, got, want)
		}
	}
	for name := range rows {
		t.Errorf("README.md lists %s, which Kingrook does not advertise", name)
	}
}
