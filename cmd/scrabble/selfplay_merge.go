package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"scrabble/rules"
	"scrabble/selfplay"
)

// mergeJSON is selfplay merge's --json summary: the run's summary, as
// selfplay --json gives it, without the figures of time and threads (a
// merged run was played on many machines) or the shard count, so that it
// is the same however the run was cut.
type mergeJSON struct {
	*selfplay.Summary
	Lexicon     string `json:"lexicon"`
	Seed        uint64 `json:"seed"`
	Pairs       bool   `json:"pairs"`
	Tiebreak    string `json:"tiebreak"`
	TargetScore int    `json:"target_score,omitempty"`
}

func newSelfplayMergeCmd(a *app) *cobra.Command {
	var (
		out    string
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "merge --out DIR SHARD_DIR...",
		Short: "Put the shards of a self-play run together (selfplay --shard K/M)",
		Long: `Put together the directories of the shards of one self-play run, each
written by 'scrabble selfplay --shard K/M --out DIR' on any machine, into
--out: results.jsonl with every game in game order, every game's GCG file,
and the run's settings, as one machine playing the whole run would have
written them. Then print the run's summary (--json: as selfplay --json,
without the time and thread figures).

The shards must be 1 to M of the same run (the same settings, M the same),
each once and finished: a shard of other settings, one missing or given
twice, a game missing or doubled are errors, and nothing is written. A
directory of an unsharded run is shard 1/1, so merging it alone writes its
results in game order and prints the summary any merge of its shards
prints. Resume an unfinished shard with selfplay --resume first.`,
		Example: `  scrabble selfplay --games 100000 --pairs --seed 7 --shard 1/3 --out part1   # on machine 1
  scrabble selfplay --games 100000 --pairs --seed 7 --shard 2/3 --out part2   # on machine 2
  scrabble selfplay --games 100000 --pairs --seed 7 --shard 3/3 --out part3   # on machine 3
  scrabble selfplay merge --out run part1 part2 part3`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, dirs []string) error {
			if out == "" {
				return usagef("--out DIR is required: the directory of the merged run")
			}
			m, err := selfplay.Merge(out, dirs)
			if err != nil {
				return err
			}
			get := func(name string) string { v, _ := m.Settings.Get(name); return v }
			tb := rules.TiebreakNASPA
			if v := get("tiebreak"); v != "" {
				if tb, err = rules.ParseTiebreak(v); err != nil {
					return fmt.Errorf("%s: %w", out, err)
				}
			}
			seed, _ := strconv.ParseUint(get("seed"), 10, 64)
			target, _ := strconv.Atoi(get("target-score"))
			pairs := get("pairs") == "true"
			s := selfplay.Summarize(m.Results, tb)
			s.Planned, s.Played = len(m.Results), len(m.Results)
			if asJSON {
				data, err := json.Marshal(mergeJSON{Summary: &s, Lexicon: get("lexicon"), Seed: seed, Pairs: pairs,
					Tiebreak: tb.String(), TargetScore: target})
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s\n", data)
				return nil
			}
			names := make([]string, len(s.Players))
			for i, p := range s.Players {
				names[i] = p.Name
			}
			head := fmt.Sprintf("%s: %s, lexicon %s, seed %d", strings.Join(names, " vs "), plural(s.Games, "game"), get("lexicon"), seed)
			if pairs {
				head += ", pairs"
			}
			if target > 0 {
				head += fmt.Sprintf(", target score %d", target)
			}
			if tb != rules.TiebreakNASPA {
				head += ", tiebreak " + tb.String()
			}
			fmt.Fprintln(a.stdout, head)
			fmt.Fprintf(a.stdout, "Merged from %s into %s\n\n", plural(m.Shards, "shard"), out)
			return writeSummaryBody(a.stdout, &s)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&out, "out", "o", "", "directory of the merged run (results.jsonl, the GCG files, settings.json)")
	f.BoolVar(&asJSON, "json", false, "print the summary as one JSON object")
	return cmd
}
