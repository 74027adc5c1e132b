package providerlock

import (
	"context"
	"os"
	"runtime"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// Packages in an OCI registry (providers lock -oci-mirror; OpenTofu's
// providers lock never reads oci_mirror methods).
//
// The layer digest an index's platform manifest names is the package's
// zh: hash, and the registry serves blobs by digest: the manifests alone
// give every platform's zh: without a download. The h1: hash of the
// unpacked package needs the archive: it is computed for the platform
// this command runs on (Locker.OCIHashPlatform), as OpenTofu's init
// records h1: and zh: for it after installing from an oci_mirror, and for
// every platform with DownloadAll; otherwise it is taken from the hash
// cache when the cache knows the archive by its zh:. Other platforms are
// locked by their zh: alone, which is what an oci_mirror installation
// checks anyway.

// fromOCI records an OCI package.
func (l *Locker) fromOCI(ctx context.Context, meta providersource.PackageMeta, loc providersource.OCIBlob, ev *Events) obtained {
	if !l.DownloadAll {
		if o, ok := l.fromCache(meta); ok {
			return o
		}
		if meta.TargetPlatform != l.ociHashPlatform() {
			auth := &registry.AuthResult{}
			zh := loc.ZH()
			auth.Add(zh, registry.Disposition{ReportedByTrustedMirror: true, Platform: meta.TargetPlatform})
			return obtained{auth: auth, via: FromOCIManifest, only: []hashes.Hash{zh}}
		}
	}
	tmp, err := os.MkdirTemp(l.TempDir, "terraform-providers-lock")
	if err != nil {
		return obtained{err: err}
	}
	defer os.RemoveAll(tmp)
	ev.downloadStarted(meta)
	a, err := loc.Fetch(ctx, tmp, meta.TargetPlatform)
	ev.downloadEnded(meta)
	if err != nil {
		return obtained{err: err}
	}
	return l.downloaded(ctx, meta, a)
}

// ociHashPlatform is the platform whose OCI packages are downloaded to
// compute their h1: (the running one unless set).
func (l *Locker) ociHashPlatform() addrs.Platform {
	if l.OCIHashPlatform != (addrs.Platform{}) {
		return l.OCIHashPlatform
	}
	return addrs.Platform{OS: runtime.GOOS, Arch: runtime.GOARCH}
}
