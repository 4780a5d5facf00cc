// Package movegen lists every legal move of a position with its exact score:
// plays found with Gordon's GADDAG algorithm from each anchor square, across
// and down through one code path over the board and its transpose, plus
// exchanges and the pass. Cross-check sets and cross-word scores are kept per
// square and updated only where a placed move touches the board.
package movegen
