package hugemem

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

func TestMakeSizesAndZeroes(t *testing.T) {
	type slot struct{ key, val uint64 }
	for _, n := range []int{0, 1, 1000, minBytes/16 - 1, minBytes / 16, 3 << 20 / 16, 5<<20/16 + 7} {
		s := Make[slot](n)
		if len(s) != n || cap(s) != n {
			t.Fatalf("Make(%d): len %d cap %d", n, len(s), cap(s))
		}
		for i := range s {
			if s[i] != (slot{}) {
				t.Fatalf("Make(%d): element %d not zero", n, i)
			}
			s[i] = slot{uint64(i), ^uint64(i)}
		}
		for i := range s {
			if s[i].key != uint64(i) || s[i].val != ^uint64(i) {
				t.Fatalf("Make(%d): element %d reads back %v", n, i, s[i])
			}
		}
	}
}

func TestMakeRejectsPointers(t *testing.T) {
	for name, f := range map[string]func(){
		"pointer": func() { Make[*int](1 << 20) },
		"slice":   func() { Make[[]byte](1 << 20) },
		"struct string": func() {
			Make[struct {
				a int
				s string
			}](1 << 20)
		},
		"array of maps": func() { Make[[2]map[int]int](1 << 20) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// On Linux with transparent huge pages on request (or always), a big table
// starts on a huge-page boundary and the kernel backs it with huge pages.
func TestMakeUsesHugePages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are asked for on Linux only")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(mode), "[madvise]") && !strings.Contains(string(mode), "[always]") {
		t.Skipf("transparent huge pages not available: %q %v", mode, err)
	}
	s := Make[uint64](4 << 20 / 8)
	start := uintptr(unsafe.Pointer(&s[0]))
	if start%hugePage != 0 {
		t.Fatalf("table at %#x: not on a huge-page boundary", start)
	}
	for i := 0; i < len(s); i += 512 {
		s[i] = 1 // fault every 4 KB page in
	}
	kb, err := anonHugeKB(start)
	if err != nil {
		t.Fatal(err)
	}
	if kb == 0 {
		// With defrag "madvise" (or "always", "defer+madvise") a fault in
		// an advised mapping compacts memory for a huge page if need be;
		// otherwise the kernel may have had none free to give.
		defrag, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/defrag")
		if !strings.Contains(string(defrag), "madvise]") && !strings.Contains(string(defrag), "[always]") {
			t.Skipf("no huge pages given, and defrag is %q", defrag)
		}
		t.Errorf("the table got no huge pages (defrag %q)", strings.TrimSpace(string(defrag)))
	}
	runtime.KeepAlive(s)
}

// anonHugeKB reads the AnonHugePages of the mapping holding addr from
// /proc/self/smaps.
func anonHugeKB(addr uintptr) (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := strings.Cut(strings.Fields(line)[0], "-"); ok && !strings.HasSuffix(lo, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= a && uint64(addr) < b
			continue
		}
		if in && strings.HasPrefix(line, "AnonHugePages:") {
			return strconv.Atoi(strings.Fields(line)[1])
		}
	}
	return 0, sc.Err()
}
