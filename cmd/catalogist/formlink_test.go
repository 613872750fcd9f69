package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/catalogist/catalogist/internal/testkit/filetree"
	"github.com/catalogist/catalogist/internal/testkit/launcherroute"
)

// launchSchema is a chart of the onyxia platform with what a launch link
// must carry: a slider, a key holding dots (the GPU resource, a Spark
// setting), a list, and a password.
const launchSchema = `{
  "type": "object",
  "properties": {
    "resources": {"type": "object", "properties": {"limits": {"type": "object", "properties": {
      "memory": {"type": "string", "default": "8Gi", "render": "slider", "sliderMin": 1, "sliderMax": 64, "sliderStep": 1, "sliderUnit": "Gi"},
      "nvidia.com/gpu": {"type": "string", "default": "0", "render": "slider", "sliderMin": 0, "sliderMax": 4, "sliderStep": 1}
    }}}},
    "git": {"type": "object", "properties": {
      "repository": {"type": "string", "default": ""},
      "pin": {"type": "string", "render": "password", "default": ""}
    }},
    "environment": {"type": "object", "properties": {"variables": {
      "type": "array", "default": [{"name": "LANG", "value": "C"}],
      "items": {"type": "object", "properties": {"name": {"type": "string", "default": "NAME"}, "value": {"type": "string", "default": ""}}}
    }}},
    "spark": {"type": "object", "properties": {"userConfig": {
      "type": "object", "additionalProperties": {"type": "string"},
      "default": {"spark.driver.memory": "2g", "spark.executor.memory": "2g"}
    }}}
  }
}`

// launchCatalogFiles is a catalog served by an onyxia platform, with the
// chart at charts/spark-lab.
func launchCatalogFiles(catalogYAML string) map[string]string {
	return map[string]string{
		"catalog.yaml":                              catalogYAML,
		"charts/spark-lab/Chart.yaml":               "apiVersion: v2\nname: spark-lab\nversion: 1.2.0\n",
		"charts/spark-lab/values.schema.json":       launchSchema,
		"charts/spark-lab/templates/configmap.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n",
	}
}

const launchCatalogYAML = "name: ide\nplatform: onyxia\nextensionKey: x-onyxia\nplatformURL: https://datalab.example.org\nplatformCatalogID: ide\n"

