package workflow

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/catalogist/catalogist/internal/base/printable"
	"github.com/catalogist/catalogist/lint"
)

// SummaryLimit is the most a step's summary may hold: GitHub refuses a
// larger one and shows none of it.
const SummaryLimit = 1 << 20

// Lint is a lint run as the step is told of it.
type Lint struct {
	Result *lint.Result
	// Linted names the charts linted: changed_charts when Result.Changed
	// is nil.
	Linted []string
	// SARIF is the file the findings were also written to, "" if none.
	SARIF string
	// Took is how long the run took.
	Took time.Duration
}

// ReportLint sets the outputs errors, warnings, charts, changed_charts
// and, with a SARIF file, sarif; and appends the findings to the step
// summary.
//
// changed_charts names the charts whose findings are annotated, as a JSON
// array that a matrix reads with fromJSON (as paths-filter's changes):
// those changed since --changed-since, every chart linted without it.
func (r *Run) ReportLint(l Lint) error {
	errs, warns := l.Result.Count()
	changed, err := json.Marshal(changedCharts(l))
	if err != nil {
		return fmt.Errorf("changed_charts: %w", err)
	}
	outputs := [][2]string{
		{"errors", strconv.Itoa(errs)},
		{"warnings", strconv.Itoa(warns)},
		{"charts", strconv.Itoa(l.Result.Charts)},
		{"changed_charts", string(changed)},
	}
	if l.SARIF != "" {
		outputs = append(outputs, [2]string{"sarif", l.SARIF})
	}
	for _, o := range outputs {
		if err := r.SetOutput(o[0], o[1]); err != nil {
			return err
		}
	}
	return r.AddSummary(lintMarkdown(l, r.summarySpace()))
}

