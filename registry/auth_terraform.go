package registry

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
)

// HashiCorp's public keys, as Terraform v1.15 trusts them: the release
// signing key (a package signed with it is "signed by HashiCorp") and the
// partner signing key (a registry key that carries a trust signature made
// with it is a partner's). Both are published by HashiCorp. Terraform reads
// only the first armored block of each, and so does this package.
var (
	//go:embed trustkeys/hashicorp.asc
	hashiCorpReleaseKey string
	//go:embed trustkeys/hashicorp-partners.asc
	hashiCorpPartnersKey string
)

// TerraformKeys are the keys the Terraform flavour trusts beyond the ones
// a registry publishes. The zero value (and a nil *TerraformKeys) means
// HashiCorp's real keys. Tests replace them with keys of their own so that
// the "signed by HashiCorp" and partner results can be produced; nothing
// but a test or an explicit option should set them.
type TerraformKeys struct {
	// HashiCorp is the ASCII-armored key whose signatures classify a
	// package as "signed by HashiCorp".
	HashiCorp string
	// Partners is the ASCII-armored key that makes trust signatures of
	// partner keys.
	Partners string
}

func (k *TerraformKeys) hashiCorp() string {
	if k == nil || k.HashiCorp == "" {
		return hashiCorpReleaseKey
	}
	return k.HashiCorp
}

func (k *TerraformKeys) partners() string {
	if k == nil || k.Partners == "" {
		return hashiCorpPartnersKey
	}
	return k.Partners
}

// authenticateTerraform runs Terraform's three checks, in its order: the
// SHA256SUMS line, the archive checksum and the signature. There is no
// packages-map step and no signature is ever optional.
func authenticateTerraform(meta *PackageMeta, a *Archive) (*AuthResult, error) {
	if err := checkSumsLine(meta); err != nil {
		return nil, err
	}
	if a.SHA256 != meta.SHA256 {
		return nil, fmt.Errorf("archive has incorrect checksum zh:%x (expected zh:%x)", a.SHA256, meta.SHA256)
	}
	res := &AuthResult{}
	res.Add(a.ZH(), Disposition{VerifiedLocally: true, Platform: meta.Platform})
	signer, keyID, err := classifySignature(meta)
	if err != nil {
		return nil, &SignatureError{Err: err, Flavour: flavour.Terraform}
	}
	res.Signer, res.SignerKeyID = signer, keyID
	signed := sumsHashes(meta.SHA256SUMS)
	if len(signed) == 0 {
		// Terraform then falls back to the archive checksum as the one
		// acceptable (signed) hash.
		signed = []hashes.Hash{a.ZH()}
	}
	for _, h := range signed {
		res.Add(h, Disposition{ReportedByRegistry: true, SignedByKeyIDs: []string{keyID}})
	}
	return res, nil
}

// classifySignature finds the registry key that signed SHA256SUMS and says
// who it belongs to: HashiCorp when HashiCorp's key verifies the signature
// too, a partner when the key carries a trust signature (which must then
// verify against HashiCorp's partner key), else the provider's own.
func classifySignature(meta *PackageMeta) (Signer, string, error) {
	key, keyID, err := findTerraformSigningKey(meta)
	if err != nil {
		return SignerNone, "", err
	}
	hashiCorp, err := openpgp.ReadArmoredKeyRing(strings.NewReader(meta.TerraformKeys.hashiCorp()))
	if err != nil {
		return SignerNone, "", fmt.Errorf("error creating HashiCorp keyring: %s", err)
	}
	if _, err := checkDetachedTerraform(hashiCorp, meta.SHA256SUMS, meta.Signature); err == nil {
		return SignerHashiCorp, keyID, nil
	}
	if key.TrustSignature == "" {
		return SignerSelf, keyID, nil
	}
	if err := checkTrustSignature(meta.TerraformKeys.partners(), key); err != nil {
		return SignerNone, "", err
	}
	return SignerPartner, keyID, nil
}

// findTerraformSigningKey tries the registry's keys in order. Unlike
// OpenTofu, an expired key verifies without a warning, and a registry
// that publishes no key fails as an unknown issuer.
func findTerraformSigningKey(meta *PackageMeta) (SigningKey, string, error) {
	for _, key := range meta.SigningKeys {
		keyring, err := openpgp.ReadArmoredKeyRing(strings.NewReader(key.ASCIIArmor))
		if err != nil {
			return SigningKey{}, "", fmt.Errorf("error decoding signing key: %s", err)
		}
		entity, err := checkDetachedTerraform(keyring, meta.SHA256SUMS, meta.Signature)
		if errors.Is(err, pgperrors.ErrUnknownIssuer) {
			continue
		}
		if err != nil {
			return SigningKey{}, "", fmt.Errorf("error checking signature: %s", err)
		}
		return key, entityKeyID(entity), nil
	}
	return SigningKey{}, "", errUnknownIssuer
}

// checkTrustSignature verifies the registry key's trust signature: a
// detached signature, by the partner key, of the key's binary (dearmored)
// form.
func checkTrustSignature(partnersArmor string, key SigningKey) error {
	partners, err := openpgp.ReadArmoredKeyRing(strings.NewReader(partnersArmor))
	if err != nil {
		return fmt.Errorf("error creating HashiCorp Partners keyring: %s", err)
	}
	authorKey, err := dearmor(key.ASCIIArmor)
	if err != nil {
		return fmt.Errorf("error decoding signing key: %s", err)
	}
	trustSig, err := dearmor(key.TrustSignature)
	if err != nil {
		return fmt.Errorf("error decoding trust signature: %s", err)
	}
	if _, err := checkDetachedTerraform(partners, authorKey, trustSig); err != nil {
		return fmt.Errorf("error verifying trust signature: %s", err)
	}
	return nil
}

// dearmor returns the body of the first armored block of s.
func dearmor(s string) ([]byte, error) {
	block, err := armor.Decode(strings.NewReader(s))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(block.Body)
}

// checkDetachedTerraform checks a binary detached signature the way
// Terraform does: an expired key is accepted (an expired signature is not).
func checkDetachedTerraform(keyring openpgp.KeyRing, signed, signature []byte) (*openpgp.Entity, error) {
	entity, err := openpgp.CheckDetachedSignature(keyring, bytes.NewReader(signed), bytes.NewReader(signature), nil)
	if errors.Is(err, pgperrors.ErrKeyExpired) {
		err = nil
	}
	return entity, err
}
