package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"scrabble/lexica"
)

func newCheckCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "check WORD...",
		Short: "Check whether words are valid in the lexicon",
		Long: `Check each WORD (case-insensitive) against the lexicon and print
"WORD valid" or "WORD invalid". The exit status is 1 if any word is invalid.`,
		Example: `  scrabble check QUIXOTIC ZZZ
  scrabble --lexicon NWL23 check qi za
  scrabble --lexicon ./words.txt check CAT`,
		Args: args(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, words []string) error {
			g, err := a.reg.Resolve(a.v.GetString("lexicon"))
			if err != nil {
				return err
			}
			invalid := false
			for _, w := range words {
				up := upperASCII(w)
				why := wordProblem(up)
				switch {
				case why != "":
					fmt.Fprintf(a.stdout, "%s invalid (%s)\n", displayWord(up), why)
					invalid = true
				case g.Contains(up):
					fmt.Fprintf(a.stdout, "%s valid\n", up)
				default:
					fmt.Fprintf(a.stdout, "%s invalid\n", up)
					invalid = true
				}
			}
			if invalid {
				return exitStatus(1)
			}
			return nil
		},
	}
}

// upperASCII upper-cases a-z and leaves everything else alone.
func upperASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// wordProblem says why w (upper case) cannot be a word, or "" if it could.
func wordProblem(w string) string {
	if w == "" {
		return "empty word"
	}
	for _, r := range w {
		if r < 'A' || r > 'Z' {
			return fmt.Sprintf("%q is not a letter A-Z", r)
		}
	}
	if len(w) > lexica.MaxWordLength {
		return fmt.Sprintf("longer than %d letters", lexica.MaxWordLength)
	}
	return ""
}

// displayWord quotes a word that would not read clearly as is.
func displayWord(w string) string {
	for _, r := range w {
		if r <= ' ' || r == 0x7f {
			return fmt.Sprintf("%q", w)
		}
	}
	if w == "" {
		return `""`
	}
	return w
}
