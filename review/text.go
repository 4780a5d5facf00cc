package review

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"scrabble/internal/texttable"
)

// WriteText writes the report for people: a block per turn, then the
// summary and the lines that could not be applied.
func WriteText(w io.Writer, rep *Report) error {
	var b strings.Builder
	title := rep.Title
	if title == "" {
		title = rep.Players[0].Name + " vs " + rep.Players[1].Name
	}
	fmt.Fprintf(&b, "Review of %s: %s\n", rep.File, title)
	fmt.Fprintf(&b, "Lexicon %s, %s\n", rep.Lexicon, evaluationName(rep.Evaluation))
	for i := range rep.Turns {
		b.WriteString("\n")
		writeTurn(&b, &rep.Turns[i])
	}
	writeSummary(&b, rep)
	_, err := io.WriteString(w, b.String())
	return err
}

func evaluationName(e string) string {
	if e == "static" {
		return "static evaluation (score plus the value of the tiles kept)"
	}
	return e
}

func points(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

func writeTurn(b *strings.Builder, t *Turn) {
	fmt.Fprintf(b, "Turn %d, %s (line %d): rack %s\n", t.Turn, t.Player, t.Line, dash(t.Rack))
	played := fmt.Sprintf("%s, %d", t.Played.Move, t.Played.Score)
	for _, f := range t.Flags {
		switch f {
		case FlagWithdrawn:
			played += ", taken back"
		case FlagPhony:
			played += ", phony " + strings.Join(t.Phonies, ", ")
		}
	}
	fmt.Fprintf(b, "  played  %s; total %d\n", played, t.RecordedTotal)
	if t.Note != "" {
		fmt.Fprintf(b, "  note    %s\n", strings.ReplaceAll(t.Note, "\n", "\n          "))
	}
	if !t.Reviewed {
		fmt.Fprintf(b, "  not reviewed: %s\n", t.Skipped)
		return
	}
	rank := "not a legal move"
	if t.Rank > 0 {
		rank = fmt.Sprintf("rank %d of %d", t.Rank, t.Moves)
	}
	lost := points(t.EquityLost)
	if slices.Contains(t.Flags, FlagNotRanked) {
		lost += " by static equity (the move made or the best was not valued)"
	}
	if e := t.Endgame; e != nil && !slices.Contains(t.Flags, FlagNotRanked) {
		lost += " of spread against perfect play"
	}
	fmt.Fprintf(b, "  equity  %s (%s); lost %s\n", points(t.Equity), rank, lost)
	if e := t.Endgame; e != nil {
		how := "solved exactly"
		if !e.Proven {
			how = fmt.Sprintf("best at depth %d, not proven", e.Depth)
		}
		made := "not searched (a phony)"
		if e.PlayedValue != nil {
			made = fmt.Sprintf("%+d", *e.PlayedValue)
		}
		fmt.Fprintf(b, "  endgame %s: perfect play %+d, the move made %s; perfect line: %s\n", how, e.Value, made, strings.Join(e.Line, ", "))
	}
	if e := t.PEG; e != nil {
		how := "solved exactly"
		if !e.Proven {
			how = "not proven"
		}
		made := "not valued"
		if e.PlayedWinPct != nil {
			made = fmt.Sprintf("%.1f%%", *e.PlayedWinPct)
			if e.PlayedMeanSpread != nil {
				made += fmt.Sprintf(", mean spread %+.1f", *e.PlayedMeanSpread)
			}
		}
		best := fmt.Sprintf("%.1f%%", e.BestWinPct)
		if e.BestMeanSpread != nil {
			best += fmt.Sprintf(", mean spread %+.1f", *e.BestMeanSpread)
		}
		fmt.Fprintf(b, "  pre-endgame %s: best %s wins %s; the move made %s\n", how, e.Best, best, made)
	}
	if t.BestBingo != nil {
		fmt.Fprintf(b, "  missed bingo: %s, %d\n", t.BestBingo.Move, t.BestBingo.Score)
	}
	if len(t.Best) == 0 {
		return
	}
	header := []string{"", "#", "MOVE", "SCORE", "EQUITY", "LEAVE"}
	right := []bool{false, true, false, true, true, false}
	ranked := t.Best[0].Value != nil
	if ranked {
		header = append(header, "VALUE")
		right = append(right, true)
	}
	var rows [][]string
	for i, m := range t.Best {
		mark := ""
		if t.isPlayed(&m) {
			mark = "*"
		}
		row := []string{mark, strconv.Itoa(i + 1), m.Move, strconv.Itoa(m.Score), points(m.Equity), dash(m.Leave)}
		if ranked {
			v := "-"
			if m.Value != nil {
				v = points(*m.Value)
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	writeTable(b, "  ", header, right, rows)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func writeSummary(b *strings.Builder, rep *Report) {
	b.WriteString("\nSummary\n")
	var rows [][]string
	for _, p := range rep.Summary.Players {
		rows = append(rows, []string{p.Player, strconv.Itoa(p.Turns), strconv.Itoa(p.Skipped), points(p.EquityLost),
			points(p.MeanEquityLost), strconv.Itoa(p.BestMoves), strconv.Itoa(p.MissedBingos), strconv.Itoa(p.Phonies)})
	}
	writeTable(b, "", []string{"PLAYER", "TURNS", "SKIPPED", "EQUITY LOST", "MEAN", "BEST", "MISSED BINGOS", "PHONIES"},
		[]bool{false, true, true, true, true, true, true, true}, rows)
	if len(rep.Summary.Costliest) > 0 {
		b.WriteString("\nCostliest turns:\n")
		rows = rows[:0]
		for _, c := range rep.Summary.Costliest {
			rows = append(rows, []string{strconv.Itoa(c.Turn), c.Player, c.Played, c.Best, points(c.EquityLost)})
		}
		writeTable(b, "  ", []string{"TURN", "PLAYER", "PLAYED", "BEST", "LOST"}, []bool{true, false, false, false, true}, rows)
	}
	p := rep.Players
	fmt.Fprintf(b, "\nFinal score: %s %d, %s %d", p[0].Nick, rep.Recorded[0], p[1].Nick, rep.Recorded[1])
	if rep.Computed != rep.Recorded {
		fmt.Fprintf(b, " (the engine's totals: %d, %d)", rep.Computed[0], rep.Computed[1])
	}
	b.WriteString("\n")
	if len(rep.Problems) == 0 {
		b.WriteString("Every line was applied as recorded.\n")
		return
	}
	fmt.Fprintf(b, "Lines that could not be applied as recorded (%d):\n", len(rep.Problems))
	for _, pr := range rep.Problems {
		fmt.Fprintf(b, "  %s:%d: %s\n", rep.File, pr.Line, pr.Message)
	}
}

// writeTable writes rows under a header (see texttable.Write).
func writeTable(b *strings.Builder, indent string, header []string, right []bool, rows [][]string) {
	texttable.Write(b, indent, header, right, rows) // a strings.Builder does not fail
}
