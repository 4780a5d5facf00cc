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
	fmt.Fprintf(&b, "Review of %s: %s\n", rep.File, pageTitle(rep))
	fmt.Fprintf(&b, "Lexicon %s, %s\n", rep.Lexicon, evaluationName(rep.Evaluation))
	if rep.ChallengeRule != "" {
		fmt.Fprintf(&b, "Challenge rule %s\n", rep.ChallengeRule)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "Note: %s\n", n)
	}
	for i := range rep.Turns {
		b.WriteString("\n")
		writeTurn(&b, &rep.Turns[i])
	}
	writeSummary(&b, rep)
	_, err := io.WriteString(w, b.String())
	return err
}

// pageTitle is the game's title, or its players' names: "Ann vs Ben vs Cal".
func pageTitle(rep *Report) string {
	if rep.Title != "" {
		return rep.Title
	}
	names := make([]string, len(rep.Players))
	for i, p := range rep.Players {
		names[i] = p.Name
	}
	return strings.Join(names, " vs ")
}

// finalScores writes "ann 320, ben 300" (nicknames, recorded totals) and,
// when the engine's totals differ, what they are.
func finalScores(rep *Report) string {
	parts := make([]string, len(rep.Players))
	for i, p := range rep.Players {
		parts[i] = fmt.Sprintf("%s %d", p.Nick, at(rep.Recorded, i))
	}
	s := strings.Join(parts, ", ")
	if !slices.Equal(rep.Computed, rep.Recorded) {
		nums := make([]string, len(rep.Computed))
		for i, v := range rep.Computed {
			nums[i] = strconv.Itoa(v)
		}
		s += " (the engine's totals: " + strings.Join(nums, ", ") + ")"
	}
	return s
}

// placesText writes "1 ann, 2 ben, 2 cal" for a game of more than two.
func placesText(rep *Report) string {
	parts := make([]string, 0, len(rep.Places))
	for i, pl := range rep.Places {
		if i < len(rep.Players) {
			parts = append(parts, fmt.Sprintf("%d %s", pl, rep.Players[i].Nick))
		}
	}
	return strings.Join(parts, ", ")
}

// at is s[i], or 0 past its end (a report built in code).
func at(s []int, i int) int {
	if i < len(s) {
		return s[i]
	}
	return 0
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
	fmt.Fprintf(b, "\nFinal score: %s\n", finalScores(rep))
	if len(rep.Places) > 0 {
		fmt.Fprintf(b, "Places (%s tiebreak): %s\n", rep.Tiebreak, placesText(rep))
	}
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
