package launchcontext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/input/srcpos"
)

func TestModelCheck(t *testing.T) {
	m := NewModel("catalogist")
	m.AddRegionBounds()
	for _, tc := range []struct {
		path string
		ok   bool
		why  string // substring of the explanation when not ok
	}{
		// The seed's paths.
		{"git.name", true, ""},
		{"git.email", true, ""},
		{"git.credentials_cache_duration", true, ""},
		{"git.token", true, ""},
		{"region.resources.gpu", true, ""},
		{"region.resources.cpuLimit", true, ""},
		{"region.resources.memoryLimit", true, ""},
		// The reference platform's.
		{"user.idep", true, ""},
		{"project.password", true, ""},
		{"service.oneTimePassword", true, ""},
		{"vault.VAULT_TOP_DIR", true, ""},
		{"s3.AWS_S3_ENDPOINT", true, ""},
		{"k8s.randomSubdomain", true, ""},
		{"proxyInjection.noProxy", true, ""},
		{"region.resources.disk", true, ""},
		{"git", true, ""}, // a whole object
		// Free keys and lists.
		{"user.profile.anything", true, ""},
		{"user.profile.deep.er.still", true, ""},
		{"user.decodedIdToken.groups", true, ""},
		{"region.sliders.cpu.sliderMin", true, ""},
		{"region.customValues.whatever", true, ""},
		{"s3_array[0].AWS_S3_ENDPOINT", true, ""},
		{"s3_array[12].isAnonymous", true, ""},
		{"k8s.istio.gateways[0]", true, ""},
		{"region.tolerations[0].key", true, ""},
		// Paths real catalogs name that the context lacks: the message says
		// so, and never that the platform removed them.
		{"git.project", false, `the catalogist context has no "git.project"`},
		{"s3.AWS_BUCKET_NAME", false, `the catalogist context has no "s3.AWS_BUCKET_NAME"`},
		{"s3.workingDirectoryPath", false, `has no "s3.workingDirectoryPath"`},
		{"k8s.initScriptCheckSum", false, `has no "k8s.initScriptCheckSum"`},
		{"ai.model", false, "AI assistant adds ai.*; declare its paths with --context"},
		// Typos get a suggestion.
		{"git.nmae", false, `did you mean "git.name"`},
		{"region.resources.cpulimit", false, `did you mean "region.resources.cpuLimit"`},
		{"user.emial", false, `did you mean "user.email"`},
		// Untrimmed segments.
		{" user.email ", false, "spaces"},
		{"user. email", false, "spaces"},
		// Unknown.
		{"lakefs", false, `the catalogist context has no "lakefs"`},
		{"nothing.at.all", false, `the catalogist context has no "nothing.at.all"`},
		{"git.name.first", false, "git.name.first"},
		{"s3_array.AWS_S3_ENDPOINT", false, "s3_array.AWS_S3_ENDPOINT"},
		{"s3_array[0].nope", false, "s3_array.0.nope"},
	} {
		ok, why := m.Check(SplitPath(tc.path))
		if ok != tc.ok {
			t.Errorf("Check(%q) = %v (%q), want %v", tc.path, ok, why, tc.ok)
			continue
		}
		if ok && why != "" {
			t.Errorf("Check(%q) is ok but explains %q", tc.path, why)
		}
		if !ok && !strings.Contains(why, tc.why) {
			t.Errorf("Check(%q) explains %q, want it to mention %q", tc.path, why, tc.why)
		}
	}
	if ok, why := m.Check(SplitPath("nothing.at.all")); ok || strings.Contains(why, "did you mean") {
		t.Errorf("Check(nothing.at.all) = %v, %q; want no suggestion for a path far from every known one", ok, why)
	}
	for _, msg := range []string{"no longer", "removed"} {
		for _, p := range []string{"git.project", "ai.model", "s3.objectNamePrefix"} {
			if _, why := m.Check(SplitPath(p)); strings.Contains(why, msg) {
				t.Errorf("Check(%q) claims the platform changed: %q", p, why)
			}
		}
	}
}

// The reference platform's context has no region bounds; a target with
// region-bounded sliders adds them.
func TestModelRegionBounds(t *testing.T) {
	onyxia := NewModel("onyxia")
	for _, p := range []string{"region.resources.gpu", "region.resources.cpuLimit", "region.sliders.cpu.sliderMax"} {
		if ok, why := onyxia.Check(SplitPath(p)); ok || !strings.Contains(why, `the onyxia context has no "`+p+`"`) {
			t.Errorf("onyxia Check(%q) = %v, %q", p, ok, why)
		}
	}
	if ok, _ := onyxia.Check(SplitPath("region.defaultNetworkPolicy")); !ok {
		t.Errorf("onyxia lost the region's other paths")
	}
	onyxia.AddRegionBounds()
	if ok, why := onyxia.Check(SplitPath("region.resources.gpu")); !ok {
		t.Errorf("after AddRegionBounds: %q", why)
	}
}

