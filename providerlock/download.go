package providerlock

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// download fetches the archive into a temporary directory, authenticates
// it with the source's checks and hashes its extracted content, as the
// installer does into its staging directory. The result is cached.
func (l *Locker) download(ctx context.Context, meta providersource.PackageMeta, loc providersource.HTTPURL, ev *Events) obtained {
	if l.Client == nil {
		return obtained{err: errNoDownloader}
	}
	if _, ok := meta.Authentication.(*providersource.MirrorAuthentication); !ok && !l.DownloadAll {
		return l.downloadUnwritten(ctx, meta, loc, ev)
	}
	tmp, err := os.MkdirTemp(l.TempDir, "terraform-providers-lock")
	if err != nil {
		return obtained{err: err}
	}
	defer os.RemoveAll(tmp)
	progress := ev.downloadStarted(meta)
	a, err := l.Client.Download(ctx, registry.DownloadRequest{URL: loc.URL, Dir: tmp, Retries: meta.DownloadRetries, Progress: progress})
	ev.downloadEnded(meta)
	if err != nil {
		return obtained{err: err}
	}
	return l.downloaded(ctx, meta, a)
}

// downloadUnwritten is download for packages that are only hashed: the
// archive is kept in memory (spill.go) and hashed from there, read once
// from the network and once from memory. Network mirrors' archives still
// go to disk: their authentication hashes the file.
func (l *Locker) downloadUnwritten(ctx context.Context, meta providersource.PackageMeta, loc providersource.HTTPURL, ev *Events) obtained {
	buf := newSpillBuffer(l.memoryBudget(), l.TempDir)
	defer buf.Close()
	progress := ev.downloadStarted(meta)
	n, sum, err := l.Client.DownloadTo(ctx, registry.DownloadRequest{URL: loc.URL, Retries: meta.DownloadRetries, Progress: progress}, buf)
	ev.downloadEnded(meta)
	if err != nil {
		return obtained{err: err}
	}
	a := &registry.Archive{Size: n, SHA256: sum}
	var auth *registry.AuthResult
	if meta.Authentication != nil {
		if auth, err = meta.Authentication.AuthenticateArchive(a); err != nil {
			return obtained{err: err}
		}
	}
	hashed, err := providerinstall.HashArchive(ctx, buf, n, path.Base(loc.URL.Path), l.Extract)
	if err != nil {
		return obtained{err: err}
	}
	if _, err := hashed.Executable(meta.Provider.Type); err != nil {
		return obtained{err: fmt.Errorf("provider binary not found: %s", err)}
	}
	l.remember(meta, a, hashed.H1)
	return obtained{auth: auth, dirH1: hashed.H1, via: Downloaded}
}

// fromArchive handles a zip on local storage (a packed filesystem
// mirror): authentication when the source has any, then extraction.
func (l *Locker) fromArchive(ctx context.Context, meta providersource.PackageMeta, path string) obtained {
	var auth *registry.AuthResult
	if meta.Authentication != nil {
		info, err := os.Stat(path)
		if err != nil {
			return obtained{err: err}
		}
		zh, err := hashes.ZipHashFile(path)
		if err != nil {
			return obtained{err: fmt.Errorf("failed to calculate checksum for %s %s package at %s: %s", meta.Provider, meta.Version, path, err)}
		}
		a := &registry.Archive{Path: path, Size: info.Size()}
		if _, err := hex.Decode(a.SHA256[:], []byte(zh.Value())); err != nil {
			return obtained{err: err}
		}
		if auth, err = meta.Authentication.AuthenticateArchive(a); err != nil {
			return obtained{err: err}
		}
	}
	dirH1, err := l.packageH1(ctx, meta, path)
	return obtained{auth: auth, dirH1: dirH1, via: Downloaded, err: err}
}

// packageH1 returns the h1: of the package directory the archive unpacks
// to, which must hold the provider's executable. OpenTofu unpacks it into a
// temporary directory and hashes that (DownloadAll does the same); the
// hash is otherwise computed from the archive as it is read, with the same
// result and no files written.
func (l *Locker) packageH1(ctx context.Context, meta providersource.PackageMeta, zipPath string) (hashes.Hash, error) {
	if l.DownloadAll {
		tmp, err := os.MkdirTemp(l.TempDir, "terraform-providers-lock")
		if err != nil {
			return "", err
		}
		defer os.RemoveAll(tmp)
		return l.extractAndHash(ctx, meta, zipPath, tmp)
	}
	hashed, err := providerinstall.HashArchiveFile(ctx, zipPath, l.Extract)
	if err != nil {
		return "", err
	}
	if _, err := hashed.Executable(meta.Provider.Type); err != nil {
		return "", fmt.Errorf("provider binary not found: %s", err)
	}
	return hashed.H1, nil
}

// extractAndHash unpacks the archive under tmp and returns the h1: of the
// package directory, which must hold the provider's executable.
func (l *Locker) extractAndHash(ctx context.Context, meta providersource.PackageMeta, zipPath, tmp string) (hashes.Hash, error) {
	dir := filepath.Join(tmp, "package")
	h1, err := providerinstall.ExtractFile(ctx, zipPath, dir, l.Extract)
	if err != nil {
		return "", err
	}
	if _, err := providerinstall.FindExecutable(dir, meta.Provider.Type); err != nil {
		return "", fmt.Errorf("provider binary not found: %s", err)
	}
	return h1, nil
}

// remember stores the verified hashes of a downloaded archive. Network
// mirrors check archives by their zip h1:, so that is computed for them.
// A cache that cannot be written only costs a download next time.
func (l *Locker) remember(meta providersource.PackageMeta, a *registry.Archive, dirH1 hashes.Hash) {
	if l.Cache == nil {
		return
	}
	e := CacheEntry{ZH: a.ZH(), H1: dirH1, Size: a.Size}
	if _, ok := meta.Authentication.(*providersource.MirrorAuthentication); ok {
		zipH1, err := hashes.HashZipFile(a.Path)
		if err != nil {
			return
		}
		e.ZipH1 = zipH1
	}
	_ = l.Cache.Put(meta.Provider, meta.Version, meta.TargetPlatform, e)
}

// downloaded authenticates a package just downloaded, hashes it and
// remembers its hashes.
func (l *Locker) downloaded(ctx context.Context, meta providersource.PackageMeta, a *registry.Archive) obtained {
	var auth *registry.AuthResult
	var err error
	if meta.Authentication != nil {
		if auth, err = meta.Authentication.AuthenticateArchive(a); err != nil {
			return obtained{err: err}
		}
	}
	dirH1, err := l.packageH1(ctx, meta, a.Path)
	if err != nil {
		return obtained{err: err}
	}
	l.remember(meta, a, dirH1)
	return obtained{auth: auth, dirH1: dirH1, via: Downloaded}
}
