package site

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/catalogist/catalogist/internal/input/region"
	"github.com/catalogist/catalogist/internal/model/launchcontext"
	"github.com/catalogist/catalogist/internal/model/schema"
)

// verdictCharts are charts whose form opens (opens), opens only with what
// every deployment's launch context holds (profile: a hostname built from
// the project and the cluster's domain), and opens for nobody (broken),
// each with its page's form (no profile) and the form lint judges (the
// sample context).
func verdictCharts(t *testing.T) []*Chart {
	t.Helper()
	schemas := map[string]string{
		"opens":   `{"type": "object", "properties": {"host": {"type": "string", "title": "Host", "default": "example.org"}}}`,
		"profile": `{"type": "object", "properties": {"host": {"type": "string", "title": "Host", "x-platform": {"overwriteDefaultWith": "{{project.id}}.{{k8s.domain}}"}}, "git": {"type": "object", "properties": {"name": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "git.name"}}}}}}`,
		"broken":  `{"type": "object", "properties": {"host": {"type": "string", "title": "Host"}, "port": {"type": "integer", "default": 80}}}`,
	}
	var out []*Chart
	for _, name := range []string{"broken", "opens", "profile"} {
		s := parseSchema(t, schemas[name])
		out = append(out, &Chart{
			Name: name, Versions: []Version{{Version: "1.0.0"}},
			Schema: s, Form: schema.Compute(s, nil, nil),
			Verdict: schema.Compute(s, schema.NewContext(launchcontext.Sample(), nil, nil, ""), nil),
		})
	}
	return out
}

var formModelRe = regexp.MustCompile(`(?s)<script type="application/json" id="form-model">(.*?)</script>`)

// The page says the form would not open only when it does not in the
// context lint judges it in; what it cannot fill for want of a profile is
// said to be the profile's, at its option, and is no failure.
func TestFormVerdict(t *testing.T) {
	dir := render(t, &Catalog{Name: "verdicts", Charts: verdictCharts(t)}, Options{})
	for _, c := range []struct {
		chart   string
		refused []string
		profile []string
	}{
		{"opens", nil, nil},
		{"broken", []string{`:1:43 option "host" gets no value from any source`}, nil},
		{"profile", nil, []string{"Host (host) needs your profile's project.id and k8s.domain; the platform fills it when you launch."}},
	} {
		t.Run(c.chart, func(t *testing.T) {
			data := readFile(t, filepath.Join(dir, "charts", c.chart, "index.html"))
			doc := parseHTML(t, data)
			items := func(class string) []string {
				var out []string
				for _, box := range find(doc, func(n *html.Node) bool { return hasClass(n, class) }) {
					for _, li := range find(box, func(n *html.Node) bool { return n.Data == "li" }) {
						out = append(out, strings.Join(strings.Fields(textOf(li)), " "))
					}
				}
				return out
			}
			refused, profile := items("form-refused"), items("form-profile")
			if len(refused) != len(c.refused) {
				t.Errorf("the banner lists %q, want %q", refused, c.refused)
			}
			for i := range min(len(refused), len(c.refused)) {
				if !strings.Contains(refused[i], c.refused[i]) {
					t.Errorf("the banner says %q, want %q...", refused[i], c.refused[i])
				}
			}
			if !slices.Equal(profile, c.profile) {
				t.Errorf("the profile note lists %q, want %q", profile, c.profile)
			}
			m := formModelRe.FindSubmatch(data)
			if m == nil {
				t.Fatal("no form model")
			}
			var model struct {
				Opens     bool
				Values    map[string]any
				Profile   []profileNeed
				Prefilled [][]string
			}
			if err := json.Unmarshal(m[1], &model); err != nil {
				t.Fatal(err)
			}
			if model.Opens != (c.refused == nil) || len(model.Profile) != len(c.profile) {
				t.Errorf("the form model says opens %v, profile %+v", model.Opens, model.Profile)
			}
			// The values are the page's: no profile's in them.
			if c.chart == "profile" {
				if _, ok := model.Values["host"]; ok || model.Values["git"].(map[string]any)["name"] != "" {
					t.Errorf("the page's values hold a profile's: %v", model.Values)
				}
				if n := model.Profile[0]; !slices.Equal(n.Key, []string{"host"}) || !slices.Equal(n.Paths, []string{"project.id", "k8s.domain"}) {
					t.Errorf("profile need %+v", n)
				}
				if want := [][]string{{"host"}, {"git", "name"}}; !reflect.DeepEqual(model.Prefilled, want) {
					t.Errorf("prefilled %q, want %q", model.Prefilled, want)
				}
			}
		})
	}
}

// The full document leaves to a user's launch context what it fills and
// the page's does not: a profile's values; never a path the platform's
// context lacks, nor the region's, with a region or without (the page
// shows the values launching with them gives), nor a const, nor an item's.
func TestPrefilled(t *testing.T) {
	s := parseSchema(t, `{"type": "object", "properties": {
	  "name": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "git.name"}},
	  "cpu": {"type": "string", "default": "1000m", "x-platform": {"overwriteDefaultWith": "region.resources.cpuLimit"}},
	  "gpu": {"type": "string", "default": "0", "x-platform": {"overwriteDefaultWith": "region.resources.gpu"}},
	  "odd": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "nowhere.known"}},
	  "fixed": {"type": "string", "const": "x", "x-platform": {"overwriteDefaultWith": "git.email"}},
	  "items": {"type": "array", "default": [], "items": {"type": "object", "properties": {
	    "who": {"type": "string", "default": "", "x-platform": {"overwriteDefaultWith": "user.idep"}}}}}}}`)
	reg, err := region.Parse([]byte("resources: {cpuLimit: 2000m}\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		reg  *region.Region
		want [][]string
	}{
		{nil, [][]string{{"name"}}},
		{reg, [][]string{{"name"}}},
	} {
		got := formModel(&Chart{Schema: s, Form: schema.Compute(s, schema.NewContext(nil, c.reg, nil, ""), nil)}).Prefilled
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("with region %v: prefilled %q, want %q", c.reg != nil, got, c.want)
		}
	}
}
