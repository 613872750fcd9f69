package builder

import (
	"sync"

	"github.com/catalogist/catalogist/internal/output/site"
)

// iconState is what the last build made of an icon file: its copy's name
// in the site ("" when the file is not a usable image), and the file's stat
// data then. The state keeps https icons with them, by URL and without
// stat data: Name is "" when the icon could not be fetched.
type iconState struct {
	fileStat
	Name string `json:"name"`
}

// icons examines each icon file once per build, however many charts show
// it, fetches each https icon once (see siteIcon), and puts each copy in
// place once, however many files and URLs have its content.
type icons struct {
	files  sync.Map // file -> *iconResult
	copies sync.Map // copy name -> *iconPlace
	// fetchAll fetches the https icons of every chart, remote holds what
	// became of them, and staged the copies of those the site shows, by
	// their path in the staging directory, which the site is given as
	// their icon file.
	fetchAll sync.Once
	remote   sync.Map // URL -> *remoteIcon
	staged   sync.Map // staged copy -> *remoteIcon
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
// its copy is the previous output's. The copy of an https icon, which the
// site is given in place of its URL, is already in place.
func (b *build) iconCopy(file string) (string, error) {
	if v, ok := b.out.icons.staged.Load(file); ok {
		r := v.(*remoteIcon)
		return r.name, r.err
	}
	v, _ := b.out.icons.files.LoadOrStore(file, &iconResult{})
	r := v.(*iconResult)
	r.once.Do(func() { r.name, r.err = b.examineIcon(file) })
	return r.name, r.err
}

func (b *build) examineIcon(file string) (string, error) {
	st, statErr := statFile(file)
	if statErr == nil {
		if prev, ok := b.in.previous.Icons[file]; ok && b.in.previous.unchanged(prev.fileStat, st) {
			if prev.Name == "" || b.placeIcon(prev.Name, nil) == nil {
				b.recordIcon(file, prev)
				return prev.Name, nil
			}
		}
	}
	name, data, err := site.IconCopy(file)
	if err != nil {
		return "", err
	}
	if name != "" {
		if err := b.placeIcon(name, data); err != nil {
			return "", err
		}
	}
	if statErr == nil {
		b.recordIcon(file, iconState{fileStat: st, Name: name})
	}
	return name, nil
}

// placeIcon puts an icon's copy in the staging directory once: linked from
// the previous output when data is nil, else written. A failed link (the
// copy was deleted from the output, say) leaves it to be written by the
// next call with data, and the files of the same content wait for each
// other rather than create the copy at the same time.
func (b *build) placeIcon(name string, data []byte) error {
	v, _ := b.out.icons.copies.LoadOrStore(name, &iconPlace{})
	p := v.(*iconPlace)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.placed {
		return nil
	}
	var err error
	if data == nil {
		err = b.linkPrevious(name)
	} else {
		err = b.writeFile(name, data)
	}
	p.placed = err == nil
	return err
}

func (b *build) recordIcon(file string, st iconState) {
	b.out.record.update(func(next *state) {
		if next.Icons == nil {
			next.Icons = map[string]iconState{}
		}
		next.Icons[file] = st
	})
}
