package lexica_test

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"scrabble/lexica"
)

func TestParseWordList(t *testing.T) {
	tests := []struct {
		name    string
		input   string
		want    []string
		tooLong int
	}{
		{"plain", "CAT\nDOG\n", []string{"CAT", "DOG"}, 0},
		{"no trailing newline", "CAT\nDOG", []string{"CAT", "DOG"}, 0},
		{"case-insensitive and sorted", "dog\nCat\n", []string{"CAT", "DOG"}, 0},
		{"first token only", "CAT a small feline\n  DOG\tcanine\n", []string{"CAT", "DOG"}, 0},
		{"comments and blanks", "# header\n\nCAT\n   \n#DOG\n", []string{"CAT"}, 0},
		{"CRLF", "CAT\r\nDOG\r\n", []string{"CAT", "DOG"}, 0},
		{"duplicates", "CAT\ncat\nCAT\n", []string{"CAT"}, 0},
		{"too long skipped", "CAT\nABCDEFGHIJKLMNOP\n", []string{"CAT"}, 1},
		{"fifteen kept", "ABCDEFGHIJKLMNO\n", []string{"ABCDEFGHIJKLMNO"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wl, err := lexica.ParseWordList("words.txt", []byte(tc.input))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(wl.Words, tc.want) {
				t.Errorf("words = %q, want %q", wl.Words, tc.want)
			}
			if wl.TooLong != tc.tooLong {
				t.Errorf("TooLong = %d, want %d", wl.TooLong, tc.tooLong)
			}
			if wl.SHA256 != sha256.Sum256([]byte(tc.input)) {
				t.Error("SHA256 is not the source's")
			}
		})
	}
}

func TestParseWordListErrors(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"digit", "CAT\nD0G\n", "words.txt:2:2:"},
		{"accent", "CAT\nCAFÉ\n", `words.txt:2:4: 'É'`},
		{"hyphen after blank lines", "\n\nCAT\nX-RAY\n", "words.txt:4:2:"},
		{"indented", "  B@D\n", "words.txt:1:4:"},
		{"empty", "", "no words"},
		{"only comments", "# nothing\n", "no words"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := lexica.ParseWordList("words.txt", []byte(tc.input))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestReadWordListMissingFile(t *testing.T) {
	_, err := lexica.ReadWordList(filepath.Join(t.TempDir(), "nope.txt"))
	if err == nil || !strings.Contains(err.Error(), "nope.txt") {
		t.Fatalf("error %v should name the file", err)
	}
}

func TestReadWordListFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "w.txt")
	if err := os.WriteFile(p, []byte("QI\nZA\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wl, err := lexica.ReadWordList(p)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(wl.Words, []string{"QI", "ZA"}) {
		t.Errorf("words = %q", wl.Words)
	}
}

// FuzzParseWordList: never a panic; whatever parses is sorted, distinct,
// upper case A-Z and at most 15 letters.
func FuzzParseWordList(f *testing.F) {
	f.Add([]byte("CAT\nDOG\n"))
	f.Add([]byte("# c\n\ncat  x\r\nZZZ"))
	f.Add([]byte("CAFÉ\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		wl, err := lexica.ParseWordList("fuzz.txt", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.txt:") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for i, w := range wl.Words {
			if len(w) == 0 || len(w) > lexica.MaxWordLength {
				t.Fatalf("word %q has a bad length", w)
			}
			for _, c := range []byte(w) {
				if c < 'A' || c > 'Z' {
					t.Fatalf("word %q is not upper case A-Z", w)
				}
			}
			if i > 0 && wl.Words[i-1] >= w {
				t.Fatalf("words not sorted and distinct: %q, %q", wl.Words[i-1], w)
			}
		}
	})
}

// TestReadWordListSizeLimit: a word list past the limit is refused with the
// file and the limit named, before it is read (a sparse file, so the test
// writes nothing), and a stream past it is cut off at the limit.
func TestReadWordListSizeLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.txt")
	if err := os.WriteFile(path, []byte("CAT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, lexica.MaxWordListBytes+1); err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func(string) error{
		"ReadWordList": func(p string) error { _, err := lexica.ReadWordList(p); return err },
		"HashWordList": func(p string) error { _, err := lexica.HashWordList(p); return err },
	} {
		err := read(path)
		if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "limit of 64 MB") {
			t.Errorf("%s of a file of 64 MB and a byte: %v, want the file and the limit named", name, err)
		}
	}
	if err := os.Truncate(path, 4); err != nil {
		t.Fatal(err)
	}
	if wl, err := lexica.ReadWordList(path); err != nil || len(wl.Words) != 1 || wl.SHA256 != sha256.Sum256([]byte("CAT\n")) {
		t.Errorf("the same file cut to CAT: %v %v", wl, err)
	}
}
