package registry

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/tfdeps/tfdeps/flavour"
)

// SignatureError is a failed signature check (step 4). OpenTofu wraps the
// reason in a sentence; Terraform reports the reason alone.
type SignatureError struct {
	Err error
	// Flavour selects the product's wording.
	Flavour flavour.Flavour
}

func (e *SignatureError) Error() string {
	if e.Flavour == flavour.Terraform {
		return e.Err.Error()
	}
	return fmt.Sprintf("the provider is not signed with a valid signing key; please contact the provider author (%s)", e.Err)
}
func (e *SignatureError) Unwrap() error { return e.Err }

var errUnknownIssuer = errors.New("authentication signature from unknown issuer")

// checkSignature is step 4. It verifies the detached signature when
// required and records the SHA256SUMS hashes either way.
func checkSignature(meta *PackageMeta, getenv func(string) string, res *AuthResult) error {
	var keyIDs []string
	if len(meta.SigningKeys) > 0 || SigningEnforced(meta.Provider.Hostname, getenv) {
		keyID, warning, err := verifySignature(meta, getenv)
		if err != nil {
			return &SignatureError{Err: err}
		}
		keyIDs = []string{keyID}
		if warning != "" {
			res.Warnings = append(res.Warnings, warning)
		}
	}
	for _, h := range sumsHashes(meta.SHA256SUMS) {
		res.Add(h, Disposition{ReportedByRegistry: true, SignedByKeyIDs: keyIDs})
	}
	return nil
}

// verifySignature tries the registry's keys in order and returns the ID of
// the key that verified the signature, and a warning when that key has
// expired but expiry is not enforced.
func verifySignature(meta *PackageMeta, getenv func(string) string) (string, string, error) {
	var expired *openpgp.Entity
	for _, key := range meta.SigningKeys {
		keyring, err := openpgp.ReadArmoredKeyRing(strings.NewReader(key.ASCIIArmor))
		if err != nil {
			return "", "", fmt.Errorf("error decoding signing key: %s", err)
		}
		entity, err := openpgp.CheckDetachedSignature(keyring, bytes.NewReader(meta.SHA256SUMS), bytes.NewReader(meta.Signature), nil)
		switch {
		case err == nil:
			return entityKeyID(entity), "", nil
		case errors.Is(err, pgperrors.ErrUnknownIssuer):
			continue
		case errors.Is(err, pgperrors.ErrKeyExpired) || errors.Is(err, pgperrors.ErrSignatureExpired):
			if expired == nil {
				expired = entity
			}
			continue
		default:
			return "", "", fmt.Errorf("error checking signature: %s", err)
		}
	}
	if expired != nil && getenv("OPENTOFU_ENFORCE_GPG_EXPIRATION") != "true" {
		p := meta.Provider
		warning := fmt.Sprintf("[WARN] Provider %s/%s (%s) gpg key expired, this will fail in future versions of OpenTofu", p.Namespace, p.Type, p.Hostname)
		return entityKeyID(expired), warning, nil
	}
	return "", "", errUnknownIssuer
}

func entityKeyID(e *openpgp.Entity) string {
	if e == nil || e.PrimaryKey == nil {
		return "n/a"
	}
	return fmt.Sprintf("%016X", e.PrimaryKey.KeyId)
}
