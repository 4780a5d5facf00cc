package review

import (
	"cmp"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"scrabble/rules"
	"slices"
	"strconv"
	"strings"
)

// Collection is several games reviewed together: each game's report and a
// summary over all of them. Its JSON form (WriteCollectionJSON) is, like a
// Report's, a stable contract.
type Collection struct {
	Games   []*Report         `json:"games"`
	Summary CollectionSummary `json:"summary"`
}

// CollectionSummary sums up the reviewed turns of all the games.
type CollectionSummary struct {
	Games int `json:"games"`
	// Players sums up each player over the games they played, a player
	// being matched across games by nickname, ignoring case (the spelling
	// of the first game is kept); in the order first met.
	Players []PlayerTotal `json:"players"`
	// Total sums up every reviewed turn of every player (Player "").
	Total PlayerSummary `json:"total"`
	// Costliest are the turns of all the games that gave up the most
	// equity, most first, each naming its game's file.
	Costliest []Costly `json:"costliest"`
}

// PlayerTotal is a player's summary over several games.
type PlayerTotal struct {
	PlayerSummary
	Games int `json:"games"` // in which the player's turns were reviewed
}

// Collect sums up reports reviewed one by one.
func Collect(reps []*Report) *Collection {
	c := &Collection{Games: reps, Summary: CollectionSummary{Games: len(reps), Players: []PlayerTotal{}, Costliest: []Costly{}}}
	at := map[string]int{} // lower-case nickname -> index in Players
	var costly []Costly
	for gi, rep := range reps {
		for _, ps := range rep.Summary.Players {
			key := strings.ToLower(ps.Player)
			i, ok := at[key]
			if !ok {
				i = len(c.Summary.Players)
				at[key] = i
				c.Summary.Players = append(c.Summary.Players, PlayerTotal{PlayerSummary: PlayerSummary{Player: ps.Player}})
			}
			pt := &c.Summary.Players[i]
			pt.Games++
			pt.add(&ps)
			c.Summary.Total.add(&ps)
		}
		for _, ct := range rep.Summary.Costliest {
			ct.File, ct.game = rep.File, gi
			costly = append(costly, ct)
		}
	}
	for i := range c.Summary.Players {
		c.Summary.Players[i].finish()
	}
	c.Summary.Total.finish()
	slices.SortStableFunc(costly, func(a, b Costly) int { return cmp.Compare(b.EquityLost, a.EquityLost) })
	c.Summary.Costliest = append(c.Summary.Costliest, costly[:min(len(costly), MaxCostliest)]...)
	return c
}

func (s *PlayerSummary) add(o *PlayerSummary) {
	s.Turns += o.Turns
	s.Skipped += o.Skipped
	s.EquityLost += o.EquityLost
	s.BestMoves += o.BestMoves
	s.MissedBingos += o.MissedBingos
	s.Phonies += o.Phonies
}

// finish works out the mean and rounds, once everything is added.
func (s *PlayerSummary) finish() {
	s.EquityLost = rules.RoundMilli(s.EquityLost)
	s.MeanEquityLost = 0
	if s.Turns > 0 {
		s.MeanEquityLost = rules.RoundMilli(s.EquityLost / float64(s.Turns))
	}
}

// WriteCollectionJSON writes the collection as one indented JSON object.
func WriteCollectionJSON(w io.Writer, c *Collection) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(c)
}