func TestModelElement(t *testing.T) {
	m := NewModel("onyxia")
	keys, known := m.Element(SplitPath("s3_array"))
	if !known || len(keys) != 9 || keys[0] != "AWS_ACCESS_KEY_ID" {
		t.Errorf("Element(s3_array) = %v, %v", keys, known)
	}
	for _, p := range []string{"s3", "region.tolerations", "nothing", "git.name"} {
		if keys, known := m.Element(SplitPath(p)); known {
			t.Errorf("Element(%q) = %v, known; want unknown", p, keys)
		}
	}
}

func TestModelRoots(t *testing.T) {
	m := NewModel("onyxia")
	roots := m.Roots()
	want := []string{"certificateAuthorityInjection", "git", "k8s", "packageRepositoryInjection", "project", "proxyInjection", "region", "s3", "s3_array", "service", "user", "vault"}
	if strings.Join(roots, ",") != strings.Join(want, ",") {
		t.Errorf("Roots() = %q, want %q", roots, want)
	}
	for _, r := range want {
		if !m.IsRoot(r) {
			t.Errorf("IsRoot(%q) = false", r)
		}
	}
	for _, r := range []string{"lakefs", "ai", "git.name", ""} {
		if m.IsRoot(r) {
			t.Errorf("IsRoot(%q) = true", r)
		}
	}
}

const extraContext = `# A deployer's context extension.
lakefs:
  url: https://lakefs.example.org
custom.dotted.key: 1
extra: {}
list: [a, b]
objects: []
git:
  project: my-project
`

func TestModelAddDocument(t *testing.T) {
	root, err := srcpos.ParseYAML([]byte(extraContext))
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel("onyxia")
	m.AddDocument(root)
	checkExtended(t, m)

	// The built-in model is not changed by extending another one.
	if ok, _ := NewModel("onyxia").Check(SplitPath("lakefs.url")); ok {
		t.Errorf("a fresh model knows lakefs.url: AddDocument changed shared state")
	}
	// Documents that are not mappings add nothing.
	m2 := NewModel("onyxia")
	for _, src := range []string{"- a\n", "just text\n", ""} {
		n, err := srcpos.ParseYAML([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		m2.AddDocument(n)
	}
	m2.AddDocument(nil)
	if got := len(m2.Roots()); got != len(NewModel("onyxia").Roots()) {
		t.Errorf("non-mapping documents added roots: %q", m2.Roots())
	}
}

func checkExtended(t *testing.T, m *Model) {
	t.Helper()
	for _, tc := range []struct {
		path string
		ok   bool
		why  string
	}{
		{"lakefs", true, ""},
		{"lakefs.url", true, ""},
		{"custom.dotted.key", true, ""},
		{"extra.anything.below", true, ""}, // an empty mapping accepts any key
		{"list[0]", true, ""},
		{"list[1].x", true, ""},
		{"objects[3].name", true, ""},
		{"git.project", true, ""}, // the deployer provides it again
		{"git.name", true, ""},    // built-ins are kept
		{"lakefs.ulr", false, `did you mean "lakefs.url"`},
		{"custom.other", false, ""},
	} {
		ok, why := m.Check(SplitPath(tc.path))
		if ok != tc.ok || !strings.Contains(why, tc.why) {
			t.Errorf("extended Check(%q) = %v, %q; want %v mentioning %q", tc.path, ok, why, tc.ok, tc.why)
		}
	}
	if !m.IsRoot("lakefs") || !m.IsRoot("custom") {
		t.Errorf("roots after extension = %q, want lakefs and custom among them", m.Roots())
	}
}

func TestModelLoadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}

	m := NewModel("onyxia")
	if err := m.LoadFile(write("context.yaml", extraContext)); err != nil {
		t.Fatalf("LoadFile: %v", err)
	}
	checkExtended(t, m)

	jsonFile := write("context.json", `{"lakefs": {"url": "x"}, "custom.dotted.key": 1, "extra": {}, "list": ["a"], "objects": [], "git": {"project": "p"}}`)
	mj := NewModel("onyxia")
	if err := mj.LoadFile(jsonFile); err != nil {
		t.Fatalf("LoadFile(JSON): %v", err)
	}
	checkExtended(t, mj)

	for _, tc := range []struct {
		name, content string
		want          []string // substrings of the error
	}{
		{"list.yaml", "- a\n- b\n", []string{"list.yaml:1:1:", "mapping"}},
		{"scalar.yaml", "\n\nhello\n", []string{"scalar.yaml:3:1:"}},
		{"broken.yaml", "a: 1\nb: [\n", []string{"broken.yaml:"}},
		{"binary.yaml", "a: \x00\n", []string{"binary.yaml:1:1:", "NUL"}},
	} {
		err := NewModel("onyxia").LoadFile(write(tc.name, tc.content))
		if err == nil {
			t.Errorf("LoadFile(%s) succeeded, want an error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("LoadFile(%s) = %q, want it to contain %q", tc.name, err, w)
			}
		}
	}
	if err := NewModel("onyxia").LoadFile(filepath.Join(dir, "absent.yaml")); err == nil {
		t.Errorf("LoadFile of a missing file succeeded")
	}
}
