package train

import (
	"scrabble/eval"
	"scrabble/game"
	"scrabble/movegen"
	"scrabble/rules"
)

// ObserveLeaves adds a game's evidence about leaves to stats: for every turn
// after which the player drew tiles (so the leave mattered), the leave kept
// and what the same player's next turn was worth: its score, plus, when
// leaves is not nil and that turn too was followed by a draw, the value
// leaves gives the leave it kept. The second term lets a leave's worth
// reach beyond one turn (each generation bootstraps from the one before).
// A turn with no next turn for that player tells nothing and is skipped.
func ObserveLeaves(stats *eval.LeaveStats, rec *game.Record, leaves movegen.LeaveValuer) {
	for i := range rec.Turns {
		t := &rec.Turns[i]
		if t.Drawn.Count() == 0 {
			continue
		}
		for j := i + 1; j < len(rec.Turns); j++ {
			next := &rec.Turns[j]
			if next.Player != t.Player {
				continue
			}
			worth := int64(rules.FromPoints(next.Score))
			if leaves != nil && next.Drawn.Count() > 0 {
				kept := next.Rack
				kept.Sub(next.Move.Used())
				worth += int64(leaves.LeaveValue(&kept))
			}
			leave := t.Rack
			leave.Sub(t.Move.Used())
			stats.ObserveValue(&leave, worth)
			break
		}
	}
}

// ObserveRackLeaves adds a game's evidence about leaves to stats the other
// way: for every turn played from a full rack with tiles still to draw, the
// worth of the move made (its score plus, when leaves is not nil, the value
// leaves gives the tiles it kept: the move's equity) goes to every leave
// the rack holds (eval.LeaveStats.ObserveSubsets). A leave's value is then
// what a rack holding it was worth.
func ObserveRackLeaves(stats *eval.LeaveStats, rec *game.Record, leaves movegen.LeaveValuer) {
	for i := range rec.Turns {
		t := &rec.Turns[i]
		if t.Drawn.Count() == 0 || t.Rack.Count() != rules.RackSize {
			continue
		}
		worth := int64(rules.FromPoints(t.Score))
		if leaves != nil {
			kept := t.Rack
			kept.Sub(t.Move.Used())
			worth += int64(leaves.LeaveValue(&kept))
		}
		stats.ObserveSubsets(&t.Rack, worth)
	}
}
