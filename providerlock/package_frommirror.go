package providerlock

import (
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// A package a network mirror describes with hashes.
//
// OpenTofu downloads every package from the mirror and records the h1: of
// the unpacked package plus the platform's mirror hashes (h1:, zh:) that
// matched the archive (providers-lock-and-mirror.md §1.6): a hash the
// mirror lists falsely never reaches its lock file (observed with tofu
// 1.12.6, internal/serve/falsehash_test.go). tfdeps does the same unless
// the user trusts the mirror (Locker.TrustMirrorHashes: the command sets it
// when the CLI configuration has a network_mirror block for the same URL
// with trust_all_hashes = true). Then, when the platform's entry gives
// exactly one h1: and at most one zh:, which is what the download would
// record if the hashes are true, tfdeps records them without the download.
// The trust is the user's decision, never the server's. Several h1: or zh:
// hashes, none, a source that mixes every platform's hashes
// (TrustAllHashes) and -download-all lead to the download.

// fromMirror records the package from the hashes a trusted mirror lists.
func (l *Locker) fromMirror(meta providersource.PackageMeta) (obtained, bool) {
	a, ok := meta.Authentication.(*providersource.MirrorAuthentication)
	if !ok || !l.TrustMirrorHashes || a.TrustAllHashes {
		return obtained{}, false
	}
	if _, ok := meta.Location.(providersource.HTTPURL); !ok {
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
