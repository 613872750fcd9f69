package launchlink_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/model/launchlink"
	"github.com/catalogist/catalogist/internal/testkit/launcherroute"
)

// vectorFile is shared with testdata/form/launchlink.test.mjs, which runs
// the chart pages' script on it.
const vectorFile = "../../../testdata/form/launchlink.json"

type vectorCase struct {
	Name      string                         `json:"name"`
	Target    launchlink.Target              `json:"target"`
	Passwords [][]string                     `json:"passwords"`
	Defaults  map[string]any                 `json:"defaults"`
	Values    map[string]any                 `json:"values"`
	Link      string                         `json:"link"`
	Changes   []vectorChange                 `json:"changes"`
	Left      []struct{ Key, Reason string } `json:"left"`
	Applied   map[string]any                 `json:"applied"`
}

type vectorChange struct {
	Path   []any `json:"path"`
	Value  any   `json:"value"`
	Remove bool  `json:"remove"`
}

type vectors struct {
	Reasons map[string]string `json:"reasons"`
	Cases   []vectorCase      `json:"cases"`
}

func readVectors(t testing.TB) vectors {
	t.Helper()
	data, err := os.ReadFile(vectorFile)
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", vectorFile, err)
	}
	return v
}

// The reasons the vectors name are the package's, word for word.
func TestReasons(t *testing.T) {
	want := map[string]string{
		"secret": launchlink.ReasonSecret, "topLevel": launchlink.ReasonTopLevel, "key": launchlink.ReasonKey,
		"signIn": launchlink.ReasonSignIn, "quote": launchlink.ReasonQuote, "empty": launchlink.ReasonEmpty,
		"shorter": launchlink.ReasonShorter, "mapping": launchlink.ReasonMapping, "value": launchlink.ReasonValue,
	}
	if got := readVectors(t).Reasons; !reflect.DeepEqual(got, want) {
		t.Errorf("the vectors' reasons are %q, the package's %q", got, want)
	}
}

// Each vector's link is written byte for byte, and the platform's reading
// of it gives back exactly the changes, which applied to the form's values
// give the edited values.
func TestVectors(t *testing.T) {
	v := readVectors(t)
	if len(v.Cases) < 10 {
		t.Fatalf("%d vectors", len(v.Cases))
	}
	for _, c := range v.Cases {
		t.Run(c.Name, func(t *testing.T) {
			entries, left := launchlink.Changes(c.Defaults, c.Values, launchlink.Secrets(c.Passwords))
			link := c.Target.Link(entries)
			if link != c.Link {
				t.Errorf("link\n got %s\nwant %s", link, c.Link)
			}
			var gotLeft []string
			for _, o := range left {
				gotLeft = append(gotLeft, o.Key+": "+o.Reason)
			}
			var wantLeft []string
			for _, l := range c.Left {
				wantLeft = append(wantLeft, l.Key+": "+v.Reasons[l.Reason])
			}
			if !reflect.DeepEqual(gotLeft, wantLeft) {
				t.Errorf("left out\n got %q\nwant %q", gotLeft, wantLeft)
			}
			route := decode(t, link, c.Target)
			var want []launcherroute.Entry
			for _, ch := range c.Changes {
				want = append(want, launcherroute.Entry{Path: intPath(ch.Path), Value: ch.Value, Remove: ch.Remove})
			}
			if !reflect.DeepEqual(route.Patch, want) {
				t.Errorf("the platform reads the changes\n %#v\nwant\n %#v", route.Patch, want)
			}
			applied := clone(t, c.Defaults)
			if err := launcherroute.Apply(applied, route.Patch); err != nil {
				t.Fatal(err)
			}
			wantDoc := c.Values
			if c.Applied != nil {
				wantDoc = c.Applied
			} else if len(left) > 0 {
				t.Fatal("a vector that leaves something out says what the platform then has (applied)")
			}
			if !reflect.DeepEqual(applied, wantDoc) {
				t.Errorf("the platform's values\n %v\nwant\n %v", applied, wantDoc)
			}
		})
	}
}

// decode reads a link as the platform does and checks the route's own
// parameters.
func decode(t testing.TB, link string, target launchlink.Target) *launcherroute.Route {
	t.Helper()
	r, err := launcherroute.Parse(link)
	if err != nil {
		t.Fatalf("the platform cannot read %s: %v", link, err)
	}
	wantParams := map[string]string{"autoLaunch": "false"}
	if target.Version != "" {
		wantParams["version"] = target.Version
	}
	if r.CatalogID != target.CatalogID || r.Chart != target.Chart || !reflect.DeepEqual(r.Params, wantParams) ||
		r.Base != strings.TrimRight(target.URL, "/") {
		t.Errorf("%s: route %q %q %q %v, want %q %q %q %v", link, r.Base, r.CatalogID, r.Chart, r.Params, target.URL, target.CatalogID, target.Chart, wantParams)
	}
	return r
}

