package main

import (
	"encoding/hex"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"scrabble/gaddag"
	"scrabble/lexica"
	"scrabble/movegen"
)

func newLexiconCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "lexicon",
		Short: "Manage the compiled lexica in the data directory",
		Long: `Manage the compiled lexica in the data directory.

A lexicon is a word list (one word a line, A-Z, case-insensitive) compiled
into a GADDAG and stored as <data-dir>/lexica/<NAME>.gaddag. Names are
letters, digits, '-' and '_', matched case-insensitively. The default lexicon
is used when --lexicon is not given.`,
		Example: `  scrabble lexicon add NWL23 NWL23.txt --default
  scrabble lexicon list
  scrabble lexicon info NWL23`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(
		newLexiconAddCmd(a),
		newLexiconListCmd(a),
		newLexiconInfoCmd(a),
		newLexiconDefaultCmd(a),
		newLexiconRemoveCmd(a),
	)
	return cmd
}

func newLexiconAddCmd(a *app) *cobra.Command {
	var makeDefault bool
	cmd := &cobra.Command{
		Use:   "add NAME FILE",
		Short: "Compile a word list and install it as NAME",
		Long: `Compile the word list FILE (one word a line; '#' comments and blank lines
are skipped) and install it as NAME, replacing any lexicon of that name. The
first lexicon installed while no default is set becomes the default.`,
		Example: `  scrabble lexicon add CSW24 ~/lists/CSW24.txt
  scrabble lexicon add NWL23 NWL23.txt --default`,
		Args: args(cobra.ExactArgs(2)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			name, file := argv[0], argv[1]
			if !lexica.ValidName(name) {
				return usagef("invalid lexicon name %q: use letters, digits, '-' or '_'", name)
			}
			start := time.Now()
			p := startProgress(a.stderr, fmt.Sprintf("Installing %s from %s", name, file))
			a.reg.Progress = p.stage
			inf, err := a.reg.Add(name, file)
			a.reg.Progress = nil
			if err == nil {
				// The move generator's tables, stored beside the lexicon
				// now, so its first use starts as fast as any.
				p.stage("tables")
				var lex *gaddag.GADDAG
				if lex, err = a.reg.Resolve(inf.Name); err == nil {
					a.tablesFor(lex, movegen.Mapped)
				}
			}
			p.stop()
			if err != nil {
				return err
			}
			if makeDefault && !inf.Default {
				if err := a.reg.SetDefault(inf.Name); err != nil {
					return err
				}
				inf.Default = true
			}
			def := ""
			if inf.Default {
				def = " (default lexicon)"
			}
			fmt.Fprintf(a.stdout, "Installed %s: %s words, %s, in %s%s\n",
				inf.Name, thousands(inf.Words), humanSize(inf.Size), elapsed(time.Since(start)), def)
			return nil
		},
	}
	cmd.Flags().BoolVar(&makeDefault, "default", false, "also make it the default lexicon")
	return cmd
}

func newLexiconListCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List the installed lexica (* marks the default)",
		Example: `  scrabble lexicon list
  scrabble --data-dir /tmp/scrabble lexicon list`,
		Args: args(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			list, err := a.reg.List()
			if err != nil {
				return err
			}
			if len(list) == 0 {
				fmt.Fprintf(a.stdout, "No lexica installed in %s.\nAdd one with: scrabble lexicon add NAME FILE --default\n", a.reg.Dir)
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "\tNAME\tWORDS\tSIZE\tBUILT")
			for _, inf := range list {
				mark := ""
				if inf.Default {
					mark = "*"
				}
				if inf.Err != nil {
					fmt.Fprintf(tw, "%s\t%s\t-\t%s\tunreadable: %v\n", mark, inf.Name, humanSize(inf.Size), inf.Err)
					continue
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", mark, inf.Name, thousands(inf.Words),
					humanSize(inf.Size), inf.BuiltAt.UTC().Format("2006-01-02 15:04 MST"))
			}
			return tw.Flush()
		},
	}
}

func newLexiconInfoCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "info [NAME]",
		Short: "Describe an installed lexicon (the default one without NAME)",
		Example: `  scrabble lexicon info SOWPODS
  scrabble lexicon info`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			name, err := a.nameOrDefault(argv)
			if err != nil {
				return err
			}
			inf, err := a.reg.Info(name)
			if err != nil {
				return err
			}
			def := ""
			if inf.Default {
				def = " (default)"
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 0, 1, ' ', 0)
			fmt.Fprintf(tw, "Name:\t%s%s\n", inf.Name, def)
			fmt.Fprintf(tw, "Words:\t%s\n", thousands(inf.Words))
			fmt.Fprintf(tw, "Nodes:\t%s\n", thousands(inf.Nodes))
			fmt.Fprintf(tw, "File size:\t%s (%s bytes)\n", humanSize(inf.Size), thousands(int(inf.Size)))
			fmt.Fprintf(tw, "Source SHA-256:\t%s\n", hex.EncodeToString(inf.SourceSHA256[:]))
			fmt.Fprintf(tw, "Built:\t%s\n", inf.BuiltAt.UTC().Format("2006-01-02 15:04:05 MST"))
			fmt.Fprintf(tw, "Path:\t%s\n", inf.Path)
			return tw.Flush()
		},
	}
}

// nameOrDefault returns the lexicon named on the command line, or the default.
func (a *app) nameOrDefault(argv []string) (string, error) {
	if len(argv) > 0 {
		return argv[0], nil
	}
	def, err := a.reg.Default()
	if err != nil {
		return "", err
	}
	if def == "" {
		return "", lexica.ErrNoDefault
	}
	return def, nil
}

func newLexiconDefaultCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "default [NAME]",
		Short: "Set the default lexicon (print it without NAME)",
		Example: `  scrabble lexicon default CSW24
  scrabble lexicon default`,
		Args: args(cobra.MaximumNArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			if len(argv) == 0 {
				def, err := a.reg.Default()
				if err != nil {
					return err
				}
				if def == "" {
					fmt.Fprintln(a.stdout, "No default lexicon set.")
					return nil
				}
				fmt.Fprintln(a.stdout, def)
				return nil
			}
			if err := a.reg.SetDefault(argv[0]); err != nil {
				return err
			}
			def, err := a.reg.Default()
			if err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "Default lexicon: %s\n", def)
			return nil
		},
	}
}

func newLexiconRemoveCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "remove NAME",
		Aliases: []string{"rm"},
		Short:   "Uninstall a lexicon",
		Example: `  scrabble lexicon remove TWL06`,
		Args:    args(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, argv []string) error {
			inf, err := a.reg.Info(argv[0])
			name := argv[0]
			wasDefault := false
			if err == nil {
				name, wasDefault = inf.Name, inf.Default
			}
			if err := a.reg.Remove(argv[0]); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "Removed %s.\n", name)
			if wasDefault {
				fmt.Fprintln(a.stdout, "It was the default; set another with: scrabble lexicon default NAME")
			}
			return nil
		},
	}
}
