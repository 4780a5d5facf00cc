// Package splitmix holds the SplitMix64 finaliser that game, sim and
// selfplay derive their seeds with: one function, so that a game's, a
// player's and a rollout's draws stay fixed by the seeds they are given.
package splitmix

// Mix is the SplitMix64 finaliser: a bijection on 64-bit words that
// scatters nearby inputs (consecutive game numbers) across the whole range.
func Mix(x uint64) uint64 {
	x += 0x9E37_79B9_7F4A_7C15
	x = (x ^ (x >> 30)) * 0xBF58_476D_1CE4_E5B9
	x = (x ^ (x >> 27)) * 0x94D0_49BB_1331_11EB
	return x ^ (x >> 31)
}
