package manifest

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/endpoints/deprecation"
)

func (c docCase) checker() *Checker {
	ch := &Checker{Version: c.version}
	if len(c.crds) > 0 {
		ch.CRDs = map[schema.GroupKind]bool{}
		for _, gk := range c.crds {
			ch.CRDs[gk] = true
		}
	}
	return ch
}

func (w want) matches(p Problem) bool {
	if p.Check != w.check || p.Severity != w.sev || p.Path != w.path || w.line != 0 && p.Line != w.line {
		return false
	}
	for _, word := range w.words {
		if !strings.Contains(p.Msg, word) {
			return false
		}
	}
	return true
}

func describe(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "\n\t%s %s %q line %d: %s", p.Check, p.Severity, p.Path, p.Line, p.Msg)
	}
	if b.Len() == 0 {
		return " none"
	}
	return b.String()
}

// TestCases runs the table: each case gets exactly the problems it wants.
func TestCases(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := c.checker().Check([]byte(c.doc))
			left := append([]Problem(nil), got...)
			for _, w := range c.want {
				found := false
				for i, p := range left {
					if w.matches(p) {
						left = append(left[:i], left[i+1:]...)
						found = true
						break
					}
				}
				if !found {
					t.Errorf("want %s %s %q (line %d) with %q; got:%s", w.check, w.sev, w.path, w.line, w.words, describe(got))
				}
			}
			if len(left) > 0 && !t.Failed() {
				t.Errorf("unexpected problems:%s", describe(left))
			}
			for _, p := range got {
				if p.Path != "" && p.Line == 0 && c.server != offline {
					t.Errorf("%s at %q has no line", p.Check, p.Path)
				}
			}
		})
	}
}

// TestEveryCheckCovered keeps the table honest: every check has a case
// that finds it, and one of each severity it comes with.
func TestEveryCheckCovered(t *testing.T) {
	seen := map[Check]bool{}
	for _, c := range cases {
		for _, w := range c.want {
			seen[w.check] = true
		}
	}
	for _, check := range []Check{CheckYAML, CheckFields, CheckRemoved, CheckDeprecated, CheckDisabled, CheckNames, CheckSelector, CheckCustom, CheckListPolicy} {
		if !seen[check] {
			t.Errorf("no case finds %s", check)
		}
	}
}

func TestObject(t *testing.T) {
	c := &Checker{}
	for _, tc := range []struct {
		doc  string
		want Object
	}{
		{configMap("settings", "  namespace: team\n"), Object{"v1", "ConfigMap", "settings", "team"}},
		{"apiVersion: v1\nkind: List\nitems: []\n", Object{APIVersion: "v1", Kind: "List"}},
		{"kind: ConfigMap\nmetadata: {name: a}\n", Object{Kind: "ConfigMap", Name: "a"}},
		{"# only a comment\n---\n", Object{}},
		{"", Object{}},
	} {
		if got, _ := c.Check([]byte(tc.doc)); got != tc.want {
			t.Errorf("%q: object %+v, want %+v", tc.doc, got, tc.want)
		}
	}
}

func TestEmptyDocuments(t *testing.T) {
	c := &Checker{}
	for _, doc := range []string{"", "\n\n", "# Source: x/templates/a.yaml\n", "---\n# c\n", "  \n\t\n"} {
		if obj, ps := c.Check([]byte(doc)); obj != (Object{}) || len(ps) != 0 {
			t.Errorf("%q: %+v%s", doc, obj, describe(ps))
		}
	}
}

func TestTooLarge(t *testing.T) {
	doc := configMap("big", "") + "  big: " + strings.Repeat("x", MaxDocumentSize) + "\n"
	_, ps := (&Checker{}).Check([]byte(doc))
	if len(ps) != 1 || ps[0].Check != CheckYAML || ps[0].Severity != Error || !strings.Contains(ps[0].Msg, "bytes") {
		t.Fatalf("a document over %d bytes:%s", MaxDocumentSize, describe(ps))
	}
}

// TestHostileYAML: alias bombs and deep nesting are refused or bounded,
// not expanded.
func TestHostileYAML(t *testing.T) {
	bomb := "a: &a [x,x,x,x,x,x,x,x,x,x]\n"
	prev := "a"
	for i := 'b'; i <= 'j'; i++ {
		bomb += fmt.Sprintf("%c: &%c [*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s,*%s]\n", i, i, prev, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = string(i)
	}
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	lists := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"
	for i := 0; i < 50; i++ {
		lists = "apiVersion: v1\nkind: List\nitems:\n- " + strings.ReplaceAll(strings.TrimSuffix(lists, "\n"), "\n", "\n  ") + "\n"
	}
	_, ps := (&Checker{}).Check([]byte(lists))
	if len(ps) != 1 || ps[0].Check != CheckCustom || !strings.Contains(ps[0].Msg, "nested more than") {
		t.Errorf("lists nested 50 deep:%s", describe(ps))
	}
	for name, doc := range map[string]string{"alias bomb": bomb, "deep nesting": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: " + deep + "\n"} {
		_, ps := (&Checker{}).Check([]byte(doc))
		if len(ps) == 0 || ps[0].Severity != Error {
			t.Errorf("%s: want an error, got:%s", name, describe(ps))
		}
	}
}

// TestConcurrent checks documents from many goroutines with one Checker
// (the race detector watches the shared scheme and caches).
func TestConcurrent(t *testing.T) {
	c := &Checker{CRDs: map[schema.GroupKind]bool{widget: true}}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, tc := range cases {
				if tc.version == (Version{}) && len(tc.crds) == 0 {
					c.Check([]byte(tc.doc))
				}
			}
		}()
	}
	wg.Wait()
}

// TestNameRulesAreBuiltIn: a name rule for a kind the scheme does not know
// would never apply, and hide a typo.
func TestNameRulesAreBuiltIn(t *testing.T) {
	k := api()
	for gk := range nameRules {
		if len(k.byKind[gk.Kind]) == 0 {
			t.Errorf("name rule for %v, which the scheme does not have", gk)
		}
		found := false
		for _, gvk := range k.byKind[gk.Kind] {
			found = found || gvk.Group == gk.Group
		}
		if !found {
			t.Errorf("name rule for %v: no such kind in the group", gk)
		}
	}
}

// TestLifecycleAsHelm: the Checker's deprecation decision is Helm lint's
// (k8s.io/apiserver's deprecation.IsDeprecated) for every kind and release.
func TestLifecycleAsHelm(t *testing.T) {
	k := api()
	for gvk, l := range k.life {
		obj, err := k.scheme.New(gvk)
		if err != nil {
			t.Fatal(err)
		}
		for minor := 0; minor <= 45; minor++ {
			target := Version{1, minor}
			if got, want := reached(target, l.deprecated), deprecation.IsDeprecated(obj, 1, minor); got != want {
				t.Errorf("%v at %s: deprecated %v, deprecation.IsDeprecated says %v", gvk, target, got, want)
			}
			if got, want := l.removed != (Version{}), deprecation.RemovedRelease(obj) != ""; got != want {
				t.Errorf("%v: removal %v, deprecation.RemovedRelease says %q", gvk, l.removed, deprecation.RemovedRelease(obj))
			}
		}
	}
}
