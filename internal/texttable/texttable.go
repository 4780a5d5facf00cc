// Package texttable lays out the plain-text tables of the command line and
// the review reports: columns two spaces apart, widths counted in runes.
package texttable

import (
	"io"
	"strings"
)

// Write writes rows under header, each line starting with indent. Columns
// marked in right are right aligned; the last column is not padded, and
// trailing spaces are trimmed.
func Write(w io.Writer, indent string, header []string, right []bool, rows [][]string) error {
	all := append([][]string{header}, rows...)
	width := make([]int, len(header))
	for _, r := range all {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	var b, line strings.Builder
	for _, r := range all {
		line.Reset()
		line.WriteString(indent)
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			switch {
			case right[i]:
				line.WriteString(pad + c)
			case i == len(r)-1:
				line.WriteString(c)
			default:
				line.WriteString(c + pad)
			}
			if i < len(r)-1 {
				line.WriteString("  ")
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
