package lint

import "maps"

// Keep drops the recorded findings of the charts keep refuses, for a run
// that lints only some charts (--changed-since): the other charts'
// findings cannot occur, and are not stale for that. The findings of no
// chart (the region file's) are kept.
func (b *Baseline) Keep(keep func(chart string) bool) {
	maps.DeleteFunc(b.counts, func(k baselineKey, _ int) bool { return k.Chart != "" && !keep(k.Chart) })
}
