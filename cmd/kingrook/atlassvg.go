package main

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/kingrook/kingrook/eval"
)

// The atlas chart: White's cp of every position, sorted, as a curve; the
// standard start and the 10 most and least balanced positions marked and
// listed; a second axis gives the model's expected score for White.

// Chart geometry (SVG user units).
const (
	svgWidth, svgHeight = 1500, 760
	plotLeft, plotRight = 90, 1040
	plotTop, plotBottom = 110, 680
	panelLeft           = 1160 // the lists, right of the plot
	svgListed           = 10   // positions listed at each end
)

// Chart colours.
const (
	colCurve    = "#3b6ea8"
	colGrid     = "#e3e6ea"
	colAxis     = "#5b6570"
	colText     = "#1f2933"
	colMuted    = "#5b6570"
	colBalanced = "#1b9e52"
	colLopsided = "#d95f02"
	colStandard = "#c0392b"
	colMean     = "#7b3294"
)

// atlasSVG returns the chart of the rows.
func atlasSVG(rows map[int]atlasRow, c atlasConfig) string {
	ch := newChart(sortedRows(rows))
	b := &ch.b
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">`+"\n",
		svgWidth, svgHeight, svgWidth, svgHeight)
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="white"/>`+"\n", svgWidth, svgHeight)
	ch.title(c)
	ch.axes()
	ch.meanAndCurve()
	ch.ends(rows)
	ch.standard(rows)
	b.WriteString("</svg>\n")
	return b.String()
}

// chart draws the sorted scores: s in ascending order, the cp scale from lo
// to hi with grid lines every step.
type chart struct {
	b            strings.Builder
	s            []atlasRow
	lo, hi, step float64
}

func newChart(s []atlasRow) *chart {
	lo, hi := float64(min(0, s[0].cp)), float64(max(0, s[len(s)-1].cp))
	step := niceStep((hi - lo) / 8)
	lo = math.Floor(lo/step)*step - step/2
	hi = math.Ceil(hi/step)*step + step/2
	if lo > -step/2 { // keep zero in sight without a wasted band below it
		lo = -step / 2
	}
	return &chart{s: s, lo: lo, hi: hi, step: step}
}

// x is the abscissa of the i-th position in sorted order.
func (ch *chart) x(i int) float64 {
	if len(ch.s) == 1 {
		return (plotLeft + plotRight) / 2
	}
	return plotLeft + 10 + float64(i)*float64(plotRight-plotLeft-20)/float64(len(ch.s)-1)
}

// y is the ordinate of a score in cp.
func (ch *chart) y(cp float64) float64 {
	return plotBottom - (cp-ch.lo)*float64(plotBottom-plotTop)/(ch.hi-ch.lo)
}

// title writes the title and the settings.
func (ch *chart) title(c atlasConfig) {
	b := &ch.b
	title := "White's advantage in the 960 Chess960 start positions, as Kingrook sees it"
	if len(ch.s) < chess960Count {
		title = fmt.Sprintf("White's advantage in %d of the 960 Chess960 start positions, as Kingrook sees it", len(ch.s))
	}
	text(b, plotLeft, 40, 21, "start", colText, "bold", title)
	text(b, plotLeft, 68, 14, "start", colMuted, "", fmt.Sprintf(
		"White's score after a %s-node search of each position (net %s, %d thread%s, %d MiB hash, table cleared each time), sorted",
		groupDigits(c.nodes), c.netID, c.threads, plural(c.threads), c.hash))
	text(b, plotLeft, 88, 14, "start", colMuted, "",
		"cp: Kingrook's win/draw/loss model (eval/wdl.go), +100 cp = a 50% chance that White wins")
}

// axes writes the grid, the axes and their labels: cp on the left, the
// model's expected score for White on the right.
func (ch *chart) axes() {
	b := &ch.b
	for v := math.Ceil(ch.lo/ch.step) * ch.step; v <= ch.hi; v += ch.step {
		yy := ch.y(v)
		colour, width := colGrid, 1.0
		if v == 0 {
			colour, width = colAxis, 1.5
		}
		fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="%.1f"/>`+"\n",
			plotLeft, yy, plotRight, yy, colour, width)
		text(b, plotLeft-8, yy+5, 14, "end", colText, "", signed(v))
		w, d, _ := eval.WDL(cpToScore(v), eval.WDLMaterialMax)
		text(b, plotRight+8, yy+5, 14, "start", colText, "", fmt.Sprintf("%.1f%%", float64(2*w+d)/20))
	}
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="%s"/>`+"\n",
		plotLeft, plotTop, plotRight-plotLeft, plotBottom-plotTop, colAxis)
	rotated(b, 30, (plotTop+plotBottom)/2, 15, colText, "White's score (cp)")
	rotated(b, plotRight+80, (plotTop+plotBottom)/2, 15, colText, "White's expected score (model)")
	for _, r := range []int{1, 100, 200, 300, 400, 500, 600, 700, 800, 900, 960} {
		if r > len(ch.s) {
			break
		}
		xx := ch.x(r - 1)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>`+"\n", xx, plotBottom, xx, plotBottom+6, colAxis)
		text(b, xx, plotBottom+24, 14, "middle", colText, "", fmt.Sprint(r))
	}
	text(b, (plotLeft+plotRight)/2, plotBottom+52, 15, "middle", colText, "",
		"the start positions, sorted by White's score")
}

