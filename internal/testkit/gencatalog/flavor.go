package gencatalog

import (
	"fmt"
	"math/rand/v2"
)

// flavor is what a generated chart pretends to launch.
type flavor struct {
	catalog string // ide, databases or automation
	tool    string // vscode, postgresql, mlflow, ...
	stack   string // python, pytorch, ... (ide only)
	label   string // human name of the tool
	gpu     bool
	spark   bool
	port    int
	home    string // project home page
}

var ideTools = []struct {
	tool, label, home string
	port              int
	stacks            []string
}{
	{"jupyter", "Jupyter", "https://jupyter.org/", 8888, []string{"python", "pytorch", "tensorflow", "r-python-julia", "pyspark"}},
	{"vscode", "Visual Studio Code", "https://code.visualstudio.com/", 8080, []string{"python", "pytorch", "tensorflow", "r-python-julia", "pyspark"}},
	{"rstudio", "RStudio", "https://posit.co/products/open-source/rstudio/", 8787, []string{"r", "r-python-julia", "sparkr"}},
	{"marimo", "marimo", "https://marimo.io/", 2718, []string{"python"}},
}

var otherTools = []struct {
	catalog, tool, label, home string
	port                       int
}{
	{"databases", "postgresql", "PostgreSQL", "https://www.postgresql.org/", 5432},
	{"databases", "mongodb", "MongoDB", "https://www.mongodb.com/", 27017},
	{"databases", "redis", "Redis", "https://redis.io/", 6379},
	{"databases", "clickhouse", "ClickHouse", "https://clickhouse.com/", 8123},
	{"databases", "neo4j", "Neo4j", "https://neo4j.com/", 7474},
	{"databases", "elasticsearch", "Elasticsearch", "https://www.elastic.co/elasticsearch", 9200},
	{"databases", "mariadb", "MariaDB", "https://mariadb.org/", 3306},
	{"automation", "mlflow", "MLflow", "https://mlflow.org/", 5000},
	{"automation", "airflow", "Apache Airflow", "https://airflow.apache.org/", 8080},
	{"automation", "argo-workflows", "Argo Workflows", "https://argoproj.github.io/workflows/", 2746},
	{"automation", "label-studio", "Label Studio", "https://labelstud.io/", 8080},
	{"automation", "superset", "Apache Superset", "https://superset.apache.org/", 8088},
	{"automation", "prefect", "Prefect", "https://www.prefect.io/", 4200},
}

// pickFlavor draws the flavor of one chart: about half IDEs, the rest split
// between databases and automation tools, as in the three default catalogs.
func pickFlavor(r *rand.Rand) flavor {
	if r.IntN(2) == 0 {
		t := ideTools[r.IntN(len(ideTools))]
		f := flavor{catalog: "ide", tool: t.tool, label: t.label, home: t.home, port: t.port}
		f.stack = t.stacks[r.IntN(len(t.stacks))]
		f.spark = f.stack == "pyspark" || f.stack == "sparkr"
		f.gpu = !f.spark && f.stack != "r" && r.IntN(3) == 0
		return f
	}
	t := otherTools[r.IntN(len(otherTools))]
	return flavor{catalog: t.catalog, tool: t.tool, label: t.label, home: t.home, port: t.port}
}

// image returns the repository of the container image the chart runs.
func (f flavor) image() string {
	if f.catalog == "ide" {
		name := f.tool + "-" + f.stack
		if f.gpu {
			name += "-gpu"
		}
		return "docker.io/datalab/" + name
	}
	return "docker.io/datalab/" + f.tool
}

// imageTags returns a few plausible tags, newest first.
func (f flavor) imageTags(r *rand.Rand) []string {
	major, minor := 1+r.IntN(16), r.IntN(12)
	prefix := ""
	switch {
	case f.catalog != "ide":
	case f.stack == "r" || f.stack == "sparkr":
		prefix = "r4."
		major, minor = 4+r.IntN(2), r.IntN(5)
	default:
		prefix = "py3."
		major, minor = 11+r.IntN(3), r.IntN(12)
	}
	n := 2 + r.IntN(3)
	tags := make([]string, n)
	for i := range tags {
		if prefix != "" {
			tags[i] = fmt.Sprintf("%s%d.%d", prefix, major-i, minor+i)
		} else {
			tags[i] = fmt.Sprintf("%d.%d.%d", major, max(minor-i, 0), r.IntN(10))
		}
		if f.gpu {
			tags[i] += "-cuda12." + fmt.Sprint(r.IntN(8))
		}
	}
	return tags
}

// describe returns the Chart.yaml description.
func (f flavor) describe() string {
	switch f.catalog {
	case "ide":
		s := fmt.Sprintf("The %s IDE with a %s stack and a collection of standard data science packages", f.label, f.stack)
		if f.gpu {
			s += ", with GPU support"
		}
		return s + "."
	case "databases":
		return fmt.Sprintf("%s database with persistent storage, optional replicas and service discovery for the IDEs of the same project.", f.label)
	default:
		return fmt.Sprintf("%s for data-science automation, wired to the project's object storage and secrets.", f.label)
	}
}
