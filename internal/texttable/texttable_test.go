package texttable

import (
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name   string
		indent string
		header []string
		right  []bool
		rows   [][]string
		want   string
	}{
		{
			name:   "alignment",
			header: []string{"#", "MOVE", "SCORE", "WORDS"},
			right:  []bool{true, false, true, false},
			rows:   [][]string{{"1", "8D QUIXOTE", "365", "QUIXOTE"}, {"10", "H4 QI", "22", "QI, XI"}},
			want: " #  MOVE        SCORE  WORDS\n" +
				" 1  8D QUIXOTE    365  QUIXOTE\n" +
				"10  H4 QI          22  QI, XI\n",
		},
		{
			name:   "indent, runes and an empty last column",
			indent: "  ",
			header: []string{"PLAYER", "NOTE"},
			right:  []bool{false, false},
			rows:   [][]string{{"Émely", ""}, {"doug", "pruned"}},
			want: "  PLAYER  NOTE\n" +
				"  Émely\n" +
				"  doug    pruned\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			if err := Write(&b, tt.indent, tt.header, tt.right, tt.rows); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}
