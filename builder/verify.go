package builder

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/catalogist/catalogist/internal/input/chartrepo"
)

// A build exits successfully only once it has checked the output it put in
// place: every file it staged is there with the size and time it had, the
// index is the one written, and every package the index names relatively
// has the index's digest. The digests are those of the staged files, which
// the size and time check then proves to be the published ones: computed
// when a package is made or carried, and, for a package reused from the
// previous output, while the build goes on, and waited for before the
// swap, so that checking costs an incremental build little hashing at the
// end.

// stagedPackage records the digest of a package staged at rel.
func (b *build) stagedPackage(rel, digest string) {
	f := newFuture[string]()
	f.set(digest, nil)
	b.out.digests.Store(rel, f)
}

// hashStaged computes, alongside the build, the digest of a package staged
// at rel.
func (b *build) hashStaged(rel string) {
	f := newFuture[string]()
	b.out.digests.Store(rel, f)
	p := filepath.Join(b.stage.dir, filepath.FromSlash(rel))
	f.start(b.work, func() (string, error) {
		b.cpu <- struct{}{}
		defer func() { <-b.cpu }()
		return chartrepo.FileDigest(p), nil
	})
}

// stagedDigests waits for the digests being computed.
func (b *build) stagedDigests() {
	b.out.digests.Range(func(_, v any) bool {
		v.(*future[string]).wait()
		return true
	})
}

// verifyPublished checks the output publish put in place, and then records
// the build's state.
func verifyPublished(_ context.Context, b *build) error {
	out, err := filepath.Abs(b.in.Out)
	if err != nil {
		return err
	}
	if err := b.verifyOutput(out); err != nil {
		// What the state would say of this output is not so: the next
		// build starts cold.
		os.Remove(statePath(b.in.Out))
		return fmt.Errorf("the output %s is in place but is not what this build assembled: %w; did another program change it? Build again", b.in.Out, err)
	}
	b.writeState()
	return nil
}

// verifyOutput checks the output once it is in place.
func (b *build) verifyOutput(out string) error {
	files := b.stage.tree.fileList()
	recorded := b.out.record.next.Files
	errs := make([]error, len(files))
	parallel(len(files), func(i int) {
		rel := files[i]
		want := recorded[rel]
		info, err := os.Lstat(filepath.Join(out, filepath.FromSlash(rel)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			errs[i] = fmt.Errorf("%s is missing", rel)
		case err != nil:
			errs[i] = err
		case !info.Mode().IsRegular() || info.Size() != want.Size || info.ModTime().UnixNano() != want.MTime:
			errs[i] = fmt.Errorf("%s was replaced", rel)
		}
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(out, IndexFile))
	if err != nil {
		return err
	}
	if !bytes.Equal(data, b.out.indexData) {
		return fmt.Errorf("%s differs from the one written", IndexFile)
	}
	type pkg struct{ rel, digest, what string }
	var pkgs []pkg
	for _, name := range slices.Sorted(maps.Keys(b.out.index.Entries)) {
		for _, cv := range b.out.index.Entries[name] {
			if len(cv.URLs) == 0 {
				return fmt.Errorf("%s %s has no URL", cv.Name, cv.Version)
			}
			rel, ok, err := relativeURL(cv.URLs[0])
			if err != nil {
				return fmt.Errorf("%s %s: %w", cv.Name, cv.Version, err)
			}
			if ok {
				pkgs = append(pkgs, pkg{rel, cv.Digest, cv.Name + " " + cv.Version})
			}
		}
	}
	errs = make([]error, len(pkgs))
	parallel(len(pkgs), func(i int) {
		p := pkgs[i]
		if _, staged := recorded[p.rel]; !staged {
			errs[i] = fmt.Errorf("the package of %s, %s, is not in the output", p.what, p.rel)
			return
		}
		digest := ""
		if v, ok := b.out.digests.Load(p.rel); ok {
			digest, _ = v.(*future[string]).wait()
		} else {
			digest = chartrepo.FileDigest(filepath.Join(out, filepath.FromSlash(p.rel)))
		}
		if p.digest != "" && !chartrepo.SameDigest(digest, p.digest) {
			errs[i] = fmt.Errorf("the package of %s, %s, does not have the index's digest %s", p.what, p.rel, p.digest)
		}
	})
	return errors.Join(errs...)
}
