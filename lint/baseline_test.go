package lint_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/lint"
)

// A baseline written from one run holds back exactly those findings in the
// next, even after lines moved; a new finding still shows.
func TestBaselineRoundTrip(t *testing.T) {
	dir := flawedCatalog(t, "", "jupyter", "rstudio")
	res := lintDirs(t, dir)
	if len(res.Findings) != 6 {
		t.Fatalf("want 6 findings to record, got %d", len(res.Findings))
	}
	file := filepath.Join(t.TempDir(), "lint-baseline.json")
	if err := lint.WriteBaseline(file, res.Findings); err != nil {
		t.Fatal(err)
	}
	// Lines move (the duplicate key's message quotes a line, which moves
	// too), and rstudio gains a title that is not a string (two findings).
	moved := "\n\n\n" + strings.Replace(flawedSchema, `"dup": {`, `"dup": {`+"\n\n", 1)
	filetree.Write(t, dir, map[string]string{
		"charts/jupyter/values.schema.json": moved,
		"charts/rstudio/values.schema.json": strings.Replace(moved, `"title": "Nickname", "default": "x"`, `"title": 7, "default": "x"`, 1),
	})
	base, err := lint.ReadBaseline(file)
	if err != nil {
		t.Fatal(err)
	}
	if base.Len() != 6 {
		t.Errorf("baseline holds %d findings, want 6", base.Len())
	}
	res = lintDirs(t, dir)
	if len(res.Findings) != 8 {
		t.Fatalf("want 8 findings after the edit, got %d:\n%s", len(res.Findings), dump(res))
	}
	if stale := base.Filter(res); stale != 0 {
		t.Errorf("%d baseline findings reported stale", stale)
	}
	if got := summary(res.Findings); len(got) != 2 || got[0] != "rstudio json-schema nickname error" || got[1] != "rstudio option-text nickname error" {
		t.Fatalf("want only the two new findings of rstudio, got:\n%s", dump(res))
	}
	if res.Baselined != 6 {
		t.Errorf("Baselined = %d, want 6", res.Baselined)
	}
}

// A finding recorded twice and found three times is new once; one found
// less often than recorded leaves stale entries.
func TestBaselineCounts(t *testing.T) {
	f := lint.Finding{Rule: "context-path", Chart: "jupyter", Option: "git/name", Message: "m", File: "a.json", Line: 3}
	g := lint.Finding{Rule: "slider-grid", Chart: "jupyter", Option: "cpu", Message: "n", File: "a.json", Line: 9}
	base := lint.NewBaseline([]lint.Finding{f, f, g})
	res := &lint.Result{Findings: []lint.Finding{f, f, f}}
	stale := base.Filter(res)
	if len(res.Findings) != 1 || res.Baselined != 2 || stale != 1 {
		t.Errorf("got %d new, %d baselined, %d stale; want 1, 2, 1", len(res.Findings), res.Baselined, stale)
	}
	// Another file, line or column is the same finding; another chart,
	// option, rule or message is not.
	moved := f
	moved.File, moved.Line, moved.Column = "b/a.json", 300, 7
	for _, tc := range []struct {
		name  string
		edit  func(*lint.Finding)
		isNew bool
	}{
		{"moved", func(x *lint.Finding) { *x = moved }, false},
		{"other chart", func(x *lint.Finding) { x.Chart = "rstudio" }, true},
		{"other option", func(x *lint.Finding) { x.Option = "git/email" }, true},
		{"other rule", func(x *lint.Finding) { x.Rule = "bare-literal" }, true},
		{"other message", func(x *lint.Finding) { x.Message = "m2" }, true},
	} {
		x := f
		tc.edit(&x)
		res := &lint.Result{Findings: []lint.Finding{x}}
		lint.NewBaseline([]lint.Finding{f}).Filter(res)
		if got := len(res.Findings) == 1; got != tc.isNew {
			t.Errorf("%s: new = %v, want %v", tc.name, got, tc.isNew)
		}
	}
}

