package pkgcontent

import (
	"bytes"
	"testing"
)

// FuzzRead reads arbitrary packages: no panic, no read beyond the bound,
// and a package read is the same as itself read again, and as no other
// the same way round as the other.
func FuzzRead(f *testing.F) {
	f.Add(tgz(f, 6, entry{name: "c/Chart.yaml", body: chartYAML}, entry{name: "c/templates/cm.yaml", body: cm}))
	f.Add(tgz(f, 1, entry{name: "c/Chart.lock", body: lockYAML}, entry{name: "c/charts/x/Chart.yaml", body: "a: &a [*a]\n"}))
	f.Add(tgz(f, 9, entry{name: `c\templates\x.yaml`, body: "x"}, entry{name: "c/../x", body: "y"}))
	f.Add(gz(f, []byte("not a tar")))
	f.Add([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff})
	ref := tgz(f, 6, entry{name: "c/Chart.yaml", body: chartYAML})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := read(bytes.NewReader(data), 1<<20)
		if err != nil {
			return
		}
		again, err := read(bytes.NewReader(data), 1<<20)
		if err != nil {
			t.Fatalf("read once, refused again: %v", err)
		}
		if d := Diff(c, again); d != "" {
			t.Fatalf("a package differs from itself by %q", d)
		}
		r, _ := Read(bytes.NewReader(ref))
		if d, e := Diff(c, r), Diff(r, c); d != e {
			t.Fatalf("Diff is %q one way, %q the other", d, e)
		}
	})
}
