package providerlock

import (
	"strings"

	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/registry"
	"github.com/tfdeps/tfdeps/internal/sources"
)

// A package a network mirror describes with hashes.
//
// OpenTofu downloads every package from the mirror and records the h1: of
// the unpacked package plus the platform's mirror hashes (h1:, zh:) that
// matched the archive (providers-lock-and-mirror.md §1.6): a hash the
// mirror lists falsely never reaches its lock file (observed with tofu
// 1.12.6, internal/serve/falsehash_test.go). tfdeps does the same, with
// one exception: a mirror that vouches for its hashes. tfdeps serve adds
// the query parameter "tfdeps-hashes=vouched" (serve.VouchedQuery) to the
// archive URLs of its VERSION.json, saying that every hash beside the URL
// was computed from the stored archive or is the upstream registry's
// statement that passed the checks init applies (a zh: the signed
// SHA256SUMS lists, the one h1: of a "packages" map entry). When such an
// entry gives the platform exactly one h1: and at most one zh:, that is
// what the download would record, and tfdeps records it without the
// download, taking the server's word as "tofu init" takes a mirror's when
// it checks packages against them. Every other mirror (static "providers
// mirror" directories included), several h1: or zh: hashes, none, or
// trust_all_hashes (hashes of every platform mixed) lead to the download;
// -download-all always downloads.

// vouchedQuery is serve.VouchedQuery (this package does not import the
// server).
const vouchedQuery = "tfdeps-hashes=vouched"

// fromMirror records the package from the hashes a vouching mirror lists.
func (l *Locker) fromMirror(meta sources.PackageMeta) (obtained, bool) {
	a, ok := meta.Authentication.(*sources.MirrorAuthentication)
	if !ok || a.TrustAllHashes || !vouched(meta.Location) {
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

// vouched reports whether the archive URL carries the vouching parameter.
func vouched(loc sources.Location) bool {
	u, ok := loc.(sources.HTTPURL)
	if !ok || u.URL == nil {
		return false
	}
	for _, kv := range strings.Split(u.URL.RawQuery, "&") {
		if kv == vouchedQuery {
			return true
		}
	}
	return false
}
