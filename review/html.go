package review

import (
	"cmp"
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"

	"scrabble/move"
	"scrabble/rules"
)

//go:embed report.html.tmpl
var reportHTML string

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"points": points,
	"dash":   dash,
	"join":   strings.Join,
	"plus1":  func(i int) int { return i + 1 },
}).Parse(reportHTML))

// WriteHTML writes the report as one self-contained HTML page (inline CSS,
// SVG and a few lines of script; nothing loaded from elsewhere): the
// summary, charts of the equity lost per turn and of the score over the
// game, and per turn a board diagram with the play made and the engine's
// choice marked, and the engine's best moves.
func WriteHTML(w io.Writer, rep *Report) error {
	page := htmlPage{Report: rep, PageTitle: pageTitle(rep), Cols: strings.Split("ABCDEFGHIJKLMNO", "")}
	page.Evaluation = evaluationName(rep.Evaluation)
	for i, p := range rep.Players {
		page.Final = append(page.Final, finalScore{Class: fmt.Sprintf("p%d", i+1), Name: p.Name, Score: at(rep.Recorded, i)})
	}
	if !slices.Equal(rep.Computed, rep.Recorded) {
		nums := make([]string, len(rep.Computed))
		for i, v := range rep.Computed {
			nums[i] = fmt.Sprint(v)
		}
		page.EngineTotals = strings.Join(nums, ", ")
	}
	page.PlacesText = placesText(rep)
	for i := range rep.Turns {
		t := &rep.Turns[i]
		row := htmlTurn{T: t, Board: boardCells(t), Class: seatClass(t.seat, rep, t.Player)}
		for j, m := range t.Best {
			hm := htmlMove{Rank: j + 1, M: m, Played: t.isPlayed(&m)}
			if m.Value != nil {
				row.Ranked = true
				hm.Value = points(*m.Value)
			}
			row.Moves = append(row.Moves, hm)
		}
		page.Rows = append(page.Rows, row)
	}
	page.LostChart = lostChart(rep)
	page.ScoreChart = scoreChart(rep)
	return htmlTemplate.Execute(w, &page)
}

type htmlPage struct {
	*Report
	PageTitle, Evaluation string
	// Final are the players' final scores; EngineTotals the engine's when
	// they differ ("" when not); PlacesText the places, "1 ann, 2 ben".
	Final                    []finalScore
	EngineTotals, PlacesText string
	Cols                     []string
	Rows                     []htmlTurn
	LostChart                chart
	ScoreChart               chart
}

type finalScore struct {
	Class, Name string
	Score       int
}

type htmlTurn struct {
	T      *Turn
	Board  [rules.Size][rules.Size]cell
	Class  string // "p1" or "p2"
	Moves  []htmlMove
	Ranked bool
}

type htmlMove struct {
	Rank   int
	M      Move
	Played bool
	Value  string
}

// cell is one square of a board diagram.
type cell struct {
	Class, Text, Title string
}

// seatClass is the CSS class of a player: p1 for #player1, p2 for #player2, ...
func seatClass(seat int, rep *Report, nick string) string {
	if nick != "" {
		for i, p := range rep.Players {
			if p.Nick == nick {
				seat = i
			}
		}
	}
	return fmt.Sprintf("p%d", seat+1)
}

var premiumClass = map[rules.Premium]string{
	rules.DoubleLetter: "dl", rules.TripleLetter: "tl", rules.DoubleWord: "dw", rules.TripleWord: "tw",
}

var premiumText = map[rules.Premium]string{
	rules.DoubleLetter: "2L", rules.TripleLetter: "3L", rules.DoubleWord: "2W", rules.TripleWord: "3W",
}

