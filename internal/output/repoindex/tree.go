package repoindex

import repo "helm.sh/helm/v4/pkg/repo/v1"

// kind is the shape of a parsed YAML value.
type kind uint8

const (
	scalarKind kind = iota
	mappingKind
	sequenceKind
	decodedKind // a chart version decoded already: tree.versions[start]
)

// style says how a scalar's type is decided. Helm reads YAML with yaml.v2,
// which gives unquoted scalars YAML 1.1 types (yes is a bool, 1.10 a float),
// so the decoder must know which scalars were quoted.
type style uint8

const (
	plainStyle  style = iota // resolved like yaml.v2: null, bool, number or string
	stringStyle              // quoted, or tagged !!str: always a string
)

// node is one YAML value. Nodes live in one slice and refer to each other
// by index, and hold no pointers, so that parsing a large index allocates
// a few big arrays that the garbage collector need not scan, instead of
// one object per value.
type node struct {
	start, end int32 // scalar text: src[start:end], or extra[start] when end < 0
	line       int32 // 1-based line of the value's first character
	first      int32 // first child; a mapping's children alternate key, value
	next       int32 // next sibling
	kind       kind
	style      style
}

// tree holds the nodes of one document. Index 0 is a sentinel, so that 0
// means "none" in first and next.
type tree struct {
	src   string   // the input, which most scalars are slices of
	extra []string // scalars that had to be unquoted or folded
	nodes []node
	// versions are the chart versions the parser decoded as it went.
	versions []decoded
}

// decoded is a chart version decoded by the parser, or why it could not be.
type decoded struct {
	cv  *repo.ChartVersion
	err error
}

func newTree(src string, capacity int) *tree {
	return &tree{src: src, nodes: make([]node, 1, max(capacity, 16))}
}

func (t *tree) add(n node) int32 {
	t.nodes = append(t.nodes, n)
	return int32(len(t.nodes) - 1)
}

// addSpan adds a scalar whose text is src[start:end].
func (t *tree) addSpan(start, end int, line int, st style) int32 {
	return t.add(node{start: int32(start), end: int32(end), line: int32(line), style: st})
}

// addString adds a scalar whose text is not a slice of src.
func (t *tree) addString(s string, line int, st style) int32 {
	t.extra = append(t.extra, s)
	return t.add(node{start: int32(len(t.extra) - 1), end: -1, line: int32(line), style: st})
}

// value returns the text of scalar i.
func (t *tree) value(i int32) string {
	n := &t.nodes[i]
	if n.end < 0 {
		return t.extra[n.start]
	}
	return t.src[n.start:n.end]
}

// children collects the children of a node being built.
type children struct {
	first, last int32
}

func (c *children) push(t *tree, i int32) {
	if c.first == 0 {
		c.first = i
	} else {
		t.nodes[c.last].next = i
	}
	c.last = i
}