// changedCharts returns the names of the charts whose findings are
// annotated, sorted.
func changedCharts(l Lint) []string {
	names := []string{}
	if l.Result.Changed == nil {
		names = append(names, l.Linted...)
		slices.Sort(names)
		return slices.Compact(names)
	}
	for name, changed := range l.Result.Changed {
		if changed {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Build is a build as the step is told of it.
type Build struct {
	// Out is the output directory.
	Out                               string
	Charts, Packaged, Reused, Carried int
	Took                              time.Duration
	// Steps are the build's steps and their durations, in order.
	Steps []Step
	// Lint is the lint report of the build, nil if none.
	Lint *lint.Result
}

// Step is a step of a build and how long it took.
type Step struct {
	Name string
	Took time.Duration
}

// ReportBuild sets the outputs charts, errors and warnings, and appends
// what was built, and the build's lint findings, to the step summary.
func (r *Run) ReportBuild(b Build) error {
	res := b.Lint
	if res == nil {
		res = &lint.Result{}
	}
	errs, warns := res.Count()
	for _, o := range [][2]string{
		{"charts", strconv.Itoa(b.Charts)},
		{"errors", strconv.Itoa(errs)},
		{"warnings", strconv.Itoa(warns)},
	} {
		if err := r.SetOutput(o[0], o[1]); err != nil {
			return err
		}
	}
	return r.AddSummary(buildMarkdown(b, r.summarySpace()))
}

// summarySpace is what the step summary can still take: the limit less
// what earlier commands of the step appended to it.
func (r *Run) summarySpace() int {
	space := SummaryLimit
	// A file that cannot be read is AddSummary's to report.
	if info, err := os.Stat(r.getenv("GITHUB_STEP_SUMMARY")); err == nil {
		space -= int(info.Size())
	}
	return max(space, 0)
}

// lintMarkdown is a lint run's summary: the totals, then a table of every
// finding, most severe first, as many as space bytes hold.
func lintMarkdown(l Lint, space int) string {
	var b strings.Builder
	b.WriteString("### catalogist lint\n\n")
	b.WriteString(totals(l.Result))
	if l.Took > 0 {
		fmt.Fprintf(&b, " in %s", seconds(l.Took))
	}
	b.WriteString(".\n")
	if l.Result.Changed != nil {
		changed := changedCharts(l)
		fmt.Fprintf(&b, "\nOnly the findings of the %s changed (%s) and of no chart are annotated; the table lists them all.\n",
			count(len(changed), "chart"), escape(strings.Join(changed, ", ")))
	}
	writeTable(&b, l.Result, l.SARIF, space)
	return b.String()
}

// buildMarkdown is a build's summary: what was built, how long each step
// took, and the lint findings.
func buildMarkdown(bd Build, space int) string {
	var b strings.Builder
	b.WriteString("### catalogist build\n\n")
	fmt.Fprintf(&b, "Built %s into %s in %s: %d packaged, %d unchanged, %d carried from the published index.\n",
		count(bd.Charts, "chart"), escape(bd.Out), seconds(bd.Took), bd.Packaged, bd.Reused, bd.Carried)
	if len(bd.Steps) > 0 {
		b.WriteString("\n<details><summary>Steps</summary>\n\n| step | time |\n|---|--:|\n")
		for _, s := range bd.Steps {
			fmt.Fprintf(&b, "| %s | %s |\n", escape(s.Name), seconds(s.Took))
		}
		b.WriteString("\n</details>\n")
	}
	if bd.Lint != nil && len(bd.Lint.Findings) > 0 {
		b.WriteString("\nLint: " + totals(bd.Lint) + ".\n")
		writeTable(&b, bd.Lint, "", space)
	}
	return b.String()
}

func totals(res *lint.Result) string {
	errs, warns := res.Count()
	s := fmt.Sprintf("**%s, %s** in %s", count(errs, "error"), count(warns, "warning"), count(res.Charts, "chart"))
	if res.Baselined > 0 {
		s += fmt.Sprintf(" (and %d held back by the baseline)", res.Baselined)
	}
	return s
}

// footerRoom is kept for the line saying how many findings were left out.
const footerRoom = 512

// writeTable appends the table of findings, most severe first, with as
// many rows as the summary's space holds (what b holds already included),
// then says how many it left out and where they all are.
func writeTable(b *strings.Builder, res *lint.Result, sarif string, space int) {
	if len(res.Findings) == 0 {
		return
	}
	fs := slices.Clone(res.Findings)
	slices.SortStableFunc(fs, lint.BySeverity)
	b.WriteString("\n| severity | rule | chart | location | message |\n|---|---|---|---|---|\n")
	written := 0
	for _, f := range fs {
		row := fmt.Sprintf("| %s | [%s](%s) | %s | %s | %s |\n", f.Severity, escape(f.Rule), lint.RulesURL,
			escape(f.Chart), escape(fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Column)), escape(f.Message))
		if b.Len()+len(row)+footerRoom > space {
			break
		}
		b.WriteString(row)
		written++
	}
	if left := len(fs) - written; left > 0 {
		where := "`catalogist lint --format json` lists them all"
		if sarif != "" {
			where = fmt.Sprintf("The SARIF file %s (the step's `sarif` output) holds them all, and so does `catalogist lint --format json`", escape(sarif))
		}
		fmt.Fprintf(b, "\n%s left out: a step summary holds at most 1 MiB. %s.\n", count(left, "finding"), where)
	}
}

// cellEscaper makes text show as it is in a Markdown table cell: the
// characters that would start markup or end the cell are escaped, and
// line breaks become <br>.
var cellEscaper = strings.NewReplacer(
	`\`, `\\`, "|", `\|`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"~", `\~`, "#", `\#`, "!", `\!`,
	"&", "&amp;", "<", "&lt;", ">", "&gt;",
	"\r\n", "<br>", "\n", "<br>", "\r", "<br>",
)

func escape(s string) string { return cellEscaper.Replace(s) }

// Text returns a text from a catalog or a server as a step summary's
// Markdown shows it, in a table cell or a paragraph: what would start
// markup or end the cell is escaped, and line breaks become <br>.
func Text(s string) string { return escape(s) }

// Link returns a Markdown link with text as its text (escaped as Text
// escapes it) to rawURL, when rawURL is an http or https address with
// nothing a reader could take for more (no credentials, space, backslash
// or control character); its characters that Markdown or a table would
// read are percent-encoded or escaped. Any other address is no link: the
// text alone is returned.
func Link(text, rawURL string) string {
	dest, ok := linkDestination(rawURL)
	if !ok {
		return escape(text)
	}
	return "[" + escape(text) + "](" + dest + ")"
}

// hostPort is a host as a link may name it: a name or an IPv4 address,
// and a port.
var hostPort = regexp.MustCompile(`^[A-Za-z0-9.-]+(:[0-9]+)?$`)

// destEscaper encodes, in a link destination after its host, what could
// end the destination or start other markup: parentheses, angle brackets,
// brackets, backticks, quotes, the table's pipe; and escapes the
// ampersand, which would start a character reference.
var destEscaper = strings.NewReplacer("(", "%28", ")", "%29", "<", "%3C", ">", "%3E", "[", "%5B", "]", "%5D",
	"`", "%60", `"`, "%22", "'", "%27", "|", "%7C", "&", `\&`)

func linkDestination(raw string) (string, bool) {
	if raw == "" || strings.ContainsAny(raw, " \\") || printable.Line(raw) != raw {
		return "", false
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.Opaque != "" || !hostPort.MatchString(u.Host) {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	rest := strings.TrimPrefix(u.String(), u.Scheme+"://"+u.Host)
	return scheme + "://" + u.Host + destEscaper.Replace(rest), true
}

// codeBlock returns s as a fenced code block, which shows every line of it
// as it is: no markup, link or HTML; its fence is longer than any run of
// backticks in it, so no line of it can close the block.
func codeBlock(s string) string {
	n, run := 3, 0
	for _, c := range s {
		if c == '`' {
			run++
			n = max(n, run+1)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", n)
	return fence + "text\n" + printable.Lines(s) + "\n" + fence + "\n"
}

func count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + " s"
}

// ReportFailure appends to the step summary that a command failed, and
// why: the message, which may quote a catalog or a server, in a code
// block, so that none of it is read as Markdown.
func (r *Run) ReportFailure(command, message string) error {
	return r.AddSummary(fmt.Sprintf("### catalogist %s\n\n**Failed:**\n\n%s", command, codeBlock(message)))
}