// form --launch-url prints the link whose changes, as the platform reads
// them, are exactly those of the values file, secrets left out and named.
func TestFormLaunchURL(t *testing.T) {
	dir := t.TempDir()
	filetree.Write(t, dir, launchCatalogFiles(launchCatalogYAML))
	chartDir := filepath.Join(dir, "charts", "spark-lab")
	profile := filepath.Join(dir, "profile.yaml")
	vals := filepath.Join(dir, "values.yaml")
	filetree.Write(t, dir, map[string]string{
		"profile.yaml": "git:\n  token: ghp_0123456789abcdef\n",
		"values.yaml": `resources: {limits: {memory: 9Gi, nvidia.com/gpu: "2"}}
git: {repository: "https://gitlab.example.org/team/my repo.v2.git", pin: "1234"}
environment: {variables: [{name: LANG, value: "ghp_0123456789abcdef"}, {name: MODE, value: dev mode}]}
spark: {userConfig: {spark.driver.memory: 5g}}
`,
	})
	r := catalogist(t, nil, "form", "--launch-url", "--profile", profile, "-f", vals, chartDir)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	link := strings.TrimSuffix(r.stdout, "\n")
	if strings.Contains(link, "\n") || strings.Contains(link, "1234") || strings.Contains(link, "ghp_") {
		t.Errorf("stdout is not the link alone, without secrets: %q", r.stdout)
	}
	route, err := launcherroute.Parse(link)
	if err != nil {
		t.Fatalf("the platform cannot read %s: %v", link, err)
	}
	if route.Base != "https://datalab.example.org" || route.CatalogID != "ide" || route.Chart != "spark-lab" ||
		!reflect.DeepEqual(route.Params, map[string]string{"version": "1.2.0", "autoLaunch": "false"}) {
		t.Errorf("%s: the launcher of %q %q %q %v", link, route.Base, route.CatalogID, route.Chart, route.Params)
	}
	want := []launcherroute.Entry{
		{Path: []any{"environment", "variables", 1, "name"}, Value: "MODE"},
		{Path: []any{"environment", "variables", 1, "value"}, Value: "dev mode"},
		{Path: []any{"git", "repository"}, Value: "https://gitlab.example.org/team/my repo.v2.git"},
		{Path: []any{"resources", "limits", "memory"}, Value: "9Gi"},
		{Path: []any{"resources", "limits", "nvidia.com/gpu"}, Value: "2"},
		{Path: []any{"spark", "userConfig", "spark.driver.memory"}, Value: "5g"},
	}
	if !reflect.DeepEqual(route.Patch, want) {
		t.Errorf("the platform reads\n %#v\nwant\n %#v", route.Patch, want)
	}
	for _, key := range []string{"environment.variables[0].value", "git.pin"} {
		if !strings.Contains(r.stderr, "left out of the link: "+key+": a secret, which a link never carries") {
			t.Errorf("stderr does not name %s as a secret left out:\n%s", key, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "ghp_") || strings.Contains(r.stderr, "1234") {
		t.Errorf("stderr repeats a secret:\n%s", r.stderr)
	}

	// Without values files: the launcher with the form's values.
	if r := catalogist(t, nil, "form", "--launch-url", chartDir); r.code != 0 || r.stdout != "https://datalab.example.org/launcher/ide/spark-lab?version=1.2.0&autoLaunch=false\n" {
		t.Errorf("without values: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}

	// A shortened list cannot travel: the link is printed, the change
	// named, and the command refuses.
	short := filepath.Join(dir, "short.yaml")
	if err := os.WriteFile(short, []byte("environment: {variables: []}\nresources: {limits: {memory: 9Gi}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = catalogist(t, nil, "form", "--launch-url", "-f", short, chartDir)
	if r.code != 1 || !strings.HasSuffix(r.stdout, "&resources.limits.memory=«9Gi»\n") ||
		!strings.Contains(r.stderr, "left out of the link: environment.variables: a shorter list") {
		t.Errorf("a shortened list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// What --launch-url cannot work with is a usage error that says what to
// write.
func TestFormLaunchURLErrors(t *testing.T) {
	for _, c := range []struct {
		name, catalogYAML string
		args              []string
		want              string
	}{
		{"no platform address", "name: ide\nplatform: onyxia\nextensionKey: x-onyxia\n", nil,
			"catalog.yaml names no platform to link to: add platformURL: https://datalab.example.org (the platform's address) and platformCatalogID: ide (the catalog's id there) to it"},
		{"the catalogist platform", "name: ide\nplatform: catalogist\nplatformURL: https://datalab.example.org\nplatformCatalogID: ide\n", nil,
			"--launch-url opens the launcher of the onyxia platform"},
		{"a format", launchCatalogYAML, []string{"--format", "json"}, "--launch-url prints a link, not the form: leave out --format"},
		{"a values file that is not there", launchCatalogYAML, []string{"-f", "nowhere.yaml"}, "reading the values files"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			filetree.Write(t, dir, launchCatalogFiles(c.catalogYAML))
			args := append([]string{"form", "--launch-url"}, c.args...)
			r := catalogist(t, nil, append(args, filepath.Join(dir, "charts", "spark-lab"))...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
				t.Errorf("exit %d, want 2 with %q\n%s%s", r.code, c.want, r.stdout, r.stderr)
			}
		})
	}
	dir := t.TempDir()
	filetree.Write(t, dir, launchCatalogFiles(launchCatalogYAML))
	if r := catalogist(t, nil, "form", "-f", "x.yaml", filepath.Join(dir, "charts", "spark-lab")); r.code != 2 || !strings.Contains(r.stderr, "add --launch-url") {
		t.Errorf("--values without --launch-url: exit %d\n%s", r.code, r.stderr)
	}
}
