// Package endgame solves Scrabble endgames exactly: with the bag empty both
// racks are known and nothing is left to chance, so the best move is a
// matter of search, not of estimates.
//
// # What it solves
//
// Solve takes a position whose bag is empty (the board and both racks hold
// the whole tile set; an opponent's rack left empty is taken to be the
// unseen tiles when they fit on a rack) and returns the best first move,
// its value, a principal variation to the end of the game with both racks
// and every score, the depth, the node count and the time. The value is
// the change in spread, mover's score minus opponent's, from the position
// to the end of the game with best play by both sides, end-of-game
// adjustments included.
//
// # Rules
//
//   - Going out (playing one's last tile) ends the game; the player who went
//     out adds twice the face value of the tiles left on the opponent's rack.
//   - Options.ScorelessTurns consecutive scoreless turns (passes, and plays
//     scoring 0) end the game; each player then loses the value of their own
//     rack. The default is 6, NASPA's rule. MAGPIE's endgame solver uses 2 (a
//     pass answered by a pass ends it): set 2 to compare with it.
//   - The position's count of scoreless turns (the CGP's) is where the count
//     starts. It counts turns under the six-turn rule: under a shorter rule
//     of n turns, as MAGPIE reads it, a position with fewer turns left
//     before the end than n keeps that number left, and any other starts
//     from 0 (so under n = 2 a count of 5 starts at 1, anything less at 0).
//   - A pass is always a legal move; exchanges are not (the bag is empty).
//     A player who cannot play passes, so stuck tiles need no special case.
//
// # Search
//
// Negamax with alpha-beta and principal-variation search, iterative
// deepening one ply at a time until the root's value is complete: every line
// searched reached the end of the game, so no estimate entered the value
// and it is proven. A transposition table shared by all threads, keyed by
// Zobrist hashing of the board's tiles, both racks, the scoreless-turn
// count, the side to move and the rule, stores values relative to the side
// to move (so positions reached with other scores share an entry), each
// with its bound, depth and whether it is complete. Moves are tried in this
// order: going out, the table's move, then by score and the value and
// number of tiles played (the number weighing most), the pass last; the
// table's move, when the thread kept it whole, is tried before the moves
// are even listed, so a node it cuts costs no move generation. A leaf cut by the depth of an iteration is only there to order
// the next one and is valued statically (each side loses its rack); a
// depth-limited answer values it by a greedy playout instead.
//
// With several threads each runs the same iterative deepening on the shared
// table (Lazy SMP), and a thread defers a move another thread is searching at
// that moment (simplified ABDADA: at the root at every depth, below it three
// plies or more from the depth limit), so that they split the work. The proven value
// does not depend on the number of threads (the best move may differ among
// moves of equal value).
//
// # Options
//
//   - TTMB: the table's size in megabytes (default 256). Tables are kept
//     from one solve to the next (at most two), so a caller solving many
//     positions does not pay for clearing them.
//   - Threads: the threads searching (default 1).
//   - ScorelessTurns: see Rules (default 6).
//   - Plies: a depth limit (default none): the answer is the best move at
//     that depth, its leaves valued by greedy playouts (both sides play
//     their highest-scoring move to the end), and Result.Proven is false
//     unless every line ended within the limit. A context with a deadline
//     values leaves the same way and stops the search at the deadline, the
//     deepest iteration completed being the answer (the first iteration
//     always completes). Playouts make a proof about twice as slow, so an
//     exact solve is best asked for without a deadline; a context cancelled
//     without one (Ctrl-C) also returns the deepest iteration, its leaves
//     valued statically.
//
// The position's scores do not enter the value: add Value to the current
// spread for the final one.
//   - Top: also value the first moves and return the best Top of them in
//     Result.Ranked.
//   - Bag: a known bag, drawn from the front (a play draws as many tiles as it
//     used): the game with perfect information that a pre-endgame solver
//     (package peg) values for each draw order.
//   - Window: search a window instead of the full one; a value outside it is a
//     proven bound. Whether a play wins, ties or loses needs only the window
//     around the threshold, far cheaper than the exact value.
//   - ValueOnly: no principal variation.
package endgame
