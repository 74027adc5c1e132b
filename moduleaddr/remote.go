package moduleaddr

import (
	"errors"
	"fmt"
	"path"
	"strings"

	getter "github.com/hashicorp/go-getter"
)

// Remote is a go-getter module source address (§2.4).
type Remote struct {
	// Package is the normalised package address: forced getter ("git::")
	// and query included, subdirectory excluded. It is what is fetched, what
	// the "Downloading" line prints and what identifies a package within one
	// run.
	Package string
	// Subdir is the cleaned subdirectory inside the package ("" for none);
	// it may hold glob characters, expanded after fetching.
	Subdir string
}

func (Remote) moduleSource() {}

// String is Package with "//SUBDIR" inserted before the query, if any.
func (r Remote) String() string {
	if r.Subdir == "" {
		return r.Package
	}
	if i := strings.Index(r.Package, "?"); i >= 0 {
		return r.Package[:i] + "//" + r.Subdir + r.Package[i:]
	}
	return r.Package + "//" + r.Subdir
}

// ForDisplay is String.
func (r Remote) ForDisplay() string { return r.String() }

// MaybeRelativePathError is the error for an address no detector
// recognised: OpenTofu reports it with the hint to write "./ADDR" (M2).
type MaybeRelativePathError struct {
	// Addr is the address as the detectors saw it (forced getter and
	// subdirectory removed).
	Addr string
}

func (e *MaybeRelativePathError) Error() string {
	return fmt.Sprintf("OpenTofu cannot detect a supported external module source type for %s", e.Addr)
}

// SplitPackageSubdir splits "PACKAGE//SUBDIR" as go-getter does (the first
// "//" after any "://", before any "?"; a query after the subdirectory moves
// back onto the package) and cleans a non-empty subdirectory.
func SplitPackageSubdir(raw string) (pkg, subdir string) {
	pkg, subdir = getter.SourceDirSubdir(raw)
	if subdir != "" {
		subdir = path.Clean(subdir)
	}
	return pkg, subdir
}

// ParseRemote parses raw as a remote (go-getter) address, whatever it looks
// like: no local or registry test is made.
func (p Parser) ParseRemote(raw string) (Remote, error) {
	pkg, subdir := SplitPackageSubdir(raw)
	if strings.HasPrefix(subdir, "../") {
		return Remote{}, fmt.Errorf("subdirectory path %q leads outside of the module package", subdir)
	}
	detected, err := getter.Detect(pkg, "", p.detectors())
	if err != nil {
		return Remote{}, err
	}
	norm, more := SplitPackageSubdir(detected)
	if more != "" {
		if subdir != "" {
			subdir = path.Join(more, subdir)
		} else {
			subdir = path.Clean(more)
		}
		if strings.HasPrefix(subdir, "../") {
			return Remote{}, fmt.Errorf("detected subdirectory path %q of %q leads outside of the module package", subdir, norm)
		}
	}
	return Remote{Package: norm, Subdir: subdir}, nil
}

// detectors are OpenTofu 1.12.6's go-getter detectors, in its order.
func (p Parser) detectors() []getter.Detector {
	return []getter.Detector{
		queryAside{new(getter.GitHubDetector)},
		new(getter.GitDetector),
		bitBucketDetector{client: p.HTTPClient},
		new(getter.GCSDetector),
		new(getter.S3Detector),
		fileDetector{},
	}
}

// queryAside runs a detector on the address without its query and puts the
// query back on the result (OpenTofu does this for GitHub).
type queryAside struct{ d getter.Detector }

func (q queryAside) Detect(src, pwd string) (string, bool, error) {
	var query string
	if i := strings.Index(src, "?"); i >= 0 {
		src, query = src[:i], src[i+1:]
	}
	out, ok, err := q.d.Detect(src, pwd)
	if out != "" && query != "" {
		out += "?" + query
	}
	return out, ok, err
}

// fileDetector turns an absolute path into a file:/// URL and anything else
// into a MaybeRelativePathError (it is the last detector).
type fileDetector struct{}

func (fileDetector) Detect(src, _ string) (string, bool, error) {
	if src == "" {
		return "", false, nil
	}
	if !isAbsPath(src) {
		return "", true, &MaybeRelativePathError{Addr: src}
	}
	return "file:///" + strings.TrimPrefix(src, "/"), true, nil
}

// isAbsPath is filepath.IsAbs on Unix: tfdeps normalises addresses the
// same way on every platform.
func isAbsPath(p string) bool { return strings.HasPrefix(p, "/") }

// IsMaybeRelativePath reports whether err is (or wraps) a
// MaybeRelativePathError, returning it.
func IsMaybeRelativePath(err error) (*MaybeRelativePathError, bool) {
	var e *MaybeRelativePathError
	ok := errors.As(err, &e)
	return e, ok
}
