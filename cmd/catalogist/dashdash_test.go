package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
)

// Every command taking paths or names reads what follows -- as them,
// never as a flag, as a commit hook's entry relies on: the commands that
// take arguments are the ones listed, and each gets "-x" after -- as its
// argument, with no flag set.
func TestEveryCommandTakesDoubleDash(t *testing.T) {
	want := []string{"build", "docs", "form", "launch", "lint", "new catalog", "new chart", "publish", "serve", "uninstall"}
	var got []string
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			visit(sub)
		}
		if c.DisableFlagParsing {
			t.Errorf("%s parses no flag, so -- is one of its arguments", c.CommandPath())
		}
		if !c.Runnable() {
			return
		}
		if err := c.ParseFlags([]string{"--", "-x"}); err != nil {
			t.Errorf("%s -- -x: %v", c.CommandPath(), err)
			return
		}
		if c.ValidateArgs(c.Flags().Args()) != nil {
			return
		}
		got = append(got, strings.TrimPrefix(c.CommandPath(), "catalogist "))
		if args := c.Flags().Args(); !slices.Equal(args, []string{"-x"}) {
			t.Errorf("%s -- -x gets the arguments %q", c.CommandPath(), args)
		}
		c.Flags().Visit(func(f *pflag.Flag) { t.Errorf("%s -- -x sets --%s", c.CommandPath(), f.Name) })
	}
	visit(newRoot())
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("the commands taking arguments are %q, want %q: check that a new one reads what follows -- as its arguments", got, want)
	}
}

// lint and docs, as a commit hook runs them, read a file named as a flag
// (--sarif=charts/vscode-python/values.yaml) as a path: it belongs to no
// chart, and the chart's values.yaml is not written. A flag after -- is
// refused as a file that does not exist; a catalog directory named -ide
// is linted and documented.
func TestDoubleDashPaths(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "-ide")
	filetree.Copy(t, "../../examples/ide", dir)
	values := filepath.Join(dir, "charts", "vscode-python", "values.yaml")
	before, err := os.ReadFile(values)
	if err != nil {
		t.Fatal(err)
	}
	flag := "--sarif=charts/vscode-python/values.yaml"
	filetree.Copy(t, values, filepath.Join(dir, flag))
	for _, c := range []struct {
		args   []string
		code   int
		output string
	}{
		{[]string{"lint", "--", flag}, 0, "no chart to lint: " + flag + " belongs to no chart\n"},
		{[]string{"docs", "--check", "--", flag}, 0, "no chart to document: " + flag + " belong(s) to no chart\n"},
		{[]string{"lint", "--", "--strict"}, 2, "catalogist: --strict: no such file; every argument after -- is a path: put flags before --"},
		{[]string{"docs", "--", "--check", "charts/vscode-python/values.yaml"}, 2, "catalogist: --check: no such file"},
	} {
		r := catalogistIn(t, dir, nil, c.args...)
		if r.code != c.code || !strings.Contains(r.stdout+r.stderr, c.output) {
			t.Errorf("catalogist %s: exit %d, want %d and %q\n%s%s", strings.Join(c.args, " "), r.code, c.code, c.output, r.stdout, r.stderr)
		}
	}
	if after, _ := os.ReadFile(values); string(after) != string(before) {
		t.Errorf("%s was written:\n%s", values, after)
	}
	parent := filepath.Dir(dir)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"lint", "--", "-ide"}, "2 charts, 0 errors, 0 warnings\n"},
		{[]string{"docs", "--check", "--", "-ide"}, "2 README(s) up to date\n"},
	} {
		if r := catalogistIn(t, parent, nil, c.args...); r.code != 0 || !strings.HasSuffix(r.stdout, c.want) {
			t.Errorf("catalogist %s: exit %d, want 0 and %q\n%s%s", strings.Join(c.args, " "), r.code, c.want, r.stdout, r.stderr)
		}
	}
}
