package repoindex

import (
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// docWriter writes random, hand-written-looking indexes: every layout and
// scalar style YAML allows for the values of an index, some of them
// invalid.
type docWriter struct {
	rng   *rand.Rand
	b     strings.Builder
	step  int  // indentation step
	inset bool // indent list items under their key
}

var scalarPool = append([]string{"nginx", "A chart: for tests", "1.2.3", "x y  z", "it's", `say "hi"`, "a\\b", "tab\there", "two\nlines", "café ✓", "#notcomment", "- dash", "ends with space ", "?", "a: b", "[x]"}, hostile...)

func (w *docWriter) indent(n int) { w.b.WriteString(strings.Repeat(" ", n)) }

func (w *docWriter) eol() {
	switch w.rng.IntN(12) {
	case 0:
		w.b.WriteString(" # comment")
	case 1:
		w.b.WriteString("   ")
	}
	w.b.WriteString("\n")
	if w.rng.IntN(15) == 0 {
		w.b.WriteString("\n")
	}
	if w.rng.IntN(20) == 0 {
		w.b.WriteString("# full-line comment\n")
	}
}

// scalar writes s in a random style, continuation lines at indent.
func (w *docWriter) scalar(s string, indent int) {
	style := w.rng.IntN(6)
	if style <= 1 && !isPlainSafe(s) && w.rng.IntN(8) != 0 {
		style = 3 // mostly valid documents, to compare values
	}
	switch style {
	case 0, 1:
		w.b.WriteString(s) // plain, perhaps invalid or retyped
	case 2:
		w.b.WriteString("'" + strings.ReplaceAll(s, "'", "''") + "'")
	case 3:
		w.b.WriteString(strconv.Quote(s))
	case 4: // folded over lines
		q := strconv.Quote(s)
		if w.rng.IntN(2) == 0 {
			q = "'" + strings.ReplaceAll(s, "'", "''") + "'"
		}
		if i := strings.IndexByte(q, ' '); i > 0 {
			q = q[:i] + "\n" + strings.Repeat(" ", indent) + q[i+1:]
		}
		w.b.WriteString(q)
	default:
		if !isPlainSafe(s) && w.rng.IntN(8) != 0 {
			s = strconv.Quote(s)
		}
		if i := strings.IndexByte(s, ' '); i > 0 && w.rng.IntN(2) == 0 {
			s = s[:i] + "\n" + strings.Repeat(" ", indent) + s[i+1:]
		}
		w.b.WriteString(s)
	}
}

func (w *docWriter) pick() string { return scalarPool[w.rng.IntN(len(scalarPool))] }

func (w *docWriter) list(key string, indent int, items []string) {
	w.indent(indent)
	w.b.WriteString(key + ":")
	if w.rng.IntN(6) == 0 {
		w.b.WriteString(" []")
		w.eol()
		return
	}
	w.eol()
	at := indent
	if w.inset {
		at += w.step
	}
	for _, it := range items {
		w.indent(at)
		w.b.WriteString("- ")
		w.scalar(it, at+2)
		w.eol()
	}
}

func (w *docWriter) version(chart string, at int) {
	in := at + 2
	w.indent(at)
	w.b.WriteString("- ")
	first := true
	field := func(key string, f func(indent int)) {
		if first {
			first = false
			w.b.WriteString(key + ": ")
			f(in)
			w.eol()
			return
		}
		w.indent(in)
		w.b.WriteString(key + ": ")
		f(in)
		w.eol()
	}
	field("name", func(int) { w.b.WriteString(chart) })
	versions := []string{"1.0.0", "0.1.2", "2.0.0-rc.1", "10.1.0", `"3.0.0+b"`, "v1.2.3", "'1.1.1'", "1.0.0", "1.0"}
	field("version", func(int) { w.b.WriteString(versions[w.rng.IntN(len(versions))]) })
	for _, k := range []string{"description", "appVersion", "home", "digest", "icon", "kubeVersion"} {
		if w.rng.IntN(2) == 0 {
			v := w.pick()
			field(k, func(indent int) { w.scalar(v, indent+w.step) })
		}
	}
	if w.rng.IntN(2) == 0 {
		field("created", func(int) { w.b.WriteString(`"2024-01-02T03:04:05.5+02:00"`) })
	}
	if w.rng.IntN(2) == 0 {
		w.list("keywords", in, []string{w.pick(), w.pick()})
	}
	if w.rng.IntN(2) == 0 {
		w.list("urls", in, []string{w.pick()})
	}
	if w.rng.IntN(2) == 0 {
		w.indent(in)
		w.b.WriteString("annotations:")
		w.eol()
		for range 1 + w.rng.IntN(3) {
			w.indent(in + w.step)
			// Plain keys only when unambiguous: Helm keeps one of yes and
			// "true" (both "true") at random.
			if k := w.pick(); isPlainSafe(k) {
				w.b.WriteString(k)
			} else {
				w.b.WriteString(strconv.Quote(k))
			}
			w.b.WriteString(": ")
			w.scalar(w.pick(), in+2*w.step)
			w.eol()
		}
	}
	if w.rng.IntN(3) == 0 {
		w.indent(in)
		w.b.WriteString("maintainers:")
		w.eol()
		w.indent(in)
		w.b.WriteString("- name: ")
		w.scalar(w.pick(), in+4)
		w.eol()
		w.indent(in + 2)
		w.b.WriteString("email: e@x")
		w.eol()
	}
}

func (w *docWriter) doc() string {
	w.step = 2 + 2*w.rng.IntN(2)
	w.inset = w.rng.IntN(2) == 0
	if w.rng.IntN(5) == 0 {
		w.b.WriteString("---\n")
	}
	w.b.WriteString("apiVersion: v1")
	w.eol()
	w.b.WriteString("entries:")
	w.eol()
	for c := range 1 + w.rng.IntN(3) {
		chart := []string{"alpha", "beta", "gamma-chart"}[c]
		w.indent(w.step)
		w.b.WriteString(chart + ":")
		w.eol()
		at := w.step
		if w.inset {
			at += w.step
		}
		for range 1 + w.rng.IntN(3) {
			w.version(chart, at)
		}
	}
	w.b.WriteString("generated: \"2024-01-02T03:04:05Z\"\n")
	s := w.b.String()
	if w.rng.IntN(4) == 0 {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	return s
}

// TestReadLikeHelmGenerated compares Read with Helm's loader, and the fast
// parser with the general one, on random hand-written-looking indexes.
// REPOINDEX_SEED=n explores other documents.
func TestReadLikeHelmGenerated(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	seed := uint64(7)
	if v, err := strconv.ParseUint(os.Getenv("REPOINDEX_SEED"), 10, 64); err == nil {
		seed = v
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	fastCount, accepted := 0, 0
	for i := range n {
		w := &docWriter{rng: rng}
		data := w.doc()
		want, herr := helmLoad(t, data)
		got, err := Read([]byte(data), "gen.yaml")
		switch {
		case herr != nil && err == nil:
			t.Fatalf("doc %d: Helm refuses it (%v), Read accepts it:\n%s", i, herr, data)
		case herr == nil && err != nil:
			t.Fatalf("doc %d: Helm reads it, Read says %v:\n%s", i, err, data)
		case herr == nil:
			accepted++
			if g, w := normalTimes(t, got), normalTimes(t, comparable(want)); g != w {
				t.Fatalf("doc %d: Read differs from Helm: %s\n%s", i, firstDiff(g, w), data)
			}
		}
		ft, froot, ferr := fastParse(data)
		if ferr != nil {
			continue
		}
		if herr == nil {
			fastCount++
		}
		fast, _, ferr := decodeTree(ft, froot, nil)
		general, _, gerr := decodeTree(generalParse([]byte(data)))
		if (ferr == nil) != (gerr == nil) || ferr == nil && normalTimes(t, fast) != normalTimes(t, general) {
			t.Fatalf("doc %d: the parsers disagree (%v, %v):\n%s", i, ferr, gerr, data)
		}
	}
	if accepted < n/8 || fastCount < accepted/3 {
		t.Errorf("of %d documents, Helm read %d and the fast parser %d: the test needs better ones", n, accepted, fastCount)
	}
}
