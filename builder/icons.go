package builder

import (
	"os"
	"sync"
	"time"

	"github.com/catalogist/catalogist/site"
)

// iconState is what the last build made of an icon file: its copy's name
// in the site ("" when the file is not a usable image), and the file's size
// and time then.
type iconState struct {
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime"`
	Name  string `json:"name"`
}

// icons examines each icon file once per build, however many charts show
// it, and puts each copy in place once, however many files have its
// content.
type icons struct {
	files  sync.Map // file -> *iconResult
	copies sync.Map // copy name -> *iconPlace
}

// iconPlace is whether an icon's copy is in the staging directory.
type iconPlace struct {
	mu     sync.Mutex
	placed bool
}

type iconResult struct {
	once sync.Once
	name string
	err  error
}

// iconCopy returns the name of an icon file's copy in the site, which it
// puts in the staging directory, or "" when the file is not a usable image.
// A file with the size and time the last build recorded is not read again:
// its copy is the previous output's.
func (c *Context) iconCopy(file string) (string, error) {
	v, _ := c.icons.files.LoadOrStore(file, &iconResult{})
	r := v.(*iconResult)
	r.once.Do(func() { r.name, r.err = c.examineIcon(file) })
	return r.name, r.err
}

func (c *Context) examineIcon(file string) (string, error) {
	info, statErr := os.Stat(file)
	if statErr == nil {
		mtime := info.ModTime().UnixNano()
		if prev, ok := c.previous.Icons[file]; ok && prev.Size == info.Size() && prev.MTime == mtime && mtime+int64(time.Second) < c.previous.Written {
			if prev.Name == "" || c.placeIcon(prev.Name, nil) == nil {
				c.recordIcon(file, prev)
				return prev.Name, nil
			}
		}
	}
	name, data, err := site.IconCopy(file)
	if err != nil {
		return "", err
	}
	if name != "" {
		if err := c.placeIcon(name, data); err != nil {
			return "", err
		}
	}
	if statErr == nil {
		c.recordIcon(file, iconState{Size: info.Size(), MTime: info.ModTime().UnixNano(), Name: name})
	}
	return name, nil
}

// placeIcon puts an icon's copy in the staging directory once: linked from
// the previous output when data is nil, else written. A failed link (the
// copy was deleted from the output, say) leaves it to be written by the
// next call with data, and the files of the same content wait for each
// other rather than create the copy at the same time.
func (c *Context) placeIcon(name string, data []byte) error {
	v, _ := c.icons.copies.LoadOrStore(name, &iconPlace{})
	p := v.(*iconPlace)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.placed {
		return nil
	}
	var err error
	if data == nil {
		err = c.linkPrevious(name)
	} else {
		err = c.writeFile(name, data)
	}
	p.placed = err == nil
	return err
}

func (c *Context) recordIcon(file string, st iconState) {
	next := c.nextState()
	c.nextMu.Lock()
	defer c.nextMu.Unlock()
	if next.Icons == nil {
		next.Icons = map[string]iconState{}
	}
	next.Icons[file] = st
}