// WriteCollectionText writes each game's review (see WriteText), then the
// summary over all the games.
func WriteCollectionText(w io.Writer, c *Collection) error {
	for i, rep := range c.Games {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"+strings.Repeat("=", 72)+"\n\n"); err != nil {
				return err
			}
		}
		if err := WriteText(w, rep); err != nil {
			return err
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\n\nSummary over %s (players matched by nickname)\n", strings.Repeat("=", 72), gamesCount(len(c.Games)))
	var rows [][]string
	for _, p := range append(c.Summary.Players, PlayerTotal{PlayerSummary: c.Summary.Total, Games: len(c.Games)}) {
		name := p.Player
		if name == "" {
			name = "all"
		}
		rows = append(rows, []string{name, strconv.Itoa(p.Games), strconv.Itoa(p.Turns), strconv.Itoa(p.Skipped), points(p.EquityLost),
			points(p.MeanEquityLost), strconv.Itoa(p.BestMoves), strconv.Itoa(p.MissedBingos), strconv.Itoa(p.Phonies)})
	}
	writeTable(&b, "", []string{"PLAYER", "GAMES", "TURNS", "SKIPPED", "EQUITY LOST", "MEAN", "BEST", "MISSED BINGOS", "PHONIES"},
		[]bool{false, true, true, true, true, true, true, true, true}, rows)
	if len(c.Summary.Costliest) > 0 {
		b.WriteString("\nCostliest turns of all the games:\n")
		rows = rows[:0]
		for _, ct := range c.Summary.Costliest {
			rows = append(rows, []string{ct.File, strconv.Itoa(ct.Turn), ct.Player, ct.Played, ct.Best, points(ct.EquityLost)})
		}
		writeTable(&b, "  ", []string{"FILE", "TURN", "PLAYER", "PLAYED", "BEST", "LOST"}, []bool{false, true, false, false, false, true}, rows)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteHTMLIndex writes the page that links the games' pages (pages[i] is
// the address of c.Games[i]'s page, relative to the index) with each game's
// summary and the summary over all of them.
func WriteHTMLIndex(w io.Writer, c *Collection, pages []string) error {
	if len(pages) != len(c.Games) {
		return fmt.Errorf("review: %d pages for %d games", len(pages), len(c.Games))
	}
	page := indexPage{C: c}
	for i, rep := range c.Games {
		scores := make([]string, len(rep.Players))
		for j, p := range rep.Players {
			scores[j] = fmt.Sprintf("%s %d", p.Nick, at(rep.Recorded, j))
		}
		page.Games = append(page.Games, indexGame{R: rep, Page: pages[i], Title: pageTitle(rep), Scores: strings.Join(scores, ", ")})
	}
	for _, ct := range c.Summary.Costliest {
		page.Costliest = append(page.Costliest, indexCostly{C: ct, Page: pages[ct.game]})
	}
	return indexTemplate.Execute(w, &page)
}

type indexPage struct {
	C         *Collection
	Games     []indexGame
	Costliest []indexCostly
}

type indexGame struct {
	R           *Report
	Page, Title string
	Scores      string // "ann 320, ben 300"
}

type indexCostly struct {
	C    Costly
	Page string
}

var indexTemplate = template.Must(template.New("index").Funcs(template.FuncMap{"points": points}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Review of {{.C.Summary.Games}} games</title>
<style>
body { font: 15px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #222; margin: 0 auto; max-width: 1000px; padding: 0 16px 48px; }
h1 { font-size: 1.6em; margin: 0.8em 0 0.2em; }
h2 { font-size: 1.2em; margin: 1.6em 0 0.4em; border-bottom: 1px solid #ddd; }
.meta { color: #666; margin: 0; }
table { border-collapse: collapse; }
table.data th, table.data td { padding: 2px 10px; text-align: left; vertical-align: top; }
table.data td.num, table.data th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.data thead th { border-bottom: 1px solid #999; }
table.data tbody tr.game td { border-top: 1px solid #ddd; }
</style>
</head>
<body>
<h1>Review of {{.C.Summary.Games}} games</h1>
<p class="meta">Players are matched across games by nickname, ignoring case.</p>

<section id="players">
<h2>Players over all the games</h2>
<table class="data">
<thead><tr><th>Player</th><th class="num">Games</th><th class="num">Turns</th><th class="num">Skipped</th><th class="num">Equity lost</th><th class="num">Mean</th><th class="num">Best moves</th><th class="num">Missed bingos</th><th class="num">Phonies</th></tr></thead>
<tbody>
{{range .C.Summary.Players}}<tr><td>{{.Player}}</td><td class="num">{{.Games}}</td><td class="num">{{.Turns}}</td><td class="num">{{.Skipped}}</td><td class="num">{{points .EquityLost}}</td><td class="num">{{points .MeanEquityLost}}</td><td class="num">{{.BestMoves}}</td><td class="num">{{.MissedBingos}}</td><td class="num">{{.Phonies}}</td></tr>
{{end}}{{with .C.Summary.Total}}<tr><td><b>all</b></td><td class="num">{{$.C.Summary.Games}}</td><td class="num">{{.Turns}}</td><td class="num">{{.Skipped}}</td><td class="num">{{points .EquityLost}}</td><td class="num">{{points .MeanEquityLost}}</td><td class="num">{{.BestMoves}}</td><td class="num">{{.MissedBingos}}</td><td class="num">{{.Phonies}}</td></tr>{{end}}
</tbody>
</table>
</section>

<section id="games">
<h2>Games</h2>
<table class="data">
<thead><tr><th>Game</th><th>Final score</th><th>Player</th><th class="num">Turns</th><th class="num">Skipped</th><th class="num">Equity lost</th><th class="num">Mean</th><th class="num">Missed bingos</th><th class="num">Phonies</th></tr></thead>
<tbody>
{{range .Games}}{{$g := .}}{{range $i, $p := .R.Summary.Players}}<tr{{if eq $i 0}} class="game"{{end}}>{{if eq $i 0}}<td rowspan="{{len $g.R.Summary.Players}}"><a href="{{$g.Page}}">{{$g.Title}}</a><br><small>{{$g.R.File}} · {{$g.R.Lexicon}}</small></td><td rowspan="{{len $g.R.Summary.Players}}">{{$g.Scores}}</td>{{end}}<td>{{.Player}}</td><td class="num">{{.Turns}}</td><td class="num">{{.Skipped}}</td><td class="num">{{points .EquityLost}}</td><td class="num">{{points .MeanEquityLost}}</td><td class="num">{{.MissedBingos}}</td><td class="num">{{.Phonies}}</td></tr>
{{end}}{{end}}</tbody>
</table>
</section>

{{if .Costliest}}<section id="costliest">
<h2>Costliest turns of all the games</h2>
<table class="data">
<thead><tr><th>Game</th><th class="num">Turn</th><th>Player</th><th>Played</th><th>Best</th><th class="num">Lost</th></tr></thead>
<tbody>
{{range .Costliest}}<tr><td>{{.C.File}}</td><td class="num"><a href="{{.Page}}#turn-{{.C.Turn}}">{{.C.Turn}}</a></td><td>{{.C.Player}}</td><td>{{.C.Played}}</td><td>{{.C.Best}}</td><td class="num">{{points .C.EquityLost}}</td></tr>
{{end}}</tbody>
</table>
</section>{{end}}
</body>
</html>
`))

// gamesCount is "1 game" or "N games".
func gamesCount(n int) string {
	if n == 1 {
		return "1 game"
	}
	return fmt.Sprintf("%d games", n)
}
