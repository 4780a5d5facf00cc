// Package train learns the engine's evaluation from self-play: what a
// finished game teaches about leaves (ObserveLeaves, ObserveRackLeaves) and
// about winning chances (ObserveWins, TurnOutcomes).
package train
