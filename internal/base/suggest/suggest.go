// Package suggest finds the closest known name to a misspelt one, for
// "did you mean" hints.
package suggest

import "strings"

// Closest returns the candidate nearest to name by edit distance, when it is
// close enough to be a plausible typo (at most a third of the name's length,
// and at least one edit allowed), or "".
func Closest(name string, candidates []string) string {
	best, bestD := "", -1
	limit := max(len([]rune(name))/3, 1)
	lname := strings.ToLower(name)
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := distance(lname, strings.ToLower(c))
		if d <= limit && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Hint returns ` (did you mean "x"?)` for the candidate closest to name,
// or "" when none is close.
func Hint(name string, candidates []string) string {
	if s := Closest(name, candidates); s != "" {
		return ` (did you mean "` + s + `"?)`
	}
	return ""
}
