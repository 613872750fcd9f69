package repoindex

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	repo "helm.sh/helm/v4/pkg/repo/v1"
)

// helmLoad loads data with Helm's own loader.
func helmLoad(t testing.TB, data string) (*repo.IndexFile, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "index.yaml")
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return repo.LoadIndexFile(p)
}

// comparable makes Helm's result comparable with Read's, which never has
// nil Entries.
func comparable(idx *repo.IndexFile) *repo.IndexFile {
	if idx != nil && idx.Entries == nil {
		idx.Entries = map[string]repo.ChartVersions{}
	}
	return idx
}

// usual is a small index in Helm's own layout.
const usual = `apiVersion: v1
entries:
  alpine:
  - annotations:
      artifacthub.io/license: Apache-2.0
    apiVersion: v2
    appVersion: 3.19.1
    created: "2024-05-06T07:08:09.123456789Z"
    dependencies:
    - name: common
      repository: https://charts.example.com
      tags:
      - base
      version: 2.x.x
    description: Deploy a basic Alpine Linux pod, a description long enough to be
      folded by Helm's writer onto a second line.
    digest: 515c58e5f79d8b2913a10cb400ebb6fa9c77fe813287afbacf1a0b897cd78727
    home: https://helm.sh/helm
    icon: https://example.com/alpine.png
    keywords:
    - linux
    - alpine
    maintainers:
    - email: ops@example.com
      name: Ops
    name: alpine
    sources:
    - https://github.com/helm/helm
    type: application
    urls:
    - https://example.com/alpine-0.2.0.tgz
    version: 0.2.0
  - apiVersion: v2
    created: "2024-01-02T03:04:05Z"
    description: 'Old: the first one, with a quote '' and a colon.'
    digest: sha256:aaaa
    name: alpine
    urls:
    - alpine-0.1.0.tgz
    version: 0.1.0
  nginx:
  - apiVersion: v2
    appVersion: "1.10"
    created: "2024-02-03T04:05:06Z"
    description: "Escapes: \"quoted\" \\ \t tab \u00e9 and a
      folded line"
    name: nginx
    urls:
    - nginx-1.0.0-rc.1.tgz
    version: 1.0.0-rc.1
generated: "2024-05-06T07:08:09.123456789Z"
`

