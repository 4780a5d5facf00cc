// Package selfplay plays tournaments between engine players: the registry
// of players by name, games played in parallel with their seeds fixed by
// the game number, results.jsonl and resuming from it, one GCG file a game,
// and the summary statistics.
package selfplay
