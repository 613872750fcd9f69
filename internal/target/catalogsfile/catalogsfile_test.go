package catalogsfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	f, err := Parse([]byte(`catalogs:
  - id: ide
    name: IDEs
    description: Development environments
    location: https://example.org/ide
    status: TEST
    highlightedCharts: [jupyter]
    excludedCharts: [old]
    skipTLSVerify: true
    caFile: /etc/ca.pem
  - id: local
    location: ./built
    extensionKey: x-platform
    platform: onyxia
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Catalogs) != 2 {
		t.Fatalf("%d catalogs", len(f.Catalogs))
	}
	c := f.Catalogs[0]
	if c.ID != "ide" || c.Name != "IDEs" || c.Status != "TEST" || !c.SkipTLSVerify || c.CAFile != "/etc/ca.pem" ||
		c.ExtensionKey != "" || !c.Excludes("old") || c.Excludes("jupyter") || c.HighlightedCharts[0] != "jupyter" {
		t.Fatalf("%+v", c)
	}
	if c.Platform != "" {
		t.Errorf("platform %q without a platform field", c.Platform)
	}
	if l := f.Catalogs[1]; l.ExtensionKey != "x-platform" || l.Status != "PROD" || l.Platform != "onyxia" {
		t.Fatalf("%+v", l)
	}
	if _, err := f.Get("idee"); err == nil || !strings.Contains(err.Error(), `did you mean "ide"`) {
		t.Fatalf("Get: %v", err)
	}
}

func TestParseErrorsNameTheLine(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"typo":          {"- id: a\n  location: https://x\n  extensionkey: x-onyxia\n", `3:3: unknown field "extensionkey" (known: id, name, description, location, extensionKey, platform, status, highlightedCharts, excludedCharts, skipTLSVerify, caFile); did you mean "extensionKey"?`},
		"no id":         {"- location: https://x\n", "1:3: a catalog needs an id and a location"},
		"duplicate":     {"- {id: a, location: x}\n- {id: a, location: y}\n", `2:8: catalog id "a" is already used at line 1`},
		"status":        {"- {id: a, location: x, status: prod}\n", `status "prod": write PROD or TEST`},
		"not a list":    {"catalogs: {id: a}\n", "1:11: catalogs must be a list"},
		"tls":           {"- {id: a, location: x, skipTLSVerify: yes please}\n", "skipTLSVerify must be true or false"},
		"platform":      {"- id: a\n  location: x\n  platform: onyxa\n", `3:13: platform "onyxa" is not one of catalogist, onyxia; did you mean "onyxia"?`},
		"platform type": {"- {id: a, location: x, platform: [onyxia]}\n", "1:34: platform must be a string, not an array"},
		"platform typo": {"- {id: a, location: x, plattform: onyxia}\n", `unknown field "plattform" (known: id, name, description, location, extensionKey, platform, status, highlightedCharts, excludedCharts, skipTLSVerify, caFile); did you mean "platform"?`},
		"yaml":          {"- id: [\n", "1:"},
	} {
		_, err := Parse([]byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", name, err, tc.want)
		}
	}
}

func TestLoadDefaultsAndRelativePaths(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	f, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range f.Catalogs {
		ids = append(ids, c.ID+"="+c.Location)
	}
	want := "ide=https://inseefrlab.github.io/helm-charts-interactive-services databases=https://inseefrlab.github.io/helm-charts-databases automation=https://inseefrlab.github.io/helm-charts-automation"
	if strings.Join(ids, " ") != want || f.Path != "" {
		t.Fatalf("defaults: %v", ids)
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Fatal("an explicit missing file gave the defaults")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "catalogs.yaml")
	if err := os.WriteFile(p, []byte("- {id: a, location: out, caFile: ca.pem}\n- {id: b, location: 'https://x.org/c'}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err = Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if a := f.Catalogs[0]; a.Location != filepath.Join(dir, "out") || a.CAFile != filepath.Join(dir, "ca.pem") {
		t.Fatalf("relative paths: %+v", a)
	}
	if f.Catalogs[1].Location != "https://x.org/c" {
		t.Fatalf("URL changed: %q", f.Catalogs[1].Location)
	}
	if err := os.WriteFile(p, []byte("- {id: a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err == nil || !strings.HasPrefix(err.Error(), p+":1:3:") {
		t.Fatalf("error does not name the file and line: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("- {id: a, location: x}\n"))
	f.Add([]byte("catalogs:\n  - id: a\n    location: x\n    excludedCharts: [a, b]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if err != nil {
			return
		}
		for _, c := range file.Catalogs {
			if c.ID == "" || c.Location == "" {
				t.Fatalf("accepted a catalog without id or location: %+v", c)
			}
		}
	})
}