func TestReadMatchesHelm(t *testing.T) {
	tests := []struct {
		name string
		data string
		fast bool // whether the fast parser reads it
	}{
		{"helm layout", usual, true},
		{"crlf", strings.ReplaceAll(usual, "\n", "\r\n"), true},
		{"comments and document start", "# published index\n---\napiVersion: v1 # the only one\nentries:\n  # charts\n  a:\n  # versions\n  - name: a # the name\n    version: 1.0.0\n\n    urls: [] # none yet\n", true},
		{"indented lists", "apiVersion: v1\nentries:\n    a:\n        -   name: a\n            version: 1.0.0\n            keywords:\n              - x\n              - 'y'\n", true},
		{"flow style", `{apiVersion: v1, entries: {a: [{name: a, version: 1.0.0, urls: [a.tgz], created: "2024-01-01T00:00:00Z"}]}}`, false},
		{"json", `{"apiVersion": "v1", "entries": {"a": [{"name": "a", "version": "1.0.0", "Created": "2024-01-01T00:00:00Z", "unknown": 1}]}}`, false},
		{"anchors and merge keys", "apiVersion: v1\nentries:\n  a:\n  - &base\n    name: a\n    version: 1.0.0\n    maintainers: &m\n    - name: me\n  - <<: *base\n    urls: [x]\n  b:\n  - name: b\n    version: 0.1.0\n    maintainers: *m\n", false},
		{"block scalars", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    description: |\n      two\n      lines\n", false},
		{"tags", "apiVersion: !!str v1\nentries:\n  a:\n  - name: !!str a\n    version: 1.0.0\n    appVersion: !!str 1.10\n", false},
		{"coerced values", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    digest: 1.10\n    urls: [0x1F, yes, 1e3, ~]\n    annotations:\n      version: 1.10\n      x: \"2\"\n", false},
		{"case-insensitive keys", "APIVERSION: v1\nEntries:\n  a:\n  - Name: a\n    VERSION: 1.0.0\n    URLs:\n    - a.tgz\n", true},
		{"null and invalid entries skipped", "apiVersion: v1\nentries:\n  a:\n  - null\n  - {}\n  - name: a\n    version: not-semver\n  - name: a/b\n    version: 1.0.0\n  - name: a\n    version: 1.0.0\n    type: other\n  - name: a\n    version: 2.0.0\n  b: null\n  c: []\n", true},
		{"sanitized strings", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    description: \"line\\nbreak\\u0007bell\"\n    keywords: [\"a\\tb\"]\n", false},
		{"duplicate dependency alias kept", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    dependencies:\n    - name: x\n      repository: r\n    - name: x\n      repository: r\n", true},
		{"sorted like helm", "apiVersion: v1\nentries:\n  a:\n  - {name: a, version: 1.0.0}\n  - {name: a, version: 10.0.0}\n  - {name: a, version: 2.0.0-beta.2}\n  - {name: a, version: 2.0.0}\n  - {name: a, version: 2.0.0-beta.10}\n", false},
		{"bools and import values", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    deprecated: yes\n    removed: true\n    dependencies:\n    - name: x\n      repository: r\n      enabled: on\n      import-values:\n      - child: a\n        parent: b\n      - data\n      - 12\nserverInfo:\n  contextPath: /x\n  n: 1.5\n", true},
		{"multi-line quoted", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    description: \"one\n\n      two \\\n      three\\\n      \\ four  \n      five\"\n    home: 'x\n\n\n      y'\n", true},
		{"unicode", "apiVersion: v1\nentries:\n  ünï:\n  - name: ünï\n    version: 1.0.0\n    description: 日本語 ✓ 🚀\n", true},
		{"empty entries", "apiVersion: v1\nentries: {}\n", true},
		{"null entries", "apiVersion: v1\nentries:\n", true},
		{"timestamps unquoted", "apiVersion: v1\ngenerated: 2024-01-02T03:04:05Z\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    created: 2024-01-02T03:04:05.5+02:00\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, herr := helmLoad(t, tt.data)
			if herr != nil {
				t.Fatalf("Helm refuses the test input: %v", herr)
			}
			got, err := Read([]byte(tt.data), "index.yaml")
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if !reflect.DeepEqual(got, comparable(want)) {
				t.Errorf("Read differs from Helm:\n got %s\nwant %s", dump(t, got), dump(t, want))
			}
			if _, _, ferr := fastParse(tt.data); (ferr == nil) != tt.fast {
				t.Errorf("fast parser: err = %v, want fast = %v", ferr, tt.fast)
			}
		})
	}
}

// dump shows an index for failure messages.
func dump(t testing.TB, idx *repo.IndexFile) string {
	t.Helper()
	var b strings.Builder
	if err := Encode(&b, idx, "json"); err != nil {
		return err.Error()
	}
	return b.String()
}

func TestReadRejects(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string // in the message
		is   error
	}{
		{"empty", "", []string{"index.yaml: empty index.yaml file"}, repo.ErrEmptyIndexYaml},
		{"only comments", "# nothing\n", []string{"index.yaml: empty index.yaml file"}, repo.ErrEmptyIndexYaml},
		{"no api version", "entries: {}\n", []string{"index.yaml: no API version specified", `apiVersion: v1`}, repo.ErrNoAPIVersion},
		{"other api version", "apiVersion: v2\nentries: {}\n", []string{"index.yaml:1: apiVersion", `"v2" is not supported`}, nil},
		{"syntax", "apiVersion: v1\nentries:\n  a:\n  - name: a\n   version: 1.0.0\n", []string{"index.yaml:5: invalid YAML"}, nil},
		{"tab indent", "apiVersion: v1\nentries:\n\ta: []\n", []string{"index.yaml:3: invalid YAML"}, nil},
		{"top level list", "- a\n- b\n", []string{"index.yaml:1:", "must be a mapping"}, nil},
		{"unknown field", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    colour: red\n", []string{"index.yaml:6: entries.a[0].colour", `unknown field "colour"`, "remove it"}, nil},
		{"unquoted number", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    appVersion: 1.10\n", []string{"index.yaml:6: entries.a[0].appVersion", "is a number (1.10)", `quote it ("1.10")`}, nil},
		{"duplicate key", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    name: b\n    version: 1.0.0\n", []string{"index.yaml:5:", `"name" is set twice`}, nil},
		{"bad time", "apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    created: yesterday\n", []string{"index.yaml:6: entries.a[0].created", "RFC 3339"}, nil},
		{"list as string", "apiVersion: v1\nentries:\n  a:\n  - name: [a]\n    version: 1.0.0\n", []string{"index.yaml:4: entries.a[0].name", "is a list but must be a string"}, nil},
		{"bad json", "{\"apiVersion\": \"v1\",\n \"entries\": {,}}\n", []string{"index.yaml:2: invalid index JSON"}, nil},
		{"json type", "{\"apiVersion\": \"v1\",\n \"entries\": {\"a\": [{\"name\": 1}]}}\n", []string{"index.yaml:2: invalid index JSON", "quote the value"}, nil},
		{"control character", "apiVersion: v1\nentries:\n  a: \"\x01\"\n", []string{"index.yaml:3: invalid YAML"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read([]byte(tt.data), "index.yaml")
			if err == nil {
				t.Fatal("Read accepts it")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %v is not %v", err, tt.is)
			}
		})
	}
}

// TestReadRefusesWhatHelmRefuses checks inputs Helm's loader refuses
// because of YAML typing, so that an index Read accepts is one Helm reads.
func TestReadRefusesWhatHelmRefuses(t *testing.T) {
	for _, data := range []string{
		"apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0\n",
		"apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    keywords: [1]\n",
		"apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    annotations: {x: 1}\n",
		"apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    deprecated: \"true\"\n",
		"apiVersion: v1\nentries:\n  a:\n  - name: a\n    version: 1.0.0\n    created: 2024-01-02\n",
		"apiVersion: v1\nentries:\n  a: {name: a}\n",
	} {
		if _, err := helmLoad(t, data); err == nil {
			t.Errorf("Helm accepts %q", data)
		}
		if _, err := Read([]byte(data), "index.yaml"); err == nil {
			t.Errorf("Read accepts %q", data)
		}
	}
}

func TestLoad(t *testing.T) {
	p := filepath.Join(t.TempDir(), "index.yaml")
	if err := os.WriteFile(p, []byte(usual), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	want, err := repo.LoadIndexFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Load differs from Helm")
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.yaml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Load of a missing file: %v", err)
	}
}
