package chartrepo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
)

// Index is the raw bytes of a repository index and where they came from.
type Index struct {
	Data []byte
	// URL is the index's address, or its file path, for messages.
	URL string
	// Base is the URL relative package URLs resolve against, ending in "/"
	// (file:// for a local index).
	Base string
	// Cached is true when the bytes come from the cache: the server
	// answered 304 Not Modified, or was unreachable (then Stale says why).
	Cached bool
	Stale  error
}

// cacheEntry is the first line of a cached index file; the index follows.
type cacheEntry struct {
	URL          string `json:"url"`
	ETag         string `json:"etag,omitempty"`
	LastModified string `json:"lastModified,omitempty"`
}

// Index reads the index of a repository location: an http(s) URL (of the
// repository or of its index file), a file:// URL, a file or a directory.
// Remote indexes are cached on disk and revalidated; when the server cannot
// be reached, a cached copy is used and Stale says so.
func (c *Client) Index(ctx context.Context, loc string) (*Index, error) {
	if !IsRemote(loc) {
		return localIndex(loc)
	}
	u := IndexURL(loc)
	ix := &Index{URL: Redact(u), Base: baseOf(u)}
	cached, entry := c.readCache(u)
	h := http.Header{}
	if cached != nil {
		if entry.ETag != "" {
			h.Set("If-None-Match", entry.ETag)
		}
		if entry.LastModified != "" {
			h.Set("If-Modified-Since", entry.LastModified)
		}
	}
	resp, err := c.get(ctx, u, h)
	switch {
	case err != nil && cached != nil && (resp == nil || resp.StatusCode >= 500):
		ix.Data, ix.Cached, ix.Stale = cached, true, err
		return ix, nil
	case err != nil:
		return nil, err
	case resp.StatusCode == http.StatusNotModified && cached != nil:
		ix.Data, ix.Cached = cached, true
		return ix, nil
	case resp.StatusCode == http.StatusNotModified:
		return nil, fmt.Errorf("fetching %s: the server answered 304 Not Modified to a request without a cached copy", ix.URL)
	}
	data, err := c.receive(u, resp)
	if err != nil {
		return nil, err
	}
	ix.Data = data
	return ix, nil
}

// receive streams an index's body into a file, within MaxDownload, and
// reads it back at its exact size, so that memory holds the index once
// however the server sends it (or without end). With a cache, the file
// (the cache entry's line, then the index) becomes the cached copy.
func (c *Client) receive(u string, resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	dir := os.TempDir()
	var head []byte
	if c.cacheDir != "" {
		if err := mkdir(c.cacheDir, 0o700); err == nil {
			dir = c.cacheDir
			e := cacheEntry{URL: Redact(u), ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified")}
			if j, err := json.Marshal(e); err == nil {
				head = append(j, '\n')
			}
		}
	}
	tmp, err := os.CreateTemp(dir, ".index-*")
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", Redact(u), err)
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	if _, err := tmp.Write(head); err != nil {
		return nil, fmt.Errorf("fetching %s: %w", Redact(u), err)
	}
	n, err := io.Copy(tmp, io.LimitReader(resp.Body, MaxDownload+1))
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", Redact(u), err)
	}
	if n > MaxDownload {
		return nil, tooLarge(u)
	}
	data := make([]byte, n)
	if _, err := tmp.ReadAt(data, int64(len(head))); err != nil {
		return nil, fmt.Errorf("fetching %s: %w", Redact(u), err)
	}
	if head != nil {
		// A cache that cannot be written only costs the next run a
		// download.
		if tmp.Close() == nil {
			_ = os.Rename(tmp.Name(), c.cachePath(u))
		}
	}
	return data, nil
}

func localIndex(loc string) (*Index, error) {
	p := loc
	if u, err := url.Parse(loc); err == nil && u.Scheme == "file" {
		p = filepath.FromSlash(u.Path)
	} else if err == nil && len(u.Scheme) > 1 {
		// One letter is a Windows drive.
		return nil, fmt.Errorf("%s: a repository is an http or https URL, a file:// URL, a directory or an index file", Redact(loc))
	}
	info, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("reading the index: %w", err)
	}
	file, dir := p, filepath.Dir(p)
	if info.IsDir() {
		file, dir = filepath.Join(p, IndexFile), p
	}
	f, size, err := OpenRegular(file)
	if err != nil {
		return nil, fmt.Errorf("reading the index: %w", err)
	}
	defer f.Close()
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading the index %s: %w", file, err)
	}
	return &Index{Data: data, URL: file, Base: BaseURL(dir)}, nil
}

func (c *Client) cachePath(u string) string {
	sum := sha256.Sum256([]byte(u))
	return filepath.Join(c.cacheDir, hex.EncodeToString(sum[:12])+".index")
}

// readCache returns the cached index of u, if any.
func (c *Client) readCache(u string) ([]byte, cacheEntry) {
	var e cacheEntry
	if c.cacheDir == "" {
		return nil, e
	}
	data, err := os.ReadFile(c.cachePath(u))
	if err != nil {
		return nil, e
	}
	head, body, ok := bytes.Cut(data, []byte("\n"))
	if !ok || json.Unmarshal(head, &e) != nil || e.URL != Redact(u) {
		return nil, e
	}
	return body, e
}