// meanAndCurve writes the mean's line and the curve of the sorted scores.
func (ch *chart) meanAndCurve() {
	b := &ch.b
	mean, sd := stats(ch.s)
	ym := ch.y(mean)
	fmt.Fprintf(b, `<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="%s" stroke-width="1.5" stroke-dasharray="7 5"/>`+"\n",
		plotLeft, ym, plotRight, ym, colMean)
	text(b, plotLeft+14, ym-8, 14, "start", colMean, "bold", fmt.Sprintf("mean %s cp, SD %.1f", signedF(mean), sd))
	b.WriteString(`<polyline fill="none" stroke="` + colCurve + `" stroke-width="2" points="`)
	for i, r := range ch.s {
		fmt.Fprintf(b, "%.1f,%.1f ", ch.x(i), ch.y(float64(r.cp)))
	}
	b.WriteString("\"/>\n")
}

// rank maps a position's number to its index in sorted order.
func (ch *chart) rank() map[int]int {
	rank := map[int]int{}
	for i, r := range ch.s {
		rank[r.number] = i
	}
	return rank
}

// ends marks and lists the most and least balanced positions.
func (ch *chart) ends(rows map[int]atlasRow) {
	b, rank := &ch.b, ch.rank()
	bal := byBalance(rows)
	n := min(svgListed, len(bal)/2)
	most, least := bal[:n], make([]atlasRow, 0, n)
	for i := len(bal) - 1; i >= len(bal)-n; i-- {
		least = append(least, bal[i])
	}
	for _, r := range most {
		dot(b, ch.x(rank[r.number]), ch.y(float64(r.cp)), 4.5, colBalanced)
	}
	for _, r := range least {
		dot(b, ch.x(rank[r.number]), ch.y(float64(r.cp)), 4.5, colLopsided)
	}
	list(b, panelLeft, plotTop, colLopsided, fmt.Sprintf("The %d least balanced", n), least)
	list(b, panelLeft, plotTop+listHeight(n)+24, colBalanced, fmt.Sprintf("The %d most balanced", n), most)
}

