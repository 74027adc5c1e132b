package registry

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

// PackageMeta is what the registry said about one package, with the
// SHA256SUMS document and its signature already fetched.
type PackageMeta struct {
	Provider addrs.Provider
	Version  versions.Version
	Platform addrs.Platform
	// Protocols are the plugin protocol versions the package speaks.
	Protocols   []string
	Filename    string
	DownloadURL *url.URL
	// SHA256 is the registry's "shasum" for the archive.
	SHA256      [32]byte
	SHA256SUMS  []byte
	Signature   []byte
	SigningKeys []SigningKey
	// Packages is the "packages" map (nil when absent): hashes and size of
	// the archive of every platform of this version.
	Packages map[addrs.Platform]PackageEntry
	// Flavour is the product whose rules decoded the response and
	// authenticate the package (Authenticate).
	Flavour flavour.Flavour
	// TerraformKeys replaces HashiCorp's keys for the Terraform flavour
	// (nil: the real ones); see Settings.TerraformKeys.
	TerraformKeys *TerraformKeys

	sumsURL, sigURL *url.URL
}

// SigningKey is one of the registry's gpg_public_keys.
type SigningKey struct {
	KeyID      string
	ASCIIArmor string
	// TrustSignature is the ASCII-armored signature of the key by
	// HashiCorp's partner key ("" for none); only Terraform reads it.
	TrustSignature string
}

// PackageEntry is one platform of the "packages" map.
type PackageEntry struct {
	Hashes []hashes.Hash
	Size   int64
}

// packageDoc is the JSON body of a "find a package" answer.
type packageDoc struct {
	Protocols   []string `json:"protocols"`
	OS          string   `json:"os"`
	Arch        string   `json:"arch"`
	Filename    string   `json:"filename"`
	DownloadURL string   `json:"download_url"`
	SumsURL     string   `json:"shasums_url"`
	SigURL      string   `json:"shasums_signature_url"`
	Shasum      string   `json:"shasum"`
	SigningKeys struct {
		GPGPublicKeys []struct {
			KeyID          string `json:"key_id"`
			ASCIIArmor     string `json:"ascii_armor"`
			TrustSignature string `json:"trust_signature"`
		} `json:"gpg_public_keys"`
	} `json:"signing_keys"`
	Packages map[string]struct {
		Hashes      []string `json:"hashes"`
		PackageSize int64    `json:"package_size"`
	} `json:"packages"`
}

// errProtocolUnsupported marks a package whose protocols exclude 5 and 6.
var errProtocolUnsupported = errors.New("no supported plugin protocol")

// queryf builds the inner error of a QueryError.
type queryInner struct{ error }

func queryf(format string, args ...any) error { return queryInner{fmt.Errorf(format, args...)} }

// DecodePackage validates a "find a package" body, in OpenTofu's order, for
// the requested platform; responseURL is the final URL it came from. It
// fails with errProtocolUnsupported (checked with IsProtocolUnsupported)
// when no protocol version is supported, with a queryInner for errors that
// OpenTofu reports as "could not query provider registry", and with a
// plain error for the others. SHA256SUMS and the signature are not fetched.
//
// For the Terraform flavour a "packages" map that does not validate is
// dropped instead of rejected (Terraform does not know the map), and a
// shasum of the wrong length gets Terraform's text. A valid map is kept:
// Terraform's authentication does not use it, but tfdeps may still spare
// a download with it where OpenTofu's flavour would (see the installer's
// and providerlock's uses of PackageMeta.Packages).
func DecodePackage(f flavour.Flavour, body []byte, responseURL *url.URL, platform addrs.Platform) (*PackageMeta, error) {
	var doc packageDoc
	if err := checkResponseNesting(body); err != nil {
		return nil, queryInner{err}
	}
	if err := decodeJSON(f, body, &doc); err != nil {
		return nil, queryInner{err}
	}
	if err := checkProtocols(doc.Protocols); err != nil {
		return nil, err
	}
	if got := doc.OS + "_" + doc.Arch; got != platform.String() {
		return nil, fmt.Errorf("registry response to request for %s archive has incorrect target %s", platform, got)
	}
	meta := &PackageMeta{Platform: platform, Protocols: doc.Protocols, Filename: doc.Filename, Flavour: f}
	var err error
	if meta.DownloadURL, err = responseRelativeURL(responseURL, doc.DownloadURL, "download URL"); err != nil {
		return nil, err
	}
	if meta.Packages, err = decodePackagesMap(doc); err != nil {
		if f != flavour.Terraform {
			return nil, err
		}
		meta.Packages = nil // Terraform never reads it, so never rejects it
	}
	if meta.SHA256, err = decodeShasum(f, doc.Shasum); err != nil {
		return nil, err
	}
	if meta.sumsURL, err = responseRelativeURL(responseURL, doc.SumsURL, "SHASUMS URL"); err != nil {
		return nil, err
	}
	if meta.sigURL, err = responseRelativeURL(responseURL, doc.SigURL, "SHASUMS signature URL"); err != nil {
		return nil, err
	}
	for _, k := range doc.SigningKeys.GPGPublicKeys {
		meta.SigningKeys = append(meta.SigningKeys, SigningKey{KeyID: k.KeyID, ASCIIArmor: k.ASCIIArmor, TrustSignature: k.TrustSignature})
	}
	return meta, nil
}

