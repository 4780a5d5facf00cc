// Package sim ranks the candidate moves of a position by Monte Carlo
// simulation (Simulator, with its Options, Position, Candidate and
// Result), and makes the sim player, which picks each move that way.
package sim
