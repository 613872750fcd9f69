package catalog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseConfigSettings(t *testing.T) {
	cfg, err := ParseConfig([]byte(`
platform: onyxia
schemaRegistry: [schemas, ../shared]
lint:
  rules:
    slider-grid: off
    context-path: error
    duplicate-key: warning
  ignore:
    - rule: context-path
      charts: [jupyter-*, rstudio]
      option: "ai/*"
    - charts: ["legacy-?"]
    - option: resources/limits/cpu
`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Platform != "onyxia" {
		t.Errorf("Platform = %q", cfg.Platform)
	}
	if want := []string{"schemas", "../shared"}; !reflect.DeepEqual(cfg.SchemaRegistry, want) {
		t.Errorf("SchemaRegistry = %q, want %q", cfg.SchemaRegistry, want)
	}
	l := cfg.Lint
	if l == nil || len(l.Rules) != 3 || len(l.Ignore) != 3 {
		t.Fatalf("Lint = %+v", l)
	}
	for i, want := range []RuleLevel{{Rule: "slider-grid", Level: LevelOff}, {Rule: "context-path", Level: LevelError}, {Rule: "duplicate-key", Level: LevelWarning}} {
		if got := l.Rules[i]; got.Rule != want.Rule || got.Level != want.Level {
			t.Errorf("rule %d = %s: %s, want %s: %s", i, got.Rule, got.Level, want.Rule, want.Level)
		}
	}
	if got := l.Rules[1].Node.KeyPos; got.Line != 7 || got.Col != 5 {
		t.Errorf("context-path is named at %s, want 7:5", got)
	}
	ig := l.Ignore[0]
	if ig.Rule != "context-path" || ig.RuleNode == nil || !reflect.DeepEqual(ig.Charts, []string{"jupyter-*", "rstudio"}) || ig.Option != "ai/*" {
		t.Errorf("ignore 0 = %+v", ig)
	}
	if ig := l.Ignore[1]; ig.Rule != "" || ig.RuleNode != nil || ig.Option != "" || len(ig.Charts) != 1 {
		t.Errorf("ignore 1 = %+v", ig)
	}
	if ig := l.Ignore[2]; ig.Option != "resources/limits/cpu" || ig.Charts != nil {
		t.Errorf("ignore 2 = %+v", ig)
	}

	for _, addr := range []string{"https://datalab.example.org", "http://localhost:3000/", "https://example.org/onyxia", "https://[::1]:8443/a/b/"} {
		p, err := ParseConfig([]byte("platformURL: " + addr + "\nplatformCatalogID: ide-gpu_2.0\n"))
		if err != nil {
			t.Errorf("platformURL %s: %v", addr, err)
		} else if p.PlatformURL != addr || p.PlatformCatalogID != "ide-gpu_2.0" {
			t.Errorf("platformURL %s: read %q %q", addr, p.PlatformURL, p.PlatformCatalogID)
		}
	}

	one, err := ParseConfig([]byte("schemaRegistry: schemas\nlint:\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one.SchemaRegistry, []string{"schemas"}) || one.Lint == nil || len(one.Lint.Rules)+len(one.Lint.Ignore) != 0 {
		t.Errorf("a single registry and an empty lint section: %+v %+v", one.SchemaRegistry, one.Lint)
	}
}

// Every bad shape is refused at its position with what to write instead.
func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		pos        string // line:col
		want       []string
	}{
		{"unknown setting", "name: x\nlintt: {}\n", "2:1", []string{`unknown setting "lintt"`, "platform, schemaRegistry, lint", `did you mean "lint"?`}},
		{"platform not a string", "platform: [onyxia]\n", "1:11", []string{"platform must be a name", "platform: onyxia or platform: catalogist"}},
		{"unknown platform", "platform: onyxa\n", "1:11", []string{`unknown platform "onyxa"`, "known: onyxia, catalogist", `did you mean "onyxia"?`}},
		{"registry not a list", "schemaRegistry: {dir: x}\n", "1:17", []string{"schemaRegistry must be a directory or a list", "schemaRegistry: [schemas"}},
		{"registry empty string", `schemaRegistry: ""` + "\n", "1:17", []string{"schemaRegistry must be a directory"}},
		{"registry entry not a string", "schemaRegistry:\n  - schemas\n  - {x: 1}\n", "3:5", []string{"each schemaRegistry entry must be a directory"}},
		{"lint not a mapping", "lint: [rules]\n", "1:7", []string{"lint must be a mapping with rules and ignore"}},
		{"unknown lint key", "lint:\n  rule: {}\n", "2:3", []string{`unknown lint setting "rule"`, "known: rules, ignore", `did you mean "rules"?`}},
		{"rules not a mapping", "lint:\n  rules: [slider-grid]\n", "2:10", []string{"lint.rules must map rule names to off, warning or error"}},
		{"bad level", "lint:\n  rules:\n    slider-grid: warn\n", "3:18", []string{`lint.rules.slider-grid is "warn": write off, warning or error`}},
		{"boolean level", "lint:\n  rules:\n    slider-grid: false\n", "3:18", []string{"lint.rules.slider-grid is false: write off"}},
		{"mapping level", "lint:\n  rules:\n    slider-grid: {level: off}\n", "3:18", []string{"lint.rules.slider-grid is an object: write off"}},
		{"rule set twice", "lint:\n  rules:\n    slider-grid: off\n    slider-grid: error\n", "4:5", []string{"rule slider-grid is set twice", "first at line 3"}},
		{"ignore not a list", "lint:\n  ignore: {rule: x}\n", "2:11", []string{"lint.ignore must be a list of entries"}},
		{"ignore entry empty", "lint:\n  ignore:\n    - {}\n", "3:7", []string{"needs at least one of rule, charts and option"}},
		{"ignore entry not a mapping", "lint:\n  ignore:\n    - slider-grid\n", "3:7", []string{"needs at least one of rule, charts and option"}},
		{"ignore unknown key", "lint:\n  ignore:\n    - chart: [x]\n", "3:7", []string{`unknown key "chart" in a lint.ignore entry`, `did you mean "charts"?`}},
		{"ignore rule not a string", "lint:\n  ignore:\n    - rule: [a, b]\n", "3:13", []string{"rule must be a rule's name"}},
		{"ignore charts not a list", "lint:\n  ignore:\n    - charts: jupyter-*\n", "3:15", []string{"charts must be a list of chart name globs", "charts: [jupyter-*, rstudio]"}},
		{"ignore charts empty list", "lint:\n  ignore:\n    - charts: []\n", "3:15", []string{"charts must be a list"}},
		{"ignore malformed chart glob", "lint:\n  ignore:\n    - charts: [ok, \"jupyter-[\"]\n", "3:20", []string{`chart glob "jupyter-[" is malformed`}},
		{"ignore malformed option glob", "lint:\n  ignore:\n    - option: \"a/[b\"\n", "3:15", []string{`option "a/[b" is malformed`}},
		{"ignore option with leading slash", "lint:\n  ignore:\n    - option: /resources/limits\n", "3:15", []string{"option paths have no leading slash: write option: resources/limits"}},
		{"ignore option empty", "lint:\n  ignore:\n    - option: \"\"\n", "3:15", []string{"option must be a non-empty string"}},
		{"platform address not a string", "platformURL: [x]\nplatformCatalogID: ide\n", "1:14", []string{"platformURL is an array", "platformURL: https://datalab.example.org"}},
		{"platform address of another scheme", "platformURL: ftp://datalab.example.org\nplatformCatalogID: ide\n", "1:14", []string{`platformURL "ftp://datalab.example.org" is not the platform's address`, "http or https"}},
		{"platform address without a host", "platformURL: https:///launcher\nplatformCatalogID: ide\n", "1:14", []string{"is not the platform's address"}},
		{"platform address with a port only", "platformURL: https://:443\nplatformCatalogID: ide\n", "1:14", []string{"is not the platform's address"}},
		{"platform address with a query", "platformURL: https://datalab.example.org/?a=1\nplatformCatalogID: ide\n", "1:14", []string{"no query or fragment"}},
		{"platform address with a fragment", "platformURL: https://datalab.example.org/#x\nplatformCatalogID: ide\n", "1:14", []string{"no query or fragment"}},
		{"platform address with spaces", "platformURL: https://datalab.example.org/a b\nplatformCatalogID: ide\n", "1:14", []string{"is not the platform's address"}},
		{"platform catalog id with a slash", "platformURL: https://datalab.example.org\nplatformCatalogID: a/b\n", "2:20", []string{`platformCatalogID is "a/b", not a catalog id`, "platformCatalogID: ide"}},
		{"platform catalog id not a string", "platformURL: https://datalab.example.org\nplatformCatalogID: 1\n", "2:20", []string{"platformCatalogID is 1, not a catalog id"}},
		{"platform address alone", "name: x\nplatformURL: https://datalab.example.org\n", "2:1", []string{"platformURL needs platformCatalogID", "add platformCatalogID: ide"}},
		{"platform catalog id alone", "platformCatalogID: ide\n", "1:1", []string{"platformCatalogID needs platformURL", "add platformURL: https://datalab.example.org"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tc.yaml))
			if err == nil {
				t.Fatalf("accepted:\n%s", tc.yaml)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, tc.pos+": ") {
				t.Errorf("error %q is not at %s", msg, tc.pos)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q lacks %q", msg, w)
				}
			}
		})
	}
}

