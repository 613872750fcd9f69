package builder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// stagePrefix names the staging directories created next to the output; a
// build killed midway leaves one behind, which the next build removes.
const stagePrefix = ".catalogist-stage-"

// stage creates the staging directory next to Out, on the same file system,
// so that publishing is a rename.
func stage(c *Context) error {
	out, err := filepath.Abs(c.Out)
	if err != nil {
		return fmt.Errorf("output %s: %w", c.Out, err)
	}
	if info, err := os.Stat(out); err == nil && !info.IsDir() {
		return fmt.Errorf("output %s %w", c.Out, errNotDir)
	}
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("output %s: %w", c.Out, err)
	}
	removeStale(parent, filepath.Base(out))
	dir, err := os.MkdirTemp(parent, stagePrefix+filepath.Base(out)+"-")
	if err != nil {
		return fmt.Errorf("staging directory: %w", err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	c.Stage = dir
	return nil
}

// removeStale deletes staging directories earlier builds of the same output
// left behind when they were killed.
func removeStale(parent, base string) {
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if e.IsDir() && (strings.HasPrefix(e.Name(), stagePrefix+base+"-") || strings.HasPrefix(e.Name(), oldPrefix+base+"-")) {
			os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}

const oldPrefix = ".catalogist-old-"

// publish puts the staging directory in place of the output. On Linux the
// two are exchanged atomically; elsewhere the old output is moved aside
// first, leaving a moment without output but never a mixed one.
func publish(c *Context) error {
	out, err := filepath.Abs(c.Out)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(c.Stage, ".nojekyll"), nil, 0o644); err != nil {
		return err
	}
	_, statErr := os.Stat(out)
	switch {
	case errors.Is(statErr, fs.ErrNotExist):
		if err := os.Rename(c.Stage, out); err != nil {
			return fmt.Errorf("publishing %s: %w", c.Out, err)
		}
	case statErr != nil:
		return fmt.Errorf("output %s: %w", c.Out, statErr)
	default:
		if err := exchange(c.Stage, out); err != nil {
			if err := swap(c.Stage, out); err != nil {
				return err
			}
		}
		// c.Stage now holds the previous output, removed by cleanup.
	}
	c.writeState()
	return nil
}

func swap(stage, out string) error {
	old := filepath.Join(filepath.Dir(out), oldPrefix+filepath.Base(out)+"-"+filepath.Base(stage))
	if err := os.Rename(out, old); err != nil {
		return fmt.Errorf("moving the previous output aside: %w", err)
	}
	if err := os.Rename(stage, out); err != nil {
		os.Rename(old, out)
		return fmt.Errorf("publishing %s: %w", out, err)
	}
	return os.RemoveAll(old)
}
