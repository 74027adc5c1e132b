package moduleinstall

import (
	"net/http"

	getter "github.com/hashicorp/go-getter"
)

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
	// HTTPClient is used by the http and https getters and carries the
	// requests to OCI registries (nil: a default client honouring
	// SSL_CERT_FILE through the system pool).
	HTTPClient *http.Client
	// S3 and GCS replace the getters for those schemes (tests point them
	// at fakes); nil keeps go-getter's.
	S3, GCS getter.Getter
	// OCICredentials gives the credentials for OCI repositories (nil:
	// anonymous access).
	OCICredentials OCICredentials
}

// getters returns OpenTofu's getter set; without oci, the oci scheme is
// unknown to go-getter (Terraform's set).
func getters(o GetterOptions, oci bool) map[string]getter.Getter {
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
	if oci {
		m["oci"] = &ociGetter{httpClient: o.HTTPClient, creds: o.OCICredentials}
	}
	if o.S3 != nil {
		m["s3"] = o.S3
	}
	if o.GCS != nil {
		m["gcs"] = o.GCS
	}
	return m
}