// intPath turns JSON's numbers of a path into indexes.
func intPath(p []any) []any {
	out := make([]any, len(p))
	for i, s := range p {
		if f, ok := s.(float64); ok {
			out[i] = int(f)
		} else {
			out[i] = s
		}
	}
	return out
}

func clone(t testing.TB, v map[string]any) map[string]any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Numbers are written as JavaScript's Number#toString writes them (the
// values node gives for these): parseFloat reads each back exactly.
func TestNumber(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1, "1"}, {-1, "-1"}, {0.5, "0.5"}, {1.5e300, "1.5e+300"},
		{123e18, "123000000000000000000"}, {1e21, "1e+21"}, {1.25e21, "1.25e+21"}, {999999999999999900000, "999999999999999900000"},
		{1e-6, "0.000001"}, {1.5e-6, "0.0000015"}, {1e-7, "1e-7"}, {1.2345e-7, "1.2345e-7"}, {0.30000000000000004, "0.30000000000000004"},
		{9007199254740993, "9007199254740992"}, {math.MaxFloat64, "1.7976931348623157e+308"}, {5e-324, "5e-324"},
		{4.35, "4.35"}, {100, "100"}, {-0.001, "-0.001"},
	} {
		if got := launchlink.Number(c.x); got != c.want {
			t.Errorf("Number(%v) = %q, want %q", c.x, got, c.want)
		}
	}
}

// FuzzChanges builds links from random edits of random documents: the
// platform reads every link, and the changes it reads, applied to the
// form's values, give the edited values wherever nothing was left out.
func FuzzChanges(f *testing.F) {
	for _, c := range readVectors(f).Cases {
		d, _ := json.Marshal(c.Defaults)
		v, _ := json.Marshal(c.Values)
		f.Add(d, v, uint64(0))
	}
	f.Add([]byte(`{"a":{"b":[1,{"c":"d.e f"}]}}`), []byte(`{}`), uint64(7))
	f.Fuzz(func(t *testing.T, defaults, values []byte, seed uint64) {
		var def, val map[string]any
		if json.Unmarshal(defaults, &def) != nil || json.Unmarshal(values, &val) != nil {
			return
		}
		if def == nil {
			def = map[string]any{}
		}
		if val == nil {
			// An edit of the defaults, when the input is no document.
			val = clone(t, def)
			edit(rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), val)
		}
		entries, left := launchlink.Changes(def, val, launchlink.Secrets(nil))
		target := launchlink.Target{URL: "https://datalab.example.org", CatalogID: "ide", Chart: "c", Version: "1.0.0"}
		link := target.Link(entries)
		r := decode(t, link, target)
		if len(r.Patch) != len(entries) {
			t.Fatalf("%d entries, the platform reads %d: %s", len(entries), len(r.Patch), link)
		}
		applied := clone(t, def)
		if err := launcherroute.Apply(applied, r.Patch); err != nil {
			t.Fatalf("%s: %v", link, err)
		}
		if len(left) == 0 && !reflect.DeepEqual(applied, clone(t, val)) {
			t.Fatalf("%s gives\n %v\nwant\n %v", link, applied, val)
		}
	})
}

// edit changes a document at random: values replaced, keys added and
// removed, items appended.
func edit(r *rand.Rand, doc map[string]any) {
	leaves := []any{"x", "a.b c", "", "1", 3.5, -2.0, true, false, nil, "«q", "%5C."}
	keys := []string{"k", "a.b", "nvidia.com/gpu", "x_y", "z-1"}
	var walk func(v any, depth int) any
	walk = func(v any, depth int) any {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if r.IntN(4) == 0 {
					x[k] = walk(c, depth+1)
				}
			}
			if r.IntN(3) == 0 {
				x[keys[r.IntN(len(keys))]+strconv.Itoa(depth)] = leaves[r.IntN(len(leaves))]
			}
			return x
		case []any:
			for i, c := range x {
				if r.IntN(3) == 0 {
					x[i] = walk(c, depth+1)
				}
			}
			if r.IntN(3) == 0 {
				x = append(x, leaves[r.IntN(len(leaves))])
			}
			return x
		}
		return leaves[r.IntN(len(leaves))]
	}
	walk(doc, 0)
	if len(doc) == 0 {
		doc["g"] = map[string]any{"k": leaves[r.IntN(len(leaves))]}
	}
}
