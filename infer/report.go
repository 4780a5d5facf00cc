package infer

import "scrabble/rules"

// Report is an inference as people and programs read it: what
// `scrabble infer --json` prints and the server's /api/infer answers
// (docs/json.md lists the fields).
type Report struct {
	Lexicon    string         `json:"lexicon"`
	Rack       string         `json:"rack"`
	LastMove   string         `json:"last_move"`
	Model      string         `json:"model"`
	Tau        float64        `json:"tau,omitempty"`
	Margin     *float64       `json:"margin,omitempty"`
	Floor      float64        `json:"floor,omitempty"`
	Uniform    bool           `json:"uniform"`
	Known      string         `json:"known"`
	Exact      bool           `json:"exact"`
	Racks      int            `json:"racks_valued"`
	Unseen     string         `json:"unseen"`
	LeaveTiles int            `json:"leave_tiles"`
	RackTiles  int            `json:"rack_tiles"`
	Leaves     []ReportLeave  `json:"leaves"`
	Count      int            `json:"leaves_total"`
	Letters    []ReportLetter `json:"letters"`
}

// ReportLeave is a leave the opponent may have kept and its chance.
type ReportLeave struct {
	Leave string  `json:"leave"`
	Prob  float64 `json:"prob"`
}

// ReportLetter is the chance that a letter ("?" for the blank) is on the
// opponent's rack now.
type ReportLetter struct {
	Letter string  `json:"letter"`
	Prob   float64 `json:"prob"`
}

// NewReport describes res, worked out with opts (their zero fields read as
// the defaults, as Infer reads them) for the player holding rack after the
// opponent's move last (as an lm opcode writes it), in the lexicon named:
// the top likeliest leaves (0: all) and every unseen letter's chance.
func NewReport(lexicon string, rack rules.Rack, last string, opts Options, res *Result, top int) *Report {
	_ = opts.fill() // the defaults; the options were checked when res was made
	out := &Report{Lexicon: lexicon, Rack: rack.String(), LastMove: last, Model: opts.Model.String(),
		Uniform: res.Uniform, Known: res.Known.String(), Exact: res.Exact, Racks: res.Racks, Unseen: res.Unseen.String(),
		LeaveTiles: res.LeaveTiles, RackTiles: res.RackTiles, Count: len(res.Leaves),
		Leaves: []ReportLeave{}}
	switch opts.Model {
	case Softmax:
		out.Tau = opts.Tau
	case Margin:
		m := opts.Margin
		if m < 1e-9 {
			m = 0
		}
		out.Margin, out.Floor = &m, opts.Floor
	}
	for i, l := range res.Leaves {
		if top > 0 && i == top {
			break
		}
		out.Leaves = append(out.Leaves, ReportLeave{Leave: l.Leave.String(), Prob: l.Prob})
	}
	marg := res.Marginals()
	for i := 1; i <= rules.RackSlots; i++ {
		slot := i % rules.RackSlots // letters, then the blank
		if res.Unseen[slot] == 0 {
			continue
		}
		letter := "?"
		if slot > 0 {
			letter = string(rune('A' + slot - 1))
		}
		out.Letters = append(out.Letters, ReportLetter{Letter: letter, Prob: marg[slot]})
	}
	return out
}
