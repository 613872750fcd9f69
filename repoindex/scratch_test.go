package repoindex

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestScratchBails(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	acc, fast := 0, 0
	shown := 0
	for range 400 {
		w := &docWriter{rng: rng}
		data := w.doc()
		if _, err := helmLoad(t, data); err != nil {
			continue
		}
		acc++
		_, _, ferr := fastParse(data)
		if ferr == nil {
			fast++
			continue
		}
		var u *unusualError
		errors.As(ferr, &u)
		if shown < 15 && u.line > 0 {
			shown++
			lines := strings.Split(data, "\n")
			t.Logf("bail at %d: %q (prev %q)", u.line, lines[u.line-1], lines[max(u.line-2, 0)])
		}
	}
	t.Logf("helm accepted %d, fast %d", acc, fast)
}
