package serve

import (
	"errors"
	"net/http"
	"strings"

	"github.com/opentofu/svchost"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// Request path limits: longer paths or segments are refused with 400.
const (
	maxPathLength    = 1024
	maxSegmentLength = 255
)

var errBadPath = errors.New("invalid request path")

// checkPath rejects request paths that must never reach routing or
// storage: over-long paths or segments, encoded slashes or backslashes,
// NUL and other control bytes, backslashes, and empty, "." or ".."
// segments (a single trailing slash is allowed). It returns the decoded
// segments.
func checkPath(r *http.Request) ([]string, error) {
	raw := r.URL.EscapedPath()
	if len(raw) > maxPathLength || !strings.HasPrefix(raw, "/") {
		return nil, errBadPath
	}
	lower := strings.ToLower(raw)
	for _, bad := range []string{"%2f", "%5c", "%00", "%2e"} {
		if strings.Contains(lower, bad) {
			return nil, errBadPath
		}
	}
	path := r.URL.Path
	for i := 0; i < len(path); i++ {
		if c := path[i]; c < 0x20 || c == 0x7f || c == '\\' {
			return nil, errBadPath
		}
	}
	trimmed := strings.TrimPrefix(path, "/")
	trimmed = strings.TrimSuffix(trimmed, "/")
	if trimmed == "" {
		return nil, nil
	}
	segs := strings.Split(trimmed, "/")
	for _, s := range segs {
		if s == "" || s == "." || s == ".." || len(s) > maxSegmentLength {
			return nil, errBadPath
		}
	}
	return segs, nil
}

// parseHost accepts a hostname already in comparison form.
func parseHost(s string) (svchost.Hostname, bool) {
	h, err := svchost.ForComparison(s)
	return h, err == nil && string(h) == s
}

// parseProvider accepts HOST/NAMESPACE/TYPE already normalised.
func parseProvider(host, ns, typ string) (addrs.Provider, bool) {
	h, ok := parseHost(host)
	if !ok || !addrs.IsProviderPartNormalized(ns) || !addrs.IsProviderPartNormalized(typ) {
		return addrs.Provider{}, false
	}
	return addrs.NewProvider(h, ns, typ), true
}

// parseVersion accepts a version in canonical form.
func parseVersion(s string) (versions.Version, bool) {
	v, err := versions.ParseVersion(s)
	return v, err == nil && v.String() == s
}

// archiveName is the mirror layout's archive file name.
func archiveName(typ string, v versions.Version, pl addrs.Platform) string {
	return "terraform-provider-" + typ + "_" + v.String() + "_" + pl.String() + ".zip"
}

// parseArchiveName reads terraform-provider-TYPE_VERSION_OS_ARCH.zip.
func parseArchiveName(typ, name string) (versions.Version, addrs.Platform, bool) {
	rest, ok := strings.CutPrefix(name, "terraform-provider-"+typ+"_")
	if !ok {
		return versions.Version{}, addrs.Platform{}, false
	}
	rest, ok = strings.CutSuffix(rest, ".zip")
	if !ok {
		return versions.Version{}, addrs.Platform{}, false
	}
	parts := strings.Split(rest, "_")
	if len(parts) != 3 {
		return versions.Version{}, addrs.Platform{}, false
	}
	v, ok := parseVersion(parts[0])
	if !ok {
		return versions.Version{}, addrs.Platform{}, false
	}
	if !platformWord(parts[1]) || !platformWord(parts[2]) {
		return versions.Version{}, addrs.Platform{}, false
	}
	pl, err := addrs.ParsePlatform(parts[1] + "_" + parts[2])
	if err != nil || pl.String() != parts[1]+"_"+parts[2] {
		return versions.Version{}, addrs.Platform{}, false
	}
	return v, pl, true
}

// platformWord reports whether s can be the OS or architecture of an
// archive served: one or more lowercase ASCII letters and digits (the
// platform parser itself, like OpenTofu's, accepts any bytes but
// whitespace, which a storage key cannot hold).
func platformWord(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}
