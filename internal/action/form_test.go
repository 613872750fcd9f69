package action

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// A chart without values.schema.json: the platform opens a launcher with
// no fields, so form describes it and exits 0.
func TestFormOfChartWithoutSchema(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Chart.yaml", "apiVersion: v2\nname: demo\nversion: 1.0.0\n")
	write("values.yaml", "mode: 0755\nverbose: yes\ntolerations: []\n")
	for _, format := range []string{"json", "text"} {
		var out bytes.Buffer
		f := &Form{Chart: dir, Format: format, Stdout: &out}
		if err := f.Run(context.Background()); err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		if format == "text" {
			if !strings.Contains(out.String(), "has no values.schema.json, so platform") || !strings.Contains(out.String(), "mode: 755") {
				t.Errorf("text:\n%s", out.String())
			}
			continue
		}
		var d struct {
			Schemaless bool
			Opens      bool
			Values     map[string]any
			Options    []any
		}
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"mode": float64(755), "verbose": "yes"}
		if !d.Schemaless || !d.Opens || len(d.Options) != 0 || !reflect.DeepEqual(d.Values, want) {
			t.Errorf("got %+v, want a schemaless launcher sending %v", d, want)
		}
	}
}
