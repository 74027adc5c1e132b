package providerlock

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// packageKey identifies a package.
type packageKey struct {
	provider addrs.Provider
	version  string // canonical, metadata included
	platform addrs.Platform
	// lock is the old lock entry's hashes (same version), which may spare
	// the download: packages are shared only between equal entries.
	lock string
}

// packageJob obtains one package once, however many Collect calls ask.
type packageJob struct {
	done chan struct{}
	out  obtained
}

// obtained is what is known about a package after fetching it.
type obtained struct {
	fetched bool
	auth    *registry.AuthResult
	dirH1   hashes.Hash
	via     Via
	err     error
	// only, when set, are exactly the hashes to record.
	only []hashes.Hash
}

// obtain returns the package's outcome, computing it at most once per
// Locker. sem bounds the packages worked on at once. Downloads are
// reported to the ev of the call that computes the outcome.
func (l *Locker) obtain(ctx context.Context, sem chan struct{}, p addrs.Provider, v versions.Version, pl addrs.Platform, lock *lockfile.ProviderLock, ev *Events) obtained {
	key := packageKey{provider: p, version: v.String(), platform: pl}
	if lock != nil {
		for _, h := range lock.Hashes() {
			key.lock += string(h) + " "
		}
	}
	l.mu.Lock()
	if l.jobs == nil {
		l.jobs = map[packageKey]*packageJob{}
	}
	job, running := l.jobs[key]
	if !running {
		job = &packageJob{done: make(chan struct{})}
		l.jobs[key] = job
	}
	l.mu.Unlock()
	if running {
		select {
		case <-job.done:
			return job.out
		case <-ctx.Done():
			return obtained{err: ctx.Err()}
		}
	}
	select {
	case sem <- struct{}{}:
		job.out = l.fetch(ctx, p, v, pl, lock, ev)
		<-sem
	case <-ctx.Done():
		job.out = obtained{err: ctx.Err()}
	}
	close(job.done)
	return job.out
}

// fetch finds the package and obtains its hashes the cheapest way that
// gives OpenTofu's result.
func (l *Locker) fetch(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform, lock *lockfile.ProviderLock, ev *Events) obtained {
	meta, err := l.Source.PackageMeta(ctx, p, v, pl)
	if err != nil {
		return obtained{err: err}
	}
	o := l.fetchPackage(ctx, meta, lock, ev)
	o.fetched = true
	return o
}

func (l *Locker) fetchPackage(ctx context.Context, meta providersource.PackageMeta, lock *lockfile.ProviderLock, ev *Events) obtained {
	switch loc := meta.Location.(type) {
	case providersource.LocalDir:
		h1, err := hashLocalDir(meta.Provider, string(loc))
		return obtained{dirH1: h1, via: Downloaded, err: err}
	case providersource.LocalArchive:
		return l.fromArchive(ctx, meta, string(loc))
	case providersource.HTTPURL:
		if !l.DownloadAll {
			if o, ok := l.fromCache(meta); ok {
				return o
			}
			if o, ok := l.fromRegistryMetadata(meta); ok {
				return o
			}
			if o, ok := l.fromLock(meta, lock); ok {
				return o
			}
			if o, ok := l.fromMirror(meta); ok {
				return o
			}
		}
		return l.download(ctx, meta, loc, ev)
	case providersource.OCIBlob:
		return l.fromOCI(ctx, meta, loc, ev)
	}
	return obtained{err: fmt.Errorf("unsupported package location %T", meta.Location)}
}

// hashLocalDir is an unpacked mirror package: it must hold the provider's
// executable; its h1: is the directory's. Authentication of a local
// directory is never reported (OpenTofu discards it).
func hashLocalDir(p addrs.Provider, dir string) (hashes.Hash, error) {
	if _, err := providerinstall.FindExecutable(dir, p.Type); err != nil {
		return "", fmt.Errorf("provider binary not found: %s", err)
	}
	// OpenTofu links the directory into a temporary cache by its absolute
	// path, then hashes it: its errors name the absolute path.
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	h1, err := hashes.HashDir(dir)
	if err != nil {
		return "", fmt.Errorf("after installing %s, failed to compute a checksum for it: %w", p, err)
	}
	return h1, nil
}

