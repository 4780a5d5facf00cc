// Package move holds the move value every other package shares: a play, an
// exchange or a pass (Move, Kind), the orders that rank moves (ByScore,
// ByEquity, Compare), the notation players write (Parse, Notation,
// NotationOn) and Description, the form the commands' JSON output and the
// review report show. It knows the rules (package rules) but no lexicon:
// whether a move is legal is package referee's question.
package move
