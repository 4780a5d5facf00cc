package eval

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"scrabble/rules"
)

// withChecksum replaces data's last 4 bytes by the CRC-32C of the rest: a
// corrupted file that still passes the checksum.
func withChecksum(data []byte) []byte {
	if len(data) >= 4 {
		binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli))
	}
	return data
}

// patched is base with patch written at off (wrapped into it), checksum fixed.
func patched(base []byte, off uint32, patch []byte) []byte {
	data := bytes.Clone(base)
	if len(data) > 0 {
		o := int(off % uint32(len(data)))
		copy(data[o:], patch)
	}
	return withChecksum(data)
}

var (
	fuzzBaseOnce         sync.Once
	winStatsBase, lsBase []byte
)

func fuzzBases(t testing.TB) ([]byte, []byte) {
	fuzzBaseOnce.Do(func() {
		var b bytes.Buffer
		if _, err := syntheticStats(2_000, 3).WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		winStatsBase = b.Bytes()
		ls := NewLeaveStats()
		for i, r := range []string{"AEINRST", "QU", "EEE", "S?"} {
			rack, err := rules.ParseRack(r)
			if err != nil {
				t.Fatal(err)
			}
			ls.ObserveSubsets(&rack, int64(1000*(i+10)))
		}
		b.Reset()
		if _, err := ls.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		lsBase = b.Bytes()
	})
	return winStatsBase, lsBase
}

// TestCorruptCheckpointsRefused: checkpoints corrupted with a valid checksum,
// counts that cannot have been observed, are refused.
func TestCorruptCheckpointsRefused(t *testing.T) {
	ws, ls := fuzzBases(t)
	const head = 8 + 4 + 4 + 4 + 8
	huge := binary.AppendUvarint(nil, 1<<63) // int64: negative
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"win stats: negative games", patched(ws, 20, binary.LittleEndian.AppendUint64(nil, 1<<63)), "games"},
		{"win stats: negative turns", patched(ws, head, append(bytes.Clone(huge), huge...)), "cell 0"},
		{"leave stats: negative total", patched(ls, 8+4+4+8, binary.LittleEndian.AppendUint64(nil, 1<<63)), "all turns"},
		{"leave stats: negative count", patched(ls, uint32(8+4+4+16+8*numLeaves), binary.LittleEndian.AppendUint64(nil, 1<<63)), "-9223372036854775808 turns"},
		{"leave stats: count above the turns", patched(ls, uint32(8+4+4+16+8*numLeaves), binary.LittleEndian.AppendUint64(nil, 1000)), "seen 1000 times in 4 turns"},
		{"leave stats: sum beyond the count", patched(ls, 8+4+4+16, binary.LittleEndian.AppendUint64(nil, 1<<62)), "millipoints from"},
	} {
		var err error
		if strings.HasPrefix(c.name, "win") {
			_, err = DecodeWinStats(c.data)
		} else {
			_, err = DecodeLeaveStats(c.data)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one saying %q", c.name, err, c.want)
		}
	}
	// Through the loader, the error names the file.
	path := filepath.Join(t.TempDir(), "w.stats")
	if err := os.WriteFile(path, patched(ws, 20, binary.LittleEndian.AppendUint64(nil, 1<<63)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadWinStats(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("LoadWinStats: %v, want an error naming %s", err, path)
	}
}

// FuzzDecodeWinStats: a win statistics file patched anywhere, its checksum
// made valid, is refused, or loads into statistics whose table is built
// (or refused for want of data) without a panic and passes NewWinPct's
// checks.
func FuzzDecodeWinStats(f *testing.F) {
	f.Add(uint32(20), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Add(uint32(28), []byte{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01})
	f.Add(uint32(100), []byte{5, 11})
	f.Add(uint32(12), []byte{1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, off uint32, patch []byte) {
		ws, _ := fuzzBases(t)
		s, err := DecodeWinStats(patched(ws, off, patch))
		if err != nil {
			return
		}
		if s.Games() < 0 || s.Observations() < 0 {
			t.Fatalf("accepted %d games, %d turns", s.Games(), s.Observations())
		}
		s.Merge(s)
		if s.Observations() < 0 {
			t.Fatal("merging an accepted file with itself overflows")
		}
		w, err := s.Table(20, 300)
		if err != nil {
			return
		}
		for u := 0; u <= w.MaxUnseen(); u++ {
			for sp := 0; sp <= w.MaxSpread(); sp += w.Step() {
				if p := w.Prob(float64(sp), u); !(p >= 0.5 && p <= 1) {
					t.Fatalf("P(%d, %d) = %g", sp, u, p)
				}
			}
		}
	})
}

// FuzzDecodeLeaveStats: a leave statistics file patched anywhere, its
// checksum made valid, is refused, or loads into statistics that are
// possible (counts not negative, none above the turns).
func FuzzDecodeLeaveStats(f *testing.F) {
	f.Add(uint32(24), []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f})
	f.Add(uint32(8+4+4+16+8*4), []byte{0, 0, 0, 0, 0, 0, 0, 0x80})
	f.Add(uint32(8), []byte{3})
	f.Fuzz(func(t *testing.T, off uint32, patch []byte) {
		_, ls := fuzzBases(t)
		s, err := DecodeLeaveStats(patched(ls, off, patch))
		if err != nil {
			return
		}
		if s.totalCount < 0 {
			t.Fatalf("accepted %d turns", s.totalCount)
		}
		for i, c := range s.count {
			if c < 0 || c > s.totalCount || checkSum(s.sum[i], c) != nil {
				t.Fatalf("accepted leave %d: %d turns of %d, %d millipoints", i, c, s.totalCount, s.sum[i])
			}
		}
	})
}
