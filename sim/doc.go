// Package sim plays games between engine players: single games, self-play
// tournaments with statistics, and later Monte Carlo simulation of candidate
// moves.
package sim
