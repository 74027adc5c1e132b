package registrytest

import (
	"bytes"
	_ "embed"
	"fmt"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// The committed test keys (see TestRegenerateKeys). They protect nothing.
var (
	//go:embed testdata/signing-key.asc
	signingKeyArmor []byte
	//go:embed testdata/expired-key.asc
	expiredKeyArmor []byte
	//go:embed testdata/other-key.asc
	otherKeyArmor []byte
	//go:embed testdata/hashicorp-test-key.asc
	hashiCorpTestKeyArmor []byte
	//go:embed testdata/partners-test-key.asc
	partnersTestKeyArmor []byte
	//go:embed testdata/partner-key.asc
	partnerKeyArmor []byte
)

// Key names one of the committed test keys.
type Key int

const (
	// TestKey is the registry's normal signing key; it never expires.
	TestKey Key = iota
	// ExpiredKey was valid for one day in January 2020.
	ExpiredKey
	// OtherKey is a valid key that the fake never publishes, so signatures
	// made with it come from an "unknown issuer".
	OtherKey
	// HashiCorpTestKey stands in for HashiCorp's release key: a test that
	// trusts it (see TerraformTrustedKeys) sees packages signed with it as
	// "signed by HashiCorp"; Terraform itself sees them as self-signed.
	HashiCorpTestKey
	// PartnersTestKey stands in for HashiCorp's partner key, which makes
	// the trust signatures of partner keys. The fake never signs packages
	// with it.
	PartnersTestKey
	// PartnerKey is a partner's signing key, published with a trust
	// signature made by PartnersTestKey.
	PartnerKey
)

// TerraformTrustedKeys returns the ASCII-armored public keys a test
// configures as the HashiCorp release and partner keys of the Terraform
// flavour: those of HashiCorpTestKey and PartnersTestKey.
func TerraformTrustedKeys() (hashiCorp, partners string, err error) {
	if hashiCorp, _, err = PublicKey(HashiCorpTestKey); err != nil {
		return "", "", err
	}
	partners, _, err = PublicKey(PartnersTestKey)
	return hashiCorp, partners, err
}

// TrustSignature returns the ASCII-armored trust signature of k's
// published public key, made with PartnersTestKey: a detached signature
// of the key's binary form, as the Terraform registry publishes for
// partner keys. With tampered set, the signature covers other bytes, so
// it does not verify.
func TrustSignature(k Key, tampered bool) (string, error) {
	s, err := loadSigner(k)
	if err != nil {
		return "", err
	}
	return s.trustSignature(tampered)
}

// signer is a parsed test key.
type signer struct {
	entity    *openpgp.Entity
	publicPEM string
	// publicBinary is the public key as publicPEM armors it.
	publicBinary []byte
	signTime     time.Time
}

func loadSigner(k Key) (*signer, error) {
	var armored []byte
	var signTime time.Time
	switch k {
	case TestKey:
		armored, signTime = signingKeyArmor, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)
	case ExpiredKey:
		armored, signTime = expiredKeyArmor, time.Date(2020, 1, 1, 1, 0, 0, 0, time.UTC)
	case OtherKey:
		armored, signTime = otherKeyArmor, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)
	case HashiCorpTestKey:
		armored, signTime = hashiCorpTestKeyArmor, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)
	case PartnersTestKey:
		armored, signTime = partnersTestKeyArmor, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)
	case PartnerKey:
		armored, signTime = partnerKeyArmor, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)
	default:
		return nil, fmt.Errorf("unknown test key %d", k)
	}
	list, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(armored))
	if err != nil || len(list) != 1 {
		return nil, fmt.Errorf("reading test key %d: %v", k, err)
	}
	var pub bytes.Buffer
	w, err := armor.Encode(&pub, openpgp.PublicKeyType, nil)
	if err != nil {
		return nil, err
	}
	if err := list[0].Serialize(w); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	var binary bytes.Buffer
	if err := list[0].Serialize(&binary); err != nil {
		return nil, err
	}
	return &signer{entity: list[0], publicPEM: pub.String() + "\n", publicBinary: binary.Bytes(), signTime: signTime}, nil
}

// trustSignature is the armored signature of s's public key by the
// partners key (of other bytes when tampered).
func (s *signer) trustSignature(tampered bool) (string, error) {
	partners, err := loadSigner(PartnersTestKey)
	if err != nil {
		return "", err
	}
	signed := s.publicBinary
	if tampered {
		signed = append(append([]byte(nil), signed...), 0)
	}
	sig, err := partners.sign(signed)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	w, err := armor.Encode(&out, openpgp.SignatureType, nil)
	if err != nil {
		return "", err
	}
	if _, err := w.Write(sig); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return out.String() + "\n", nil
}

// KeyID returns the primary key ID as OpenTofu prints it (%016X).
func (s *signer) KeyID() string {
	return fmt.Sprintf("%016X", s.entity.PrimaryKey.KeyId)
}

// sign returns a binary detached signature of doc, deterministic because the
// signature time is fixed and the key is RSA (PKCS #1 v1.5).
func (s *signer) sign(doc []byte) ([]byte, error) {
	var out bytes.Buffer
	deterministic := false
	cfg := &packet.Config{
		Time:                                  func() time.Time { return s.signTime },
		NonDeterministicSignaturesViaNotation: &deterministic,
	}
	if err := openpgp.DetachSign(&out, s.entity, bytes.NewReader(doc), cfg); err != nil {
		return nil, fmt.Errorf("signing: %w", err)
	}
	return out.Bytes(), nil
}

// PublicKey returns the ASCII-armored public key of k and its primary key ID
// as "%016X".
func PublicKey(k Key) (armored, keyID string, err error) {
	s, err := loadSigner(k)
	if err != nil {
		return "", "", err
	}
	return s.publicPEM, s.KeyID(), nil
}

// Sign returns a binary detached OpenPGP signature of doc made with k.
func Sign(k Key, doc []byte) ([]byte, error) {
	s, err := loadSigner(k)
	if err != nil {
		return nil, err
	}
	return s.sign(doc)
}
