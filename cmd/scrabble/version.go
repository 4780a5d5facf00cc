package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// versionText describes the build from what the Go toolchain stamped into
// the binary: the module version, the commit it was built from (go build in
// a git checkout records vcs.revision, vcs.time and vcs.modified), and the
// toolchain. A binary built outside a checkout (go test, a tarball) has no
// commit, and says so.
func versionText(info *debug.BuildInfo, ok bool) string {
	version, revision, vcsTime, modified := "unknown", "", "", ""
	if ok && info != nil {
		if info.Main.Version != "" {
			version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.time":
				vcsTime = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "scrabble %s\n", version)
	switch {
	case revision == "":
		b.WriteString("commit:  unknown (not built from a git checkout)\n")
	case modified == "true":
		fmt.Fprintf(&b, "commit:  %s (with uncommitted changes)\n", revision)
	default:
		fmt.Fprintf(&b, "commit:  %s\n", revision)
	}
	if vcsTime == "" {
		vcsTime = "unknown"
	}
	// vcs.time is the commit's time: the only date the toolchain records,
	// so the build of a given commit is reproducible.
	fmt.Fprintf(&b, "date:    %s (commit time)\n", vcsTime)
	fmt.Fprintf(&b, "go:      %s\n", buildTarget())
	return b.String()
}

// buildVersion is versionText for this binary.
func buildVersion() string {
	info, ok := debug.ReadBuildInfo()
	return versionText(info, ok)
}

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version, commit, commit date and Go version of this build",
		Long: `version prints the module version, the git commit the binary was built from
(marked when the working tree had uncommitted changes), that commit's date,
and the Go toolchain and target. scrabble --version prints the same.`,
		Example: `  scrabble version
  scrabble --version`,
		Args: args(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprint(a.stdout, buildVersion())
			return err
		},
	}
}