// standard marks the standard start position, its label above the curve on
// the side with more room.
func (ch *chart) standard(rows map[int]atlasRow) {
	r, ok := rows[standardStart]
	if !ok {
		return
	}
	b, rank := &ch.b, ch.rank()
	xs, ys := ch.x(rank[standardStart]), ch.y(float64(r.cp))
	dot(b, xs, ys, 6, colStandard)
	lx, ly, anchor, dx := xs-40, max(ys-70, plotTop+50), "end", -3.0
	if xs < (plotLeft+plotRight)/2 {
		lx, anchor, dx = xs+40, "start", 3
	}
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.5"/>`+"\n", lx, ly+6, xs+dx, ys-5, colStandard)
	text(b, lx, ly-16, 15, anchor, colStandard, "bold", fmt.Sprintf("standard chess, #518 RNBQKBNR: %s cp", signed(float64(r.cp))))
	text(b, lx, ly+2, 14, anchor, colStandard, "", fmt.Sprintf("rank %d of %d by White's score", rank[standardStart]+1, len(ch.s)))
}

// The lists' box.
const listLine, listWidth = 21, 280

// listHeight is the height of a list of n positions.
func listHeight(n int) float64 { return float64(38 + listLine*n) }

// list draws a box of positions: number, White's back rank and cp.
func list(b *strings.Builder, x0, y0 float64, colour, title string, rows []atlasRow) {
	h := listHeight(len(rows))
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%d" height="%.1f" rx="6" fill="white" fill-opacity="0.92" stroke="%s"/>`+"\n",
		x0, y0, listWidth, h, colour)
	text(b, x0+14, y0+24, 15, "start", colour, "bold", title)
	for i, r := range rows {
		yy := y0 + 24 + float64(listLine*(i+1))
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="15" fill="%s" font-family="DejaVu Sans Mono, Menlo, monospace" xml:space="preserve">%s</text>`+"\n",
			x0+14, yy, colText, html.EscapeString(fmt.Sprintf("#%-3d %s %7s cp", r.number, r.arrangement, signed(float64(r.cp)))))
	}
}

// text draws a line of text.
func text(b *strings.Builder, x, y float64, size int, anchor, colour, weight, s string) {
	w := ""
	if weight != "" {
		w = ` font-weight="` + weight + `"`
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" fill="%s"%s>%s</text>`+"\n",
		x, y, size, anchor, colour, w, html.EscapeString(s))
}

// rotated draws text turned to read upwards, centred on (x, y).
func rotated(b *strings.Builder, x, y float64, size int, colour, s string) {
	fmt.Fprintf(b, `<text transform="translate(%.1f %.1f) rotate(-90)" font-size="%d" text-anchor="middle" fill="%s">%s</text>`+"\n",
		x, y, size, colour, html.EscapeString(s))
}

// dot draws a marker.
func dot(b *strings.Builder, x, y, r float64, colour string) {
	fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="%.1f" fill="%s" stroke="white" stroke-width="1"/>`+"\n", x, y, r, colour)
}

// niceStep returns a grid step of 1, 2 or 5 times a power of ten, at least
// raw.
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// cpToScore returns the search score whose normalised cp at full material
// is cp (the inverse of eval.NormalizeCP at the start).
func cpToScore(cp float64) int {
	a, _ := eval.WDLParams(eval.WDLMaterialMax)
	return int(math.Round(cp * a / 100))
}

// signed formats a whole number with its sign ("+35", "0", "-4").
func signed(v float64) string {
	switch v = math.Round(v); {
	case v > 0:
		return fmt.Sprintf("+%.0f", v)
	case v == 0:
		return "0" // also for -0
	}
	return fmt.Sprintf("%.0f", v)
}

// signedF formats a number with one decimal and its sign.
func signedF(v float64) string {
	if v > 0 {
		return fmt.Sprintf("+%.1f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

// groupDigits writes n with thin spaces between groups of three digits.
func groupDigits(n uint64) string {
	s := fmt.Sprint(n)
	var out []string
	for len(s) > 3 {
		out = append([]string{s[len(s)-3:]}, out...)
		s = s[:len(s)-3]
	}
	return strings.Join(append([]string{s}, out...), "\u2009")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