// The file is sorted and one finding a line, whatever the order of the
// findings, so that it diffs well; writing leaves no temporary file.
func TestBaselineFile(t *testing.T) {
	fs := []lint.Finding{
		{Rule: "slider-grid", Chart: "rstudio", Option: "cpu", Message: `default "150m" is off the grid <100m>`},
		{Rule: "context-path", Chart: "jupyter", Option: "git/name", Message: "m"},
		{Rule: "context-path", Chart: "jupyter", Option: "git/name", Message: "m"},
		{Rule: "region-file", Message: "cpuLimit is above the slider's maximum"},
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if err := lint.WriteBaseline(a, fs); err != nil {
		t.Fatal(err)
	}
	if err := lint.WriteBaseline(b, []lint.Finding{fs[3], fs[0], fs[2], fs[1]}); err != nil {
		t.Fatal(err)
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	want := `{
  "version": 1,
  "findings": [
    {"rule":"region-file","chart":"","option":"","message":"cpuLimit is above the slider's maximum"},
    {"rule":"context-path","chart":"jupyter","option":"git/name","message":"m","count":2},
    {"rule":"slider-grid","chart":"rstudio","option":"cpu","message":"default \"150m\" is off the grid <100m>"}
  ]
}
`
	if string(da) != want || string(db) != want {
		t.Errorf("baseline file:\n%s\nwant:\n%s", da, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("want only a.json and b.json in the directory, got %v", entries)
	}
	if info, err := os.Stat(a); err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", info.Mode(), err)
	}
	// An empty baseline is valid too.
	if err := lint.WriteBaseline(a, nil); err != nil {
		t.Fatal(err)
	}
	if base, err := lint.ReadBaseline(a); err != nil || base.Len() != 0 {
		t.Errorf("empty baseline: %v, %v", base, err)
	}
	// A directory that does not exist is an error naming the file.
	if err := lint.WriteBaseline(filepath.Join(dir, "no", "x.json"), fs); err == nil || !strings.Contains(err.Error(), "x.json") {
		t.Errorf("writing into a missing directory: %v", err)
	}
}

func TestBaselineBadFiles(t *testing.T) {
	dir := t.TempDir()
	_, err := lint.ReadBaseline(filepath.Join(dir, "none.json"))
	if !errors.Is(err, lint.ErrBaselineMissing) || !strings.Contains(err.Error(), "none.json") {
		t.Errorf("missing file: %v", err)
	}
	for _, tc := range []struct {
		name, content, want string
	}{
		{"not JSON", "{\n  \"version\": 1,\n  \"findings\": [\n    {\"rule\": \"x\"\n  ]\n}\n", ":5:3: not a baseline (invalid JSON)"},
		{"not an object", "[]", ":1:1: a baseline is"},
		{"no version", `{"findings": []}`, ":1:1: no version"},
		{"other version", `{"version": 2, "findings": []}`, ":1:13: baseline version 2"},
		{"findings not a list", `{"version": 1, "findings": {}}`, ":1:28: findings must be a list"},
		{"unknown top key", `{"version": 1, "findings": [], "extra": 1}`, `:1:32: unknown key "extra"`},
		{"finding not an object", "{\"version\": 1, \"findings\": [\n  \"x\"\n]}", ":2:3: each finding must be an object"},
		{"field not a string", "{\"version\": 1, \"findings\": [\n  {\"rule\": \"r\", \"message\": 3}\n]}", ":2:28: message must be a string"},
		{"unknown field", "{\"version\": 1, \"findings\": [\n  {\"rule\": \"r\", \"line\": 3}\n]}", `:2:17: unknown key "line"`},
		{"no message", "{\"version\": 1, \"findings\": [\n  {\"rule\": \"r\"}\n]}", ":2:3: a finding needs at least a rule and a message"},
		{"bad count", "{\"version\": 1, \"findings\": [\n  {\"rule\": \"r\", \"message\": \"m\", \"count\": 0}\n]}", ":2:42: count must be a whole number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, "baseline.json")
			filetree.Write(t, dir, map[string]string{"baseline.json": tc.content})
			_, err := lint.ReadBaseline(file)
			if err == nil || !strings.Contains(err.Error(), file+tc.want) {
				t.Errorf("error %v, want it to contain %q", err, file+tc.want)
			}
		})
	}
}
