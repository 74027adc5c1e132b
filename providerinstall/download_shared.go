package providerinstall

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/tfdeps/tfdeps/registry"
)

// SharedDownloader downloads each package URL once for many installations
// in one process (the root modules of one init -recursive run) and hands
// every installation its own copy of the archive: a hard link to the
// downloaded file where the file system allows one, else a copy. The
// archive's bytes are the same as a download's, and each installation
// still authenticates and hashes its archive, so what it installs and
// records in its lock file is what it would without sharing.
//
// Downloads go to a directory of the run's own (made by the caller, e.g.
// with os.MkdirTemp, and removed with Close), written under a temporary
// name and renamed into place once complete; concurrent requests for a
// URL wait for its one download. A failed download is not remembered:
// the next request tries again. Once the archives kept reach MaxBytes,
// further packages are downloaded per request, as without sharing.
type SharedDownloader struct {
	next Downloader
	dir  string
	// MaxBytes bounds the archive bytes kept in dir (0: no bound); set it
	// before the first Download.
	MaxBytes int64

	downloads atomic.Int64
	mu        sync.Mutex
	entries   map[string]*sharedArchive
	kept      int64
	copies    int64
}

var _ Downloader = (*SharedDownloader)(nil)

type sharedArchive struct {
	ready chan struct{}
	path  string
	size  int64
	sum   [32]byte
	err   error
}

// NewSharedDownloader downloads through next into dir.
func NewSharedDownloader(next Downloader, dir string) *SharedDownloader {
	return &SharedDownloader{next: next, dir: dir, entries: map[string]*sharedArchive{}}
}

// Downloads counts the archives downloaded through next.
func (d *SharedDownloader) Downloads() int { return int(d.downloads.Load()) }

// Download returns an archive of dr.URL of the caller's own, which it
// removes as usual; dr.Dir and dr.Buffer are not used (the archive is a
// file in the shared directory). Only the request that downloads hears
// progress, so that the progress of all requests adds up to the bytes
// actually received.
func (d *SharedDownloader) Download(ctx context.Context, dr registry.DownloadRequest) (*registry.Archive, error) {
	key := dr.URL.String()
	d.mu.Lock()
	e := d.entries[key]
	full := d.MaxBytes > 0 && d.kept >= d.MaxBytes
	if e == nil && !full {
		e = &sharedArchive{ready: make(chan struct{})}
		d.entries[key] = e
		d.mu.Unlock()
		d.fetch(ctx, key, e, dr)
		if e.err != nil {
			return nil, e.err
		}
		return d.hand(e, dr.URL.Redacted())
	}
	d.mu.Unlock()
	if e == nil {
		d.downloads.Add(1)
		return d.next.Download(ctx, dr)
	}
	select {
	case <-e.ready:
	case <-ctx.Done():
		return nil, fmt.Errorf("provider download was interrupted: %w", ctx.Err())
	}
	if e.err != nil {
		// That download failed (perhaps for its own caller's reasons):
		// this request tries on its own.
		return d.Download(ctx, dr)
	}
	return d.hand(e, dr.URL.Redacted())
}

// fetch downloads a new entry's archive and publishes it under its
// final name; on failure the entry is dropped so that later requests try
// again.
func (d *SharedDownloader) fetch(ctx context.Context, key string, e *sharedArchive, dr registry.DownloadRequest) {
	defer close(e.ready)
	d.downloads.Add(1)
	req := dr
	req.Dir, req.Buffer = d.dir, nil
	a, err := d.next.Download(ctx, req)
	if err == nil && a.Path == "" {
		a.Remove()
		err = fmt.Errorf("downloader returned an archive of %s in memory", a.URL)
	}
	if err == nil {
		sum := sha256.Sum256([]byte(key))
		final := filepath.Join(d.dir, "pkg-"+hex.EncodeToString(sum[:12])+".zip")
		if err = os.Rename(a.Path, final); err != nil {
			a.Remove()
		} else {
			e.path, e.size, e.sum = final, a.Size, a.SHA256
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		e.err = err
		delete(d.entries, key)
		return
	}
	d.kept += e.size
}

// hand gives the caller its own name for the shared archive.
func (d *SharedDownloader) hand(e *sharedArchive, url string) (*registry.Archive, error) {
	d.mu.Lock()
	d.copies++
	name := fmt.Sprintf("%s.%d", e.path, d.copies)
	d.mu.Unlock()
	if err := os.Link(e.path, name); err != nil {
		if err := copyFile(e.path, name, 0o600); err != nil {
			return nil, fmt.Errorf("failed to copy the provider package downloaded from %s: %w", url, err)
		}
	}
	return &registry.Archive{Path: name, Size: e.size, SHA256: e.sum}, nil
}

// copyFile copies src to a new file dst with the permission bits perm.
func copyFile(src, dst string, perm os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	return out.Close()
}

// Close removes the shared directory and everything in it.
func (d *SharedDownloader) Close() error { return os.RemoveAll(d.dir) }
