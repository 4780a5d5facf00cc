// Package game plays one game between two engine players under the NASPA
// rules: the Player interface and the View a player sees, the score and
// equity players, the Record of a game, and Play (or a Table, which reuses
// its move generator from game to game). Tournaments are in selfplay, the
// sim player in sim.
package game