// An address holding credentials is refused without repeating them.
func TestPlatformURLCredentials(t *testing.T) {
	for _, addr := range []string{"https://jane:s3cr3t-pw@datalab.example.org", "https://s3cr3t-pw@datalab.example.org/x", "http://jane:s3cr3t-pw@[::1:bad"} {
		_, err := ParseConfig([]byte("platformURL: " + addr + "\nplatformCatalogID: ide\n"))
		if err == nil {
			t.Errorf("%s accepted", addr)
			continue
		}
		if msg := err.Error(); strings.Contains(msg, "s3cr3t") || !strings.Contains(msg, "user name or password") || !strings.HasPrefix(msg, "1:14: ") {
			t.Errorf("%s: %v", addr, msg)
		}
	}
}

// Discover resolves the registries against the catalog's directory, and a
// bad catalog.yaml names the file.
func TestDiscoverConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("catalog.yaml", "schemaRegistry: [schemas, /opt/shared]\n")
	write("charts/demo/Chart.yaml", "apiVersion: v2\nname: demo\nversion: 1.0.0\n")
	cat, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(dir, "schemas"), "/opt/shared"}; !reflect.DeepEqual(cat.Config.SchemaRegistry, want) {
		t.Errorf("SchemaRegistry = %q, want %q", cat.Config.SchemaRegistry, want)
	}
	// A chart named alone finds its catalog, and the same resolution.
	cat, err = Discover(filepath.Join(dir, "charts", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cat.Config.SchemaRegistry[0]; got != filepath.Join(dir, "schemas") {
		t.Errorf("from the chart: SchemaRegistry[0] = %q", got)
	}

	write("catalog.yaml", "lint:\n  rules:\n    slider-grid: maybe\n")
	_, err = Discover(dir)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "catalog.yaml")+":3:18: ") {
		t.Errorf("error %v does not name catalog.yaml:3:18", err)
	}
}
