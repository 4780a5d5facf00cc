package splitmix

import "testing"

// TestMix pins the finaliser's values: every seed in the engine goes
// through it, so a change would change every game.
func TestMix(t *testing.T) {
	for _, c := range []struct{ in, want uint64 }{
		{0, 0xE220A8397B1DCDAF},
		{1, 0x910A2DEC89025CC1},
	} {
		if got := Mix(c.in); got != c.want {
			t.Errorf("Mix(%d) = %#X, want %#X", c.in, got, c.want)
		}
	}
}
