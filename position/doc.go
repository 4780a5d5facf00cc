// Package position reads, writes and checks a game state outside a game:
// Position (the board, both racks, the scores, the scoreless-turn count and
// CGP opcodes such as the last move), its two text forms, CGP (ParseCGP,
// Position.CGP) and the 15-line grid (ParseGrid; rules.Board.GridString
// writes it), Parse that tells them apart, Validate, and Error, which locates
// a problem in its file. It also draws a board for a terminal (RenderBoard,
// RenderLegend): the board as people see it, beside its text forms, and
// only the commands print it. The rules of the game stay in package rules.
package position
