package hugemem

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"slices"
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
// starts on a huge-page boundary and its mapping carries the advice (the
// "hg" flag in /proc/self/smaps). Whether the kernel then backs it with
// huge pages depends on the free memory, so that is only logged.
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
	m, err := mappingOf(start)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.flags, "hg") {
		t.Errorf("the table's mapping is not advised to use huge pages: VmFlags %v", m.flags)
	}
	t.Logf("AnonHugePages of the table's mapping: %d kB", m.anonHugeKB)
	runtime.KeepAlive(s)
}

type mapping struct {
	flags      []string // VmFlags
	anonHugeKB int
}

// mappingOf reads the mapping holding addr from /proc/self/smaps.
func mappingOf(addr uintptr) (mapping, error) {
	var m mapping
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return m, err
	}
	defer f.Close()
	in, found := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(fields[0], "-"); ok && !strings.HasSuffix(lo, ":") {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= a && uint64(addr) < b
			found = found || in
			continue
		}
		switch {
		case !in:
		case fields[0] == "AnonHugePages:" && len(fields) > 1:
			m.anonHugeKB, _ = strconv.Atoi(fields[1])
		case fields[0] == "VmFlags:":
			m.flags = fields[1:]
		}
	}
	if err := sc.Err(); err != nil {
		return m, err
	}
	if !found {
		return m, fmt.Errorf("no mapping holds %#x", addr)
	}
	return m, nil
}

// TestFreeUnmaps checks that Free gives a mapped table's memory back (its
// mapping leaves /proc/self/smaps) and leaves a small one from make alone.
func TestFreeUnmaps(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("tables are mapped on Linux only")
	}
	s := Make[uint64](4 << 20 / 8)
	s[0] = 1
	start := uintptr(unsafe.Pointer(&s[0]))
	if _, err := mappingOf(start); err != nil {
		t.Fatalf("before Free: %v", err)
	}
	Free(s)
	if m, err := mappingOf(start); err == nil {
		t.Errorf("after Free the table's memory is still mapped: %+v", m)
	}
	small := Make[uint64](16)
	small[0] = 7
	Free(small) // from make: nothing to unmap
	if small[0] != 7 {
		t.Error("Free changed a slice from make")
	}
	Free[uint64](nil)
}
