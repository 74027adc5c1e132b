package providerlock

import (
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/registry"
	"github.com/tfdeps/tfdeps/internal/sources"
)

// A package a network mirror describes with hashes.
//
// OpenTofu downloads every package from the mirror and records the h1: of
// the unpacked package plus the platform's mirror hashes (h1:, zh:) that
// matched the archive (providers-lock-and-mirror.md §1.6). When the
// mirror's VERSION.json gives the platform exactly one h1: and at most one
// zh: (tfdeps serve and "providers mirror" directories give both), a
// truthful mirror makes that result equal to the listed hashes: the zip's
// h1: equals the directory's, and the zh: is the zip's checksum. tfdeps
// records them without the download, taking them as the mirror operator's
// word, as "tofu init" does when it authenticates the package against
// them. A mirror listing several h1: or zh: hashes for a platform (only the
// matching ones would be recorded), or none, or trust_all_hashes (hashes
// of every platform mixed), leads to the download; -download-all always
// downloads. A false hash is caught when the package is installed: the
// installer checks the archive against the lock entry's hashes.

// fromMirror records the package from the mirror's listed hashes.
func (l *Locker) fromMirror(meta sources.PackageMeta) (obtained, bool) {
	a, ok := meta.Authentication.(*sources.MirrorAuthentication)
	if !ok || a.TrustAllHashes {
		return obtained{}, false
	}
	var h1s, zhs []hashes.Hash
	for _, h := range hashes.Preferred(a.Hashes) {
		switch h.Scheme() {
		case hashes.SchemeH1:
			h1s = append(h1s, h)
		case hashes.SchemeZip:
			zhs = append(zhs, h)
		}
	}
	if len(h1s) != 1 || len(zhs) > 1 {
		return obtained{}, false
	}
	auth := &registry.AuthResult{}
	for _, h := range append(h1s, zhs...) {
		// As the download reports it when the archive matches.
		auth.Add(h, registry.Disposition{VerifiedLocally: true, Platform: a.Platform})
	}
	return obtained{auth: auth, dirH1: h1s[0], via: FromMirror}, true
}
