package lint

// library reports whether the chart is a library chart (type: library in
// Chart.yaml), which no user can launch, so rules about the form, the
// values and the icon do not concern it. Chart.yaml is parsed once per
// chart, shared with the rules that check it.
func (p *Pass) library() bool {
	root := chartDoc(p, false)
	if root == nil {
		return false
	}
	t := root.Get("type")
	return t != nil && t.Text == "library"
}