// boardCells draws the board before the turn with the play made and the
// engine's best play on it.
func boardCells(t *Turn) (cells [rules.Size][rules.Size]cell) {
	for r := range rules.Size {
		for c := range rules.Size {
			p := rules.PremiumAt(r, c)
			x := cell{Class: premiumClass[p], Text: premiumText[p]}
			if r == rules.CenterRow && c == rules.CenterCol {
				x = cell{Class: "dw star", Text: "★"}
			}
			if l := t.board.At(r, c); l != rules.Empty {
				x = cell{Class: "tile", Text: l.String()}
				if l.IsBlanked() {
					x.Class += " blank"
				}
			}
			cells[r][c] = x
		}
	}
	mark := func(m *move.Move, class, title string) {
		if m.Kind != move.Play {
			return
		}
		dr, dc := 0, 1
		if m.Dir == rules.Down {
			dr, dc = 1, 0
		}
		for i, l := range m.Tiles[:max(0, min(int(m.Len), len(m.Tiles)))] {
			r, c := int(m.Row)+i*dr, int(m.Col)+i*dc
			if l == rules.PlayedThrough || !rules.InBounds(r, c) {
				continue
			}
			x := &cells[r][c]
			if strings.Contains(x.Class, "new") {
				// Both moves put a tile here.
				x.Class += " " + class
				if x.Text != l.String() {
					x.Text += "/" + l.String()
				}
				x.Title += "; " + title
				continue
			}
			x.Class, x.Text, x.Title = "new "+class, l.String(), title
			if l.IsBlanked() {
				x.Class += " blank"
			}
		}
	}
	if t.Reviewed || t.played.Kind == move.Play && t.played.Len > 0 {
		mark(&t.played, "played", "played: "+t.Played.Move)
	}
	if t.Reviewed && len(t.Best) > 0 {
		mark(&t.best, "best", "engine: "+t.Best[0].Move)
	}
	return cells
}

// chart is an inline SVG chart drawn in a width x height box.
type chart struct {
	Width, Height int
	Right, Bottom float64 // of the plot area
	Bars          []bar
	Lines         []line
	Ticks         []tick // on the y axis
	XTicks        []tick
	Empty         bool
}

type bar struct {
	X, Y, W, H float64
	Class      string
	Title      string
}

type line struct {
	Points, Class, Label string
	LabelX, LabelY       float64
}

type tick struct {
	X, Y  float64
	Label string
}

const (
	chartW, chartH            = 720, 220
	padLeft, padRight         = 48, 90
	padTop, padBottom         = 12, 28
	plotW, plotH              = chartW - padLeft - padRight, chartH - padTop - padBottom
	chartTicks        float64 = 4
)

