package workflow_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/publish/workflow"
	"github.com/catalogist/catalogist/internal/publish/workflow/workflowtest"
)

// forgeries are lines a catalog or a server could get printed, each of
// which the runner reads as a command when printed as it is.
var forgeries = []string{
	`x ##[error]FORGED ##[add-mask]word`,
	`options: "x ##[error]FORGED ##[add-mask]word" has no type`,
	`##[stop-commands]tok`,
	`::error::forged`,
	`  ::error file=a.yaml,line=1::indented forgery`,
	"\t::add-mask::word",
	"\u00a0\u2003::warning::behind unicode spaces",
	`::stop-commands::abc`,
	`::ADD-MASK::upper case`,
	`##[Group]upper case legacy`,
	"fine\r::error::after a carriage return",
	`::set-output name=x::y`,
	`##[set-env name=PATH]/tmp`,
	"https://x/\n::error::forged ##[add-mask]tok [link](javascript:alert(1)) <img src=x>",
}

// log is a step's standard output and standard error written to one
// buffer, as action.yml runs catalogist (2>&1).
type log struct {
	buf            bytes.Buffer
	stdout, stderr *workflow.Stream
}

func newLog() *log {
	l := &log{}
	steps := workflow.NewLog()
	l.stdout, l.stderr = steps.Stream(&l.buf), steps.Stream(&l.buf)
	return l
}

// Each forgery, printed on either stream, whole or a byte at a time,
// between catalogist's own commands, is shown as the text it is and read
// as no command; catalogist's commands are all carried out, in order.
func TestStreamKeepsTextFromTheRunner(t *testing.T) {
	for i, forged := range forgeries {
		for _, bytewise := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d/bytewise=%v", i, bytewise), func(t *testing.T) {
				l := newLog()
				write := func(s *workflow.Stream, text string) {
					if !bytewise {
						fmt.Fprint(s, text)
						return
					}
					for j := range len(text) {
						s.Write([]byte{text[j]})
					}
				}
				l.stdout.WriteCommand("::group::chart (1 error)")
				write(l.stdout, "charts/a/values.schema.json:1:1: error: "+forged+"\n")
				write(l.stdout, "a plain line\n")
				l.stdout.WriteCommand("::endgroup::")
				write(l.stderr, "catalogist: "+forged+"\n")
				l.stdout.WriteCommand("::error title=catalogist option-type::ours")
				// A line begun and not ended when a command comes.
				write(l.stdout, forged)
				l.stdout.WriteCommand("::notice::ours too")
				write(l.stderr, forged)
				if err := l.stderr.Flush(); err != nil {
					t.Fatal(err)
				}
				l.stdout.WriteCommand("::warning::last")

				cmds, plain, err := workflowtest.Commands(l.buf.String())
				if err != nil {
					t.Fatal(err)
				}
				var ours []string
				for _, c := range cmds {
					if c.Name == "stop-commands" || c.Resume {
						continue
					}
					ours = append(ours, c.Name+":"+c.Message)
				}
				want := []string{"group:chart (1 error)", "endgroup:", "error:ours", "notice:ours too", "warning:last"}
				if !slices.Equal(ours, want) {
					t.Errorf("commands carried out %q, want only catalogist's %q; log:\n%s", ours, want, l.buf.String())
				}
				text := strings.Join(plain, "\n") + "\n"
				wantText := strings.ReplaceAll(strings.Join([]string{
					"charts/a/values.schema.json:1:1: error: " + forged, "a plain line", "catalogist: " + forged, forged, forged,
				}, "\n")+"\n", "\r", "\n")
				if text != wantText {
					t.Errorf("the log shows\n%q\nwant\n%q", text, wantText)
				}
			})
		}
	}
}

// Lines that no runner state reads as a command are written as they are,
// without a guard around them.
func TestStreamLeavesPlainLines(t *testing.T) {
	l := newLog()
	text := "charts/a/values.schema.json:3:7: error: cpu: 150m is not a multiple of 100m [slider-grid]\n" +
		"12 charts, 37 errors, 24 warnings\nhttps://example.org/a:b\n"
	fmt.Fprint(l.stdout, text)
	if l.buf.String() != text {
		t.Errorf("plain text written as\n%s", l.buf.String())
	}
}

