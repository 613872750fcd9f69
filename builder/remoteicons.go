package builder

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/catalogist/catalogist/internal/base/secret"
	"github.com/catalogist/catalogist/internal/input/catalog"
	"github.com/catalogist/catalogist/internal/input/chartrepo"
	"github.com/catalogist/catalogist/internal/output/site"
)

// maxRemoteIcon bounds what an https icon may weigh: icons are shown at
// 64 pixels, and a larger body is a wrong URL or a server to distrust.
const maxRemoteIcon = 1 << 20

// remoteIconTimeout bounds the fetch of one https icon: an unreachable host
// costs the build that long, once, rather than the client's two minutes.
const remoteIconTimeout = 20 * time.Second

// rasterExts are the raster types the site shows, by the type
// http.DetectContentType reads from the bytes, with their copy's extension.
// Anything else is read as SVG, which the type sniffer does not recognise.
var rasterExts = map[string]string{
	"image/png":  ".png",
	"image/jpeg": ".jpg",
	"image/gif":  ".gif",
	"image/webp": ".webp",
}

// remoteIcon is what the build made of an https icon: the name of its copy
// in the site, or "" and the problem that leaves the default icon in its
// place; err is a failure to put the copy in the staging directory, which
// fails the build as it does for an icon file.
type remoteIcon struct {
	once    sync.Once
	name    string
	problem error
	err     error
}

// siteIcon is the icon file the site is given for a chart: the catalog's
// file, or for an https icon the copy of it in the staging directory, so
// that no page links to another host; "" gives the default icon, with a
// warning saying why.
//
// The key of a chart's page does not hold what its https icon gave: a page
// kept from the last build shows what that build made of it, which the
// state records. When this build makes something else of it (the host
// answers again, or the copy had to be fetched again and changed), the
// page's key is dropped so that the next build renders it again.
func (b *build) siteIcon(ch *Chart, icon catalog.Icon, withPage bool) string {
	if icon.URL == "" {
		return icon.File
	}
	b.out.icons.fetchAll.Do(b.fetchRemoteIcons)
	r := b.remoteIcon(icon.URL)
	if prev, ok := b.in.previous.Icons[icon.URL]; !withPage && (!ok || prev.Name != r.name) {
		b.out.record.chart(ch.Meta.Name).PageKey = ""
	}
	if r.problem != nil {
		fmt.Fprintf(b.in.Log, "warning: chart %s (%s): icon %s: %s; the site shows the default icon instead: check the URL, or put the icon in the catalog's icons directory and name it in Chart.yaml\n",
			ch.Meta.Name, ch.Src.ChartFile, secret.RedactURL(icon.URL), iconProblem(icon.URL, r.problem))
	}
	if r.name == "" {
		return ""
	}
	return filepath.Join(b.stage.dir, filepath.FromSlash(r.name))
}

// fetchRemoteIcons fetches every chart's https icon at once, before the
// site asks for them one chart after the other.
func (b *build) fetchRemoteIcons() {
	seen := map[string]bool{}
	var urls []string
	for _, ch := range b.in.charts {
		if u := b.in.catalog.ResolveIcon(ch.Meta.Name, ch.Meta.Icon).URL; u != "" && !seen[u] {
			seen[u] = true
			urls = append(urls, u)
		}
	}
	parallel(len(urls), func(i int) { b.remoteIcon(urls[i]) })
}

// remoteIcon returns what the build made of an https icon, fetched at most
// once per build however many charts show it. An icon whose copy the last
// build made is not fetched again while the copy is intact in the output;
// one that could not be fetched is tried again.
func (b *build) remoteIcon(u string) *remoteIcon {
	v, _ := b.out.icons.remote.LoadOrStore(u, &remoteIcon{})
	r := v.(*remoteIcon)
	r.once.Do(func() {
		if prev, ok := b.in.previous.Icons[u]; ok && prev.Name != "" && b.placeIcon(prev.Name, nil) == nil {
			r.name = prev.Name
		} else {
			var data []byte
			r.name, data, r.problem = b.fetchIcon(u)
			if r.name != "" {
				r.err = b.placeIcon(r.name, data)
			}
		}
		if r.name != "" {
			// The site asks for it by this path: see iconCopy.
			b.out.icons.staged.Store(filepath.Join(b.stage.dir, filepath.FromSlash(r.name)), r)
		}
		if r.err == nil {
			b.recordIcon(u, iconState{Name: r.name})
		}
	})
	return r
}

// fetchIcon fetches an https icon through the build's client and checks it
// as an icon file is checked: its type is read from its bytes, and its
// copy named, by site.IconCopy, from a temporary file of that type.
func (b *build) fetchIcon(u string) (name string, data []byte, problem error) {
	ctx, cancel := context.WithTimeout(context.Background(), remoteIconTimeout)
	defer cancel()
	body, err := b.in.Client.Fetch(ctx, u, maxRemoteIcon)
	if err != nil {
		return "", nil, err
	}
	if len(body) == 0 {
		return "", nil, errors.New("the server sent an empty body")
	}
	sniffed := http.DetectContentType(body)
	ext, raster := rasterExts[sniffed]
	switch {
	case !raster && strings.HasPrefix(sniffed, "image/"):
		return "", nil, fmt.Errorf("the server sent an image of type %s, which the site does not show: use SVG, PNG, JPEG, GIF or WebP", sniffed)
	case !raster:
		ext = ".svg"
	}
	tmp, err := os.CreateTemp("", "catalogist-icon-*"+ext)
	if err != nil {
		return "", nil, fmt.Errorf("keeping the icon: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(body)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		return "", nil, fmt.Errorf("keeping the icon in %s: %w", tmp.Name(), errors.Join(werr, cerr))
	}
	name, data, err = site.IconCopy(tmp.Name())
	switch {
	case err != nil:
		return "", nil, fmt.Errorf("reading the icon back from %s: %w", tmp.Name(), err)
	case name != "":
		return name, data, nil
	case raster:
		return "", nil, fmt.Errorf("the server sent a damaged %s image", sniffed)
	}
	// Say what it is instead: the sniffer calls an SVG text.
	mediaType, _, _ := strings.Cut(sniffed, ";")
	if mediaType != "text/plain" && mediaType != "text/xml" {
		return "", nil, fmt.Errorf("the server sent %s, not an image", mediaType)
	}
	svgErr := catalog.CheckSVG(body)
	if svgErr == nil {
		svgErr = errors.New("unreadable")
	}
	return "", nil, fmt.Errorf("neither a PNG, JPEG, GIF or WebP image nor an SVG the site shows (%v): an SVG icon may hold no script, event handler, embedded document nor link to another resource", svgErr)
}

// iconProblem says why an https icon could not be shown, without repeating
// its URL.
func iconProblem(u string, err error) string {
	var se *chartrepo.StatusError
	var tl *chartrepo.TooLargeError
	switch {
	case errors.As(err, &se):
		return "the server answered " + se.Status
	case errors.As(err, &tl):
		return fmt.Sprintf("larger than the %d KiB an icon may weigh", tl.Limit>>10)
	case errors.Is(err, context.DeadlineExceeded):
		return "the server did not answer in time"
	}
	return strings.TrimPrefix(err.Error(), "fetching "+secret.RedactURL(u)+": ")
}
