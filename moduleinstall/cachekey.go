package moduleinstall

import (
	"context"
	"net/url"
	"path"
	"strings"
)

// remoteCacheKey names a remote package in the shared cache: a git
// package by its address and the commit its ref resolves to now
// (gitref.go), an http(s) archive with a checksum parameter by that
// checksum and its archive format, any other http(s) package by its
// address, an OCI package by its repository and the digest of its
// manifest (ociCacheKey). mutable reports a key that does not pin the content (an http
// address), whose entry an upgrade refreshes. "" means the package is
// not cached (file, s3, gcs, hg, a git ref that cannot be resolved
// without cloning, an OCI tag that cannot be resolved).
func (f *fetcher) remoteCacheKey(ctx context.Context, pkg string) (key string, mutable bool) {
	switch {
	case strings.HasPrefix(pkg, "git::"):
		commit, err := f.refs.commit(ctx, pkg)
		if err != nil || commit == "" {
			return "", false
		}
		return "git " + pkg + " " + commit, false
	case isHTTP(pkg):
		raw := pkg
		if i := strings.Index(raw, "::"); i >= 0 {
			raw = raw[i+2:]
		}
		u, err := url.Parse(raw)
		if err != nil {
			return "", false
		}
		if sum := u.Query().Get("checksum"); sum != "" {
			if format := archiveFormat(u); format != "" {
				return "archive " + format + " " + sum, false
			}
		}
		return "http " + pkg, true
	case isOCI(pkg) && !f.ociUnknown:
		return f.ociCacheKey(ctx, pkg), false
	}
	return "", false
}

// isHTTP reports an http(s) package: forced http:: or https::, or an
// http(s) URL without a forced getter.
func isHTTP(pkg string) bool {
	for _, p := range []string{"http::", "https::", "http://", "https://"} {
		if strings.HasPrefix(pkg, p) {
			return true
		}
	}
	return false
}

// archiveFormat is the archive format go-getter extracts u with: the
// archive parameter, else the longest decompressor suffix of the path
// ("" for none, or archive=false).
func archiveFormat(u *url.URL) string {
	if a := u.Query().Get("archive"); a != "" {
		if a == "false" {
			return ""
		}
		return a
	}
	best := ""
	base := path.Base(u.Path)
	for ext := range decompressors() {
		if strings.HasSuffix(base, "."+ext) && len(ext) > len(best) {
			best = ext
		}
	}
	return best
}
