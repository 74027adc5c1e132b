package registry

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/opentofu/svchost"
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
)

// Authenticate runs OpenTofu's four checks on a downloaded archive, in
// order, stopping at the first failure: the registry's package data, the
// SHA256SUMS line, the archive checksum and the OpenPGP signature. Only a
// nil error means the result may be trusted.
func (c *Client) Authenticate(meta *PackageMeta, a *Archive) (*AuthResult, error) {
	return Authenticate(meta, a, c.settings.getenv)
}

// Authenticate is Client.Authenticate with an explicit environment lookup
// (for OPENTOFU_ENFORCE_GPG_VALIDATION and OPENTOFU_ENFORCE_GPG_EXPIRATION).
//
// A meta of the Terraform flavour is authenticated by Terraform's rules
// instead (no package-data step, a signature always required, the signer
// classified as HashiCorp, a partner or the provider itself); getenv is not
// used then.
func Authenticate(meta *PackageMeta, a *Archive, getenv func(string) string) (*AuthResult, error) {
	if meta.Flavour == flavour.Terraform {
		return authenticateTerraform(meta, a)
	}
	res := &AuthResult{}
	if err := checkPackageData(meta, a, res); err != nil {
		return nil, err
	}
	if err := checkSumsLine(meta); err != nil {
		return nil, err
	}
	if a.SHA256 != meta.SHA256 {
		return nil, fmt.Errorf("archive has incorrect checksum zh:%x (expected zh:%x)", a.SHA256, meta.SHA256)
	}
	res.Add(a.ZH(), Disposition{VerifiedLocally: true, Platform: meta.Platform})
	if err := checkSignature(meta, getenv, res); err != nil {
		return nil, err
	}
	return res, nil
}

// checkPackageData is step 1, skipped without a packages map.
func checkPackageData(meta *PackageMeta, a *Archive, res *AuthResult) error {
	if len(meta.Packages) == 0 {
		return nil
	}
	entry, ok := meta.Packages[meta.Platform]
	if !ok {
		return fmt.Errorf("registry response missing package with platform %q", meta.Platform.String())
	}
	if entry.Size <= 0 {
		return fmt.Errorf("registry response has invalid package size %v", entry.Size)
	}
	if entry.Size != a.Size {
		return fmt.Errorf("registry response indicates a package of size %v, but received a package of size %v", entry.Size, a.Size)
	}
	want := hex.EncodeToString(meta.SHA256[:])
	found := false
	for _, h := range entry.Hashes {
		value, isZH := strings.CutPrefix(string(h), string(hashes.SchemeZip))
		if !isZH {
			continue
		}
		if value != want {
			return fmt.Errorf("registry response expected sha256sum is %q, which does not match the platform's value of %q", want, value)
		}
		found = true
	}
	if !found {
		return errors.New("registry response does not contain matching sha256sum package entry and is invalid")
	}
	for platform, pe := range meta.Packages {
		for _, h := range pe.Hashes {
			if h.Scheme() == hashes.SchemeH1 || h.Scheme() == hashes.SchemeZip {
				res.Add(h, Disposition{ReportedByRegistry: true, Platform: platform})
			}
		}
	}
	return nil
}

// checkSumsLine is step 2: the first SHA256SUMS line naming the file must
// carry the registry's checksum.
func checkSumsLine(meta *PackageMeta) error {
	for _, line := range strings.Split(string(meta.SHA256SUMS), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[1] != meta.Filename {
			continue
		}
		got, err := hex.DecodeString(fields[0])
		if err != nil {
			return fmt.Errorf("checksum list has invalid SHA256 hash %q: %s", fields[0], err)
		}
		if !bytes.Equal(got, meta.SHA256[:]) {
			return fmt.Errorf("checksum list has unexpected SHA-256 hash %x (expected %x)", got, meta.SHA256[:])
		}
		return nil
	}
	return fmt.Errorf("checksum list has no SHA-256 hash for %q", meta.Filename)
}

// sumsHashes returns the zh: hashes listed in a SHA256SUMS document, or
// nil when any non-empty line is malformed. Empty lines are skipped (where
// OpenTofu would crash).
func sumsHashes(doc []byte) []hashes.Hash {
	var out []hashes.Hash
	for _, line := range strings.Split(string(doc), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if len(fields) < 2 || len(fields[0]) != 2*sha256.Size {
			return nil
		}
		sum, err := hex.DecodeString(fields[0])
		if err != nil {
			return nil
		}
		out = append(out, hashes.Hash("zh:"+hex.EncodeToString(sum)))
	}
	return out
}

// SigningEnforced reports whether OpenTofu insists on a GPG signature for
// providers of host even when the registry publishes no key: every host but
// registry.opentofu.org, or any host with OPENTOFU_ENFORCE_GPG_VALIDATION
// set to exactly "true". init uses it to choose the hashes it records.
func SigningEnforced(host svchost.Hostname, getenv func(string) string) bool {
	return host != addrs.DefaultProviderRegistryHost || getenv("OPENTOFU_ENFORCE_GPG_VALIDATION") == "true"
}