// Lines .NET's culture-aware comparisons could still read as a command,
// whatever the runner's version (a character they pass over before "::",
// a full-width sign), are guarded too; a line longer than the Stream holds
// back is guarded whole.
func TestStreamGuardsWhatTheRunnerCouldRead(t *testing.T) {
	for _, line := range []string{
		"\u200b::error::x", "\u00ad::error::x", "\x01::error::x", "\u3164::error::x", "e\u0301 \u2028::error::x",
		"：：error：：x", "＃＃[error]x", "a # b", strings.Repeat("x", 70<<10) + "##[error]x",
	} {
		l := newLog()
		fmt.Fprint(l.stdout, line)
		if len(line) < 64<<10 {
			l.stdout.Flush()
		}
		if !strings.HasPrefix(l.buf.String(), "::stop-commands::") || !strings.HasSuffix(l.buf.String(), "::\n") {
			t.Errorf("%.40q is written without a guard", line)
		}
	}
	for _, line := range []string{"a::b", "x :: y", "https://example.org/a", "e\u0301::"} {
		l := newLog()
		fmt.Fprint(l.stdout, line+"\n")
		if l.buf.String() != line+"\n" {
			t.Errorf("%q is written as %q", line, l.buf.String())
		}
	}
}

// A guard's token is fresh for each block: text printed before cannot
// resume the runner's reading of commands inside a later block.
func TestStreamTokensAreFresh(t *testing.T) {
	l := newLog()
	for range 3 {
		fmt.Fprintln(l.stdout, "##[error]x")
	}
	cmds, _, err := workflowtest.Commands(l.buf.String())
	if err != nil {
		t.Fatal(err)
	}
	tokens := map[string]bool{}
	for _, c := range cmds {
		if c.Name == "stop-commands" {
			if len(c.Message) < 32 || tokens[c.Message] {
				t.Errorf("stop token %q: short or used before", c.Message)
			}
			tokens[c.Message] = true
		}
	}
	if len(tokens) != 3 {
		t.Errorf("%d guards for 3 writes", len(tokens))
	}
}

// The step's Run writes its commands (the token's mask) as commands
// through a Stream.
func TestRunWritesCommandsThroughTheStream(t *testing.T) {
	l := newLog()
	run := workflow.New(l.stdout, func(string) string { return "" })
	if err := run.Mask("ghs_a::b##[c]"); err != nil {
		t.Fatal(err)
	}
	cmds, _, err := workflowtest.Commands(l.buf.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 1 || cmds[0].Name != "add-mask" || cmds[0].Message != "ghs_a::b##[c]" {
		t.Errorf("commands %+v, want the mask", cmds)
	}
}

// Whatever is printed between catalogist's commands, the runner carries out
// those commands and no other, and shows the text as it was printed.
func FuzzStream(f *testing.F) {
	for _, s := range forgeries {
		f.Add(s + "\x00tail\x00\x00" + s + "\n")
	}
	f.Add("\x00\x00")
	f.Add("a\r\nb\n\x00c")
	f.Fuzz(func(t *testing.T, data string) {
		l := newLog()
		var want []string
		var wantText strings.Builder
		// NUL separates the texts, each followed by a command; the
		// texts alternate between the two streams, written in pieces
		// as long as their first byte says.
		for i, text := range strings.Split(data, "\x00") {
			s := l.stdout
			if i%2 == 1 {
				s = l.stderr
			}
			step := 1
			if len(text) > 0 {
				step = int(text[0])%7 + 1
			}
			for j := 0; j < len(text); j += step {
				s.Write([]byte(text[j:min(j+step, len(text))]))
			}
			wantText.WriteString(text)
			if text != "" && !strings.HasSuffix(text, "\n") {
				wantText.WriteString("\n")
			}
			cmd := fmt.Sprintf("notice %d", i)
			want = append(want, cmd)
			s.WriteCommand("::notice::" + cmd)
		}
		cmds, plain, err := workflowtest.Commands(l.buf.String())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, c := range cmds {
			if c.Name != "stop-commands" && !c.Resume {
				got = append(got, c.Message)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("commands carried out %q, want %q; log:\n%q", got, want, l.buf.String())
		}
		var shown strings.Builder
		for _, p := range plain {
			shown.WriteString(p + "\n")
		}
		if w := strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(wantText.String()); shown.String() != w {
			t.Fatalf("the log shows\n%q\nwant\n%q", shown.String(), w)
		}
	})
}
