package launcherroute

import (
	"reflect"
	"testing"
)

// The decoder reads the forms section 10 of the platform notes gives: a
// dot inside a key as %5C. (either case) or a backslash, guillemets raw or
// percent-encoded, list indexes, and the route's own parameters apart.
func TestParse(t *testing.T) {
	for _, c := range []struct {
		link   string
		params map[string]string
		patch  []Entry
	}{
		{"https://p.example.org/launcher/ide/spark?version=1.0.0&autoLaunch=false&spark.userConfig.spark%5C.driver%5C.memory=%C2%AB5g%C2%BB",
			map[string]string{"version": "1.0.0", "autoLaunch": "false"},
			[]Entry{{Path: []any{"spark", "userConfig", "spark.driver.memory"}, Value: "5g"}}},
		{"https://p.example.org/launcher/ide/spark?spark.userConfig.spark%5c.driver%5c.memory=«5g»&resources.limits.nvidia%5C.com/gpu=1",
			map[string]string{},
			[]Entry{{Path: []any{"spark", "userConfig", "spark.driver.memory"}, Value: "5g"}, {Path: []any{"resources", "limits", "nvidia.com/gpu"}, Value: 1.0}}},
		{`https://p.example.org/launcher/ide/spark?spark.userConfig.spark\.driver\.memory=%C2%AB5g%C2%BB&name=my%20spark`,
			map[string]string{"name": "my spark"},
			[]Entry{{Path: []any{"spark", "userConfig", "spark.driver.memory"}, Value: "5g"}}},
		{"https://p.example.org/launcher/ide/c?env[0].name=«A%20B»&m[1][2].x=-1.5e+3&a.b=null&a.c=-&a.d=true&a.e=false&a.f=«»",
			map[string]string{},
			[]Entry{
				{Path: []any{"env", 0, "name"}, Value: "A B"}, {Path: []any{"m", 1, 2, "x"}, Value: -1500.0},
				{Path: []any{"a", "b"}}, {Path: []any{"a", "c"}, Remove: true}, {Path: []any{"a", "d"}, Value: true},
				{Path: []any{"a", "e"}, Value: false}, {Path: []any{"a", "f"}, Value: ""},
			}},
	} {
		r, err := Parse(c.link)
		if err != nil {
			t.Errorf("%s: %v", c.link, err)
			continue
		}
		if !reflect.DeepEqual(r.Params, c.params) || !reflect.DeepEqual(r.Patch, c.patch) {
			t.Errorf("%s:\n got %v %#v\nwant %v %#v", c.link, r.Params, r.Patch, c.params, c.patch)
		}
	}
	for _, bad := range []string{
		"https://p.example.org/launch/ide/c",
		"https://p.example.org/launcher/ide/c?a.b=x",
		"https://p.example.org/launcher/ide/c?a.b=«x»y»",
		"https://p.example.org/launcher/ide/c?a.b=«x",
		"https://p.example.org/launcher/ide/c?a.b==1",
		"https://p.example.org/launcher/ide/c?a.b=%ZZ",
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
}

// Apply does what the platform's assignValueAtPath does, refusals included.
func TestApply(t *testing.T) {
	doc := map[string]any{"a": "x", "l": []any{1.0}, "m": map[string]any{"k": 1.0}}
	err := Apply(doc, []Entry{
		{Path: []any{"a", "b"}, Value: 1.0},
		{Path: []any{"l", 2}, Value: "z"},
		{Path: []any{"m", "k"}, Remove: true},
		{Path: []any{"n", 0, "o"}, Value: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"a": map[string]any{"b": 1.0}, "l": []any{1.0, nil, "z"}, "m": map[string]any{}, "n": []any{map[string]any{"o": true}}}
	if !reflect.DeepEqual(doc, want) {
		t.Errorf("got %v, want %v", doc, want)
	}
	if err := Apply(doc, []Entry{{Path: []any{"l", "k"}, Value: 1.0}}); err == nil {
		t.Error("a key set under a list was applied")
	}
}
