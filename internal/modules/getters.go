package modules

import (
	"fmt"
	"net/http"
	"path/filepath"
	"strings"

	getter "github.com/hashicorp/go-getter"
)

// detectors are the go-getter detectors OpenTofu 1.12 enables, in its
// order: GitHub (query kept aside), SCP-style git, BitBucket, GCS, S3 and
// absolute file paths. There is no GitLab detector.
func detectors() []getter.Detector {
	return []getter.Detector{
		queryKeeping{new(getter.GitHubDetector)},
		new(getter.GitDetector),
		new(getter.BitBucketDetector),
		new(getter.GCSDetector),
		new(getter.S3Detector),
		absPathDetector{},
	}
}

// decompressors are OpenTofu's archive formats (modules.md §4.1).
func decompressors() map[string]getter.Decompressor {
	return map[string]getter.Decompressor{
		"bz2":      new(getter.Bzip2Decompressor),
		"gz":       new(getter.GzipDecompressor),
		"xz":       new(getter.XzDecompressor),
		"zip":      new(getter.ZipDecompressor),
		"tar.bz2":  new(getter.TarBzip2Decompressor),
		"tar.tbz2": new(getter.TarBzip2Decompressor),
		"tar.gz":   new(getter.TarGzipDecompressor),
		"tgz":      new(getter.TarGzipDecompressor),
		"tar.xz":   new(getter.TarXzDecompressor),
		"txz":      new(getter.TarXzDecompressor),
	}
}

// GetterOptions configure the getters that talk to the network.
type GetterOptions struct {
	// HTTPClient is used by the http and https getters (nil: a default
	// client honouring SSL_CERT_FILE through the system pool).
	HTTPClient *http.Client
	// S3 and GCS replace the getters for those schemes (tests point them
	// at fakes); nil keeps go-getter's.
	S3, GCS getter.Getter
}

// getters returns OpenTofu's getter set. OCI is refused with a clear
// error (fetchRemote), not fetched.
func getters(o GetterOptions) map[string]getter.Getter {
	hg := &getter.HttpGetter{Client: o.HTTPClient, Netrc: true, XTerraformGetLimit: 10}
	m := map[string]getter.Getter{
		"file":  new(getter.FileGetter),
		"gcs":   new(getter.GCSGetter),
		"git":   new(getter.GitGetter),
		"hg":    new(getter.HgGetter),
		"http":  hg,
		"https": hg,
		"s3":    new(getter.S3Getter),
	}
	if o.S3 != nil {
		m["s3"] = o.S3
	}
	if o.GCS != nil {
		m["gcs"] = o.GCS
	}
	return m
}

// queryKeeping runs a detector on the address without its query and puts
// the query back afterwards, as OpenTofu does for GitHub shorthands.
type queryKeeping struct{ d getter.Detector }

func (w queryKeeping) Detect(src, pwd string) (string, bool, error) {
	var q string
	if i := strings.Index(src, "?"); i >= 0 {
		src, q = src[:i], src[i+1:]
	}
	out, ok, err := w.d.Detect(src, pwd)
	if out != "" && q != "" {
		out += "?" + q
	}
	return out, ok, err
}

// MaybeRelativePathError is the detection failure for an address no
// detector recognised.
type MaybeRelativePathError struct{ Addr string }

func (e *MaybeRelativePathError) Error() string {
	return fmt.Sprintf("OpenTofu cannot detect a supported external module source type for %s", e.Addr)
}

// absPathDetector turns an absolute path into a file:/// URL and refuses
// everything else.
type absPathDetector struct{}

func (absPathDetector) Detect(src, _ string) (string, bool, error) {
	if src == "" {
		return "", false, nil
	}
	if !filepath.IsAbs(src) {
		return "", true, &MaybeRelativePathError{src}
	}
	return "file:///" + strings.TrimPrefix(filepath.ToSlash(src), "/"), true, nil
}