// decodeJSON decodes a response body: all of it for OpenTofu, its first
// JSON value for Terraform (which reads the body as a stream).
func decodeJSON(f flavour.Flavour, body []byte, v any) error {
	if f == flavour.Terraform {
		return json.NewDecoder(bytes.NewReader(body)).Decode(v)
	}
	return json.Unmarshal(body, v)
}

// IsProtocolUnsupported reports whether DecodePackage rejected the
// package's protocol versions.
func IsProtocolUnsupported(err error) bool { return errors.Is(err, errProtocolUnsupported) }

func checkProtocols(protocols []string) error {
	if len(protocols) == 0 {
		return nil
	}
	supported := false
	for _, p := range protocols {
		v, err := versions.ParseVersion(p)
		if err != nil {
			return queryf("registry response includes invalid version string %q: %s", p, err)
		}
		supported = supported || protocolSupported(v)
	}
	if !supported {
		return errProtocolUnsupported
	}
	return nil
}

// protocolSupported: OpenTofu v1.12 speaks plugin protocols 5 and 6.
func protocolSupported(v versions.Version) bool {
	return v.Prerelease == "" && (v.Major == 5 || v.Major == 6)
}

func responseRelativeURL(base *url.URL, raw, what string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("registry response includes invalid %s: %s", what, err)
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("registry response includes invalid %s: must use http or https scheme", what)
	}
	return u, nil
}

func decodePackagesMap(doc packageDoc) (map[addrs.Platform]PackageEntry, error) {
	if doc.Packages == nil {
		return nil, nil
	}
	out := make(map[addrs.Platform]PackageEntry, len(doc.Packages))
	keys := make([]string, 0, len(doc.Packages))
	for key := range doc.Packages {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		entry := doc.Packages[key]
		platform, err := addrs.ParsePlatform(key)
		if err != nil {
			return nil, queryf("registry response includes invalid package platform %q: %s", key, err)
		}
		pe := PackageEntry{Size: entry.PackageSize}
		for _, s := range entry.Hashes {
			h, err := hashes.Parse(s)
			if err != nil {
				return nil, queryf("registry response includes invalid package hash %q: %s", s, err)
			}
			pe.Hashes = append(pe.Hashes, h)
		}
		out[platform] = pe
	}
	return out, nil
}

func decodeShasum(f flavour.Flavour, s string) ([32]byte, error) {
	var sum [32]byte
	if len(s) != 64 {
		// Both products format a nil error here, with different verbs.
		nilErr := "%!w(<nil>)"
		if f == flavour.Terraform {
			nilErr = "%!s(<nil>)"
		}
		return sum, queryf("registry response includes invalid SHA256 hash %q: %s", s, nilErr)
	}
	if _, err := hex.Decode(sum[:], []byte(s)); err != nil {
		return sum, queryf("registry response includes invalid SHA256 hash %q: %s", s, err)
	}
	return sum, nil
}