// fromCache uses a cache entry whose archive checksum equals the one the
// source vouches for now, re-running the source's authentication over the
// cached size and checksum.
func (l *Locker) fromCache(meta providersource.PackageMeta) (obtained, bool) {
	e := l.Cache.Get(meta.Provider, meta.Version, meta.TargetPlatform)
	if e == nil {
		return obtained{}, false
	}
	var auth *registry.AuthResult
	var err error
	switch a := meta.Authentication.(type) {
	case *providersource.RegistryAuthentication:
		if a.Meta == nil || hashOfSum(a.Meta.SHA256) != e.ZH {
			return obtained{}, false
		}
		auth, err = a.AuthenticateArchive(&registry.Archive{Size: e.Size, SHA256: a.Meta.SHA256})
	case *providersource.MirrorAuthentication:
		var ok bool
		if auth, ok = mirrorAuthFromCache(a, e); !ok {
			return obtained{}, false
		}
	default:
		return obtained{}, false
	}
	if err != nil {
		// Let a real download produce OpenTofu's error.
		return obtained{}, false
	}
	return obtained{auth: auth, dirH1: e.H1, via: FromCache}, true
}

// mirrorAuthFromCache reproduces MirrorAuthentication for the cached
// archive: the mirror's preferred hashes that equal the archive's zh: or
// its zip h1: are verified. It declines when a hash could not be checked.
func mirrorAuthFromCache(a *providersource.MirrorAuthentication, e *CacheEntry) (*registry.AuthResult, bool) {
	preferred := hashes.Preferred(a.Hashes)
	res := &registry.AuthResult{}
	var unmatched []hashes.Hash
	for _, h := range preferred {
		switch {
		case h == e.ZH || (e.ZipH1 != "" && h == e.ZipH1):
			res.Add(h, registry.Disposition{VerifiedLocally: true, Platform: a.Platform})
		case h.Scheme() == hashes.SchemeH1 && e.ZipH1 == "":
			return nil, false
		default:
			unmatched = append(unmatched, h)
		}
	}
	if len(unmatched) == len(preferred) {
		return nil, false
	}
	if a.TrustAllHashes {
		for _, h := range unmatched {
			res.Add(h, registry.Disposition{ReportedByTrustedMirror: true, Platform: a.Platform})
		}
	}
	return res, true
}

// fromRegistryMetadata records a package from the registry's signed
// metadata alone: the "packages" entry of the platform must give exactly
// one h1: and pass every check OpenTofu makes on a download (size, zh:
// against shasum and SHA256SUMS), and the signature must verify.
func (l *Locker) fromRegistryMetadata(meta providersource.PackageMeta) (obtained, bool) {
	a, ok := meta.Authentication.(*providersource.RegistryAuthentication)
	if !ok || a.Meta == nil {
		return obtained{}, false
	}
	entry, ok := a.Meta.Packages[meta.TargetPlatform]
	if !ok {
		return obtained{}, false
	}
	var h1s []hashes.Hash
	for _, h := range entry.Hashes {
		if h.Scheme() == hashes.SchemeH1 {
			h1s = append(h1s, h)
		}
	}
	if len(h1s) != 1 {
		return obtained{}, false
	}
	auth, err := a.AuthenticateArchive(&registry.Archive{Size: entry.Size, SHA256: a.Meta.SHA256})
	if err != nil || !auth.Signed() {
		return obtained{}, false
	}
	return obtained{auth: auth, dirH1: h1s[0], via: FromRegistry}, true
}

func hashOfSum(sum [32]byte) hashes.Hash {
	a := registry.Archive{SHA256: sum}
	return a.ZH()
}

var errNoDownloader = errors.New("no HTTP client to download provider packages")