// niceStep rounds span/n up to 1, 2 or 5 times a power of ten.
func niceStep(span, n float64) float64 {
	if span <= 0 {
		return 1
	}
	raw := span / n
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// yTicks labels the y axis from lo to hi.
func yTicks(lo, hi float64, y func(float64) float64) []tick {
	step := niceStep(hi-lo, chartTicks)
	var ts []tick
	for v := math.Ceil(lo/step) * step; v <= hi+1e-9; v += step {
		ts = append(ts, tick{X: padLeft, Y: y(v), Label: strings.TrimSuffix(fmt.Sprintf("%.1f", v), ".0")})
	}
	return ts
}

// xTicks labels turns 1, every fifth and the last.
func xTicks(n int, x func(int) float64) []tick {
	var ts []tick
	for i := 1; i <= n; i++ {
		if i == 1 || i%5 == 0 || i == n {
			ts = append(ts, tick{X: x(i), Y: chartH - padBottom + 16, Label: fmt.Sprint(i)})
		}
	}
	return ts
}

// lostChart draws the equity each reviewed turn gave up, a bar per turn.
func lostChart(rep *Report) chart {
	ch := chart{Width: chartW, Height: chartH, Right: padLeft + plotW, Bottom: padTop + plotH}
	last := 0
	if n := len(rep.Timeline); n > 0 {
		last = rep.Timeline[n-1].Turn
	}
	lo, hi := 0.0, 1.0
	for _, t := range rep.Turns {
		if t.Reviewed {
			lo, hi = math.Min(lo, t.EquityLost), math.Max(hi, t.EquityLost)
		}
	}
	if last == 0 {
		ch.Empty = true
		return ch
	}
	hi = niceStep(hi-lo, chartTicks) * math.Ceil(hi/niceStep(hi-lo, chartTicks))
	slot := float64(plotW) / float64(last)
	x := func(turn int) float64 { return padLeft + float64((float64(turn)-0.5)*slot) } // float64(): no FMA, the same page from every build
	y := func(v float64) float64 { return padTop + float64((hi-v)/(hi-lo)*plotH) }
	for _, t := range rep.Turns {
		if !t.Reviewed {
			continue
		}
		top, bottom := y(math.Max(t.EquityLost, 0)), y(math.Min(t.EquityLost, 0))
		ch.Bars = append(ch.Bars, bar{
			X: x(t.Turn) - float64(slot*0.35), Y: top, W: slot * 0.7, H: math.Max(bottom-top, 0.5),
			Class: seatClass(0, rep, t.Player),
			Title: fmt.Sprintf("turn %d, %s: %s lost %s", t.Turn, t.Player, t.Played.Move, points(t.EquityLost)),
		})
	}
	ch.Ticks = yTicks(lo, hi, y)
	ch.XTicks = xTicks(last, x)
	return ch
}

// scoreChart draws every player's recorded totals after every turn.
func scoreChart(rep *Report) chart {
	ch := chart{Width: chartW, Height: chartH, Right: padLeft + plotW, Bottom: padTop + plotH}
	n := len(rep.Timeline)
	if n == 0 {
		ch.Empty = true
		return ch
	}
	lo, hi := 0.0, 50.0
	for _, p := range append(rep.Timeline, Point{Recorded: rep.Recorded}) {
		for _, v := range p.Recorded {
			lo, hi = math.Min(lo, float64(v)), math.Max(hi, float64(v))
		}
	}
	step := niceStep(hi-lo, chartTicks)
	hi = step * math.Ceil(hi/step)
	lo = step * math.Floor(lo/step)
	last := rep.Timeline[n-1].Turn
	x := func(turn int) float64 { return padLeft + float64(turn)/float64(max(last, 1))*plotW }
	y := func(v float64) float64 { return padTop + float64((hi-v)/(hi-lo)*plotH) }
	for seat := range rep.Players {
		pts := []string{fmt.Sprintf("%.1f,%.1f", x(0), y(0))}
		for _, p := range rep.Timeline {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(p.Turn), y(float64(at(p.Recorded, seat)))))
		}
		// The end of the game's adjustments come after the last turn.
		end := float64(at(rep.Recorded, seat))
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(last), y(end)))
		ch.Lines = append(ch.Lines, line{
			Points: strings.Join(pts, " "), Class: fmt.Sprintf("p%d", seat+1),
			Label:  fmt.Sprintf("%s %.0f", rep.Players[seat].Nick, end),
			LabelX: x(last) + 6, LabelY: y(end) + 4,
		})
	}
	// Keep the end labels apart: with two, the lower one moves down; with
	// more, each is pushed below the one above it.
	if len(ch.Lines) == 2 {
		if a, b := &ch.Lines[0], &ch.Lines[1]; math.Abs(a.LabelY-b.LabelY) < 14 {
			if a.LabelY <= b.LabelY {
				b.LabelY = a.LabelY + 14
			} else {
				a.LabelY = b.LabelY + 14
			}
		}
	} else {
		order := make([]*line, len(ch.Lines))
		for i := range ch.Lines {
			order[i] = &ch.Lines[i]
		}
		slices.SortStableFunc(order, func(a, b *line) int { return cmp.Compare(a.LabelY, b.LabelY) })
		for i := 1; i < len(order); i++ {
			order[i].LabelY = math.Max(order[i].LabelY, order[i-1].LabelY+14)
		}
	}
	ch.Ticks = yTicks(lo, hi, y)
	ch.XTicks = xTicks(last, x)
	return ch
}
