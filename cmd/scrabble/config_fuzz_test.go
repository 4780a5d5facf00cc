package main

import (
	"io"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseConfig: a config file either fails naming the file, or gives
// settings of known keys only, each value one its key accepts and the typed
// ones (seed, threads) readable as their type.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"lexicon: NWL23\nthreads: 4\nseed: 7\n", "workers: 3\nthreads: 2\n", "threads: none\n", "seed: -1\n",
		"seed: 18446744073709551616\n", "threads:\n", "- a\n- b\n", "data-dir: ~/x\nfoo: 1\n", "threads: [1, 2]\n",
		"a: &x [1]\nb: *x\n", "threads: 0x10\n", "threads: 1e3\n", "seed: 1_000\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		settings, err := parseConfig("c.yaml", data, io.Discard)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "config file c.yaml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for k, v := range settings {
			key := k
			if to, ok := configAliases[k]; ok {
				key = to
			}
			check, ok := configChecks[key]
			if !ok {
				t.Fatalf("unknown key %q accepted", k)
			}
			s, ok := v.(string)
			if !ok || check(s) != nil {
				t.Fatalf("%s: value %#v accepted", k, v)
			}
			switch key {
			case "threads":
				if n, err := strconv.Atoi(s); err != nil || n < 1 {
					t.Fatalf("threads %q accepted", s)
				}
			case "seed":
				if _, err := strconv.ParseUint(s, 10, 64); err != nil {
					t.Fatalf("seed %q accepted", s)
				}
			}
		}
	})
}
