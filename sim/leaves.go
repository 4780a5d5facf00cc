package sim

import (
	"scrabble/eval"
)

// ObserveLeaves adds a game's evidence about leaves to stats: for every turn
// after which the player drew tiles (so the leave mattered), the leave kept
// and the points the same player scored on their next turn. A turn with no
// next turn for that player tells nothing and is skipped.
func ObserveLeaves(stats *eval.LeaveStats, rec *GameRecord) {
	for i := range rec.Turns {
		t := &rec.Turns[i]
		if t.Drawn.Count() == 0 {
			continue
		}
		for j := i + 1; j < len(rec.Turns); j++ {
			if next := &rec.Turns[j]; next.Player == t.Player {
				leave := t.Rack
				leave.Sub(t.Move.Used())
				stats.Observe(&leave, next.Score)
				break
			}
		}
	}
}
