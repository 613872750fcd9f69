package workflowtest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The parser reads a log as the runner's ActionCommand and
// ActionCommandManager do: the cases are theirs.
func TestCommandsAsTheRunnerReadsThem(t *testing.T) {
	for _, tc := range []struct {
		log   string
		cmds  []string // name:message, properties as name{k=v}
		plain []string
	}{
		{log: "::error::m", cmds: []string{"error:m"}},
		{log: "  \t::warning::indented", cmds: []string{"warning:indented"}},
		{log: "x ::error::not at the start", plain: []string{"x ::error::not at the start"}},
		{log: "x ##[error]FORGED ##[add-mask]word", cmds: []string{"error:FORGED ##[add-mask]word (legacy)"}},
		{log: "##[unknown]x ##[error]y", plain: []string{"##[unknown]x ##[error]y"}},
		{log: "::unknown::x ##[error]y", cmds: []string{"error:y (legacy)"}},
		{log: "::ERROR::upper", cmds: []string{"ERROR:upper"}},
		{log: "::error file=a%3Ab%2Cc.yaml,line=3::100%25 done%0Anext", cmds: []string{"error{file=a:b,c.yaml line=3}:100% done\nnext"}},
		{log: "##[error file=a%3Bb]x%5Dy%3B", cmds: []string{"error{file=a;b}:x]y; (legacy)"}},
		{log: "a\rb\r\nc\n::notice::d", cmds: []string{"notice:d"}, plain: []string{"a", "b", "c"}},
		{log: "::error no-separator", plain: []string{"::error no-separator"}},
		// Stopped: nothing is read until the token, in either form and
		// any case.
		{log: "::stop-commands::t0k3n\n::error::x\n##[error]y\n::T0K3N::\n::error::z",
			cmds: []string{"stop-commands:t0k3n", "T0K3N: (resume)", "error:z"}, plain: []string{"::error::x", "##[error]y"}},
		{log: "::stop-commands::t0k3n\n::stop-commands::other\n##[t0k3n]\n::error::z",
			cmds: []string{"stop-commands:t0k3n", "t0k3n: (legacy) (resume)", "error:z"}, plain: []string{"::stop-commands::other"}},
	} {
		t.Run(fmt.Sprintf("%q", tc.log), func(t *testing.T) {
			cmds, plain, err := Commands(tc.log)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range cmds {
				s := c.Name
				if len(c.Properties) > 0 {
					var props []string
					for k, v := range c.Properties {
						props = append(props, k+"="+v)
					}
					slices.Sort(props)
					s += "{" + strings.Join(props, " ") + "}"
				}
				s += ":" + c.Message
				if c.Legacy {
					s += " (legacy)"
				}
				if c.Resume {
					s += " (resume)"
				}
				got = append(got, s)
			}
			if !slices.Equal(got, tc.cmds) || !slices.Equal(plain, tc.plain) {
				t.Errorf("commands %q, text %q\nwant %q, %q", got, plain, tc.cmds, tc.plain)
			}
		})
	}
}

// The runner refuses a stop token that is empty or a command's name.
func TestCommandsRefusesBadStopTokens(t *testing.T) {
	for _, log := range []string{"::stop-commands::", "::stop-commands::error", "::stop-commands::pause-logging"} {
		if _, _, err := Commands(log); err == nil {
			t.Errorf("%q: no error", log)
		}
	}
}
