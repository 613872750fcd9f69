// Package gencatalog writes generated chart catalogs for benchmarks and
// tests: realistic charts of a data-science launcher (IDEs, databases,
// automation tools) whose values.schema.json files use the platform's
// extension (x-platform), sliders, range sliders and hidden conditions, at
// about the size of real ones.
//
// Generation is deterministic: chart i depends only on i, so the same n always
// gives the same bytes.
package gencatalog

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// ChartName is the name (and directory name) of the i-th generated chart.
func ChartName(i int) string { return fmt.Sprintf("chart-%03d", i) }

// Write writes a catalog of n charts into dir:
//
//	dir/catalog.yaml
//	dir/icons/chart-NNN.svg (the icon of the tool it packages: an icon of
//	  the catalog, not a remote one, so that builds never go to the network)
//	dir/charts/chart-NNN/{Chart.yaml, values.yaml, values.schema.json, README.md}
//	dir/charts/chart-NNN/templates/{deployment.yaml, _helpers.tpl}
//
// Existing files of the same names are replaced; other files are left alone.
func Write(dir string, n int) error {
	if n < 0 {
		return errors.New("gencatalog: negative chart count")
	}
	for i := range n {
		files, tool, err := chartFiles(i)
		if err != nil {
			return err
		}
		for _, f := range files {
			if err := writeFile(filepath.Join(dir, "charts", ChartName(i), f.path), f.data); err != nil {
				return err
			}
		}
		if err := writeFile(filepath.Join(dir, "icons", ChartName(i)+".svg"), iconSVG(tool)); err != nil {
			return err
		}
	}
	return writeFile(filepath.Join(dir, "catalog.yaml"), catalogYAML(n))
}

type file struct {
	path string
	data []byte
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// iconSVG is a tool's icon: a disc of a colour of its own.
func iconSVG(tool string) []byte {
	h := fnv.New32a()
	h.Write([]byte(tool))
	return fmt.Appendf(nil, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><circle cx="32" cy="32" r="30" fill="#%06x"/></svg>`+"\n", h.Sum32()&0xffffff)
}

// chartFiles generates the files of chart i, paths relative to its
// directory, and names the tool it packages.
func chartFiles(i int) ([]file, string, error) {
	r := rand.New(rand.NewPCG(uint64(i)+1, 0x9e3779b97f4a7c15))
	g := &chartGen{r: r, name: ChartName(i), f: pickFlavor(r)}
	g.tags = g.f.imageTags(r)
	step := []int{50, 100}[r.IntN(2)]
	g.cpu = bounds{min: step, max: []int{20000, 40000, 80000}[r.IntN(3)], step: step, unit: "m"}
	g.mem = bounds{min: 1, max: []int{64, 128, 200, 400}[r.IntN(4)], step: 1, unit: "Gi"}
	g.gpu = bounds{min: 1, max: 2 + r.IntN(7), step: 1}
	g.disk = bounds{min: 1, max: []int{100, 200, 500}[r.IntN(3)], step: 1, unit: "Gi"}
	version := fmt.Sprintf("%d.%d.%d", 1+r.IntN(3), r.IntN(20), r.IntN(10))

	schema, err := g.schema()
	if err != nil {
		return nil, "", err
	}
	var sj bytes.Buffer
	encodeJSON(&sj, schema, 0)
	sj.WriteByte('\n')
	values, err := valuesYAML(g.name, schema)
	if err != nil {
		return nil, "", err
	}
	return []file{
		{"Chart.yaml", g.chartYAML(version)},
		{"values.yaml", values},
		{"values.schema.json", sj.Bytes()},
		{"README.md", g.readme(schema)},
		{"templates/_helpers.tpl", g.helpers()},
		{"templates/deployment.yaml", g.deployment()},
	}, g.f.tool, nil
}

// catalogYAML is the catalog's own settings file.
func catalogYAML(n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "name: generated-%d\n", n)
	fmt.Fprintf(&b, "title: Generated catalog (%d charts)\n", n)
	b.WriteString("description: Generated IDE, database and automation charts, for benchmarks and tests.\n")
	fmt.Fprintf(&b, "source: https://git.example.org/datalab/catalog-generated-%d\n", n)
	fmt.Fprintf(&b, "baseURL: https://catalogs.example.org/generated-%d\n", n)
	b.WriteString("extensionKey: x-platform\n")
	return []byte(b.String())
}
