// Package benchmarks measures the engine's throughput across packages on
// the committed, realistic positions of internal/benchset (every turn of
// the project's own seeded games). It holds benchmarks and their tools
// only (tools/, HISTORY.md); the scrabble binary does not link it.
package benchmarks
