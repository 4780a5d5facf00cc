// Package benchset holds the benchmark position set: every turn of the
// project's own seeded games, committed as CGP and embedded, with its
// reader and the games that made it. It is apart from package benchmarks so
// that the scrabble binary (scrabble bench) and the benchmarks share one
// set without the binary linking the benchmarks.
package benchset
