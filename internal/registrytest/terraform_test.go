package registrytest

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
)

// terraformMeta is the part of a Terraform-style download response the
// tests look at.
type terraformMeta struct {
	SumsURL string `json:"shasums_url"`
	SigURL  string `json:"shasums_signature_url"`
	Keys    struct {
		GPG []struct {
			KeyID          string `json:"key_id"`
			Armor          string `json:"ascii_armor"`
			TrustSignature string `json:"trust_signature"`
			Source         string `json:"source"`
		} `json:"gpg_public_keys"`
	} `json:"signing_keys"`
	Packages map[string]any `json:"packages"`
}

// TestTerraformStyle: per provider, the one published key is the one that
// signs SHA256SUMS; only the partner key carries a trust signature, which
// verifies against PartnersTestKey over the key's binary form (unless
// BadTrustSignature); there is no packages map.
func TestTerraformStyle(t *testing.T) {
	tests := []struct {
		typ       string
		key       Key
		badTrust  bool
		wantTrust string // "", "valid" or "invalid"
	}{
		{typ: "official", key: HashiCorpTestKey},
		{typ: "partner", key: PartnerKey, wantTrust: "valid"},
		{typ: "badpartner", key: PartnerKey, badTrust: true, wantTrust: "invalid"},
		{typ: "community", key: TestKey},
	}
	opts := Options{TerraformStyle: true}
	for _, tt := range tests {
		opts.Providers = append(opts.Providers, Provider{Namespace: "acme", Type: tt.typ, SignWith: tt.key, BadTrustSignature: tt.badTrust,
			Versions: []Version{{Version: "1.0.0"}}})
	}
	s := New(t, opts)
	_, partnersArmor, err := TerraformTrustedKeys()
	if err != nil {
		t.Fatal(err)
	}
	partners, err := openpgp.ReadArmoredKeyRing(strings.NewReader(partnersArmor))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.typ, func(t *testing.T) {
			_, body := get(t, s, s.ProvidersBaseURL()+"acme/"+tt.typ+"/1.0.0/download/linux/amd64")
			var meta terraformMeta
			if err := json.Unmarshal(body, &meta); err != nil {
				t.Fatal(err)
			}
			if meta.Packages != nil {
				t.Errorf("packages map served: %v", meta.Packages)
			}
			if len(meta.Keys.GPG) != 1 {
				t.Fatalf("got %d keys, want 1", len(meta.Keys.GPG))
			}
			k := meta.Keys.GPG[0]
			if k.KeyID != s.KeyIDOf(tt.key) || k.Source == "" {
				t.Errorf("key_id %q (want %q), source %q", k.KeyID, s.KeyIDOf(tt.key), k.Source)
			}
			keyring, err := openpgp.ReadArmoredKeyRing(strings.NewReader(k.Armor))
			if err != nil {
				t.Fatal(err)
			}
			_, sums := get(t, s, meta.SumsURL)
			_, sig := get(t, s, meta.SigURL)
			if _, err := openpgp.CheckDetachedSignature(keyring, bytes.NewReader(sums), bytes.NewReader(sig), nil); err != nil {
				t.Errorf("SHA256SUMS signature does not verify with the published key: %v", err)
			}
			if got := trustOutcome(t, partners, k.Armor, k.TrustSignature); got != tt.wantTrust {
				t.Errorf("trust signature %q, want %q", got, tt.wantTrust)
			}
		})
	}
}

func trustOutcome(t *testing.T, partners openpgp.EntityList, keyArmor, trust string) string {
	t.Helper()
	if trust == "" {
		return ""
	}
	dearmor := func(s string) []byte {
		block, err := armor.Decode(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(block.Body)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if _, err := openpgp.CheckDetachedSignature(partners, bytes.NewReader(dearmor(keyArmor)), bytes.NewReader(dearmor(trust)), nil); err != nil {
		return "invalid"
	}
	return "valid"
}

// TestProviderSignWithOpenTofuStyle: a provider's own signing key is
// published beside TestKey in the OpenTofu style, and signs its SHA256SUMS.
func TestProviderSignWithOpenTofuStyle(t *testing.T) {
	s := New(t, Options{Providers: []Provider{{Namespace: "acme", Type: "widget", SignWith: PartnerKey, Versions: []Version{{Version: "1.0.0"}}}}})
	_, body := get(t, s, s.ProvidersBaseURL()+"acme/widget/1.0.0/download/linux/amd64")
	var meta terraformMeta
	if err := json.Unmarshal(body, &meta); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, k := range meta.Keys.GPG {
		ids = append(ids, k.KeyID)
	}
	if want := []string{s.KeyIDOf(TestKey), s.KeyIDOf(PartnerKey)}; strings.Join(ids, ",") != strings.Join(want, ",") {
		t.Errorf("published keys %v, want %v", ids, want)
	}
	if meta.Packages == nil {
		t.Error("no packages map in the OpenTofu style")
	}
	partner, _, err := PublicKey(PartnerKey)
	if err != nil {
		t.Fatal(err)
	}
	keyring, err := openpgp.ReadArmoredKeyRing(strings.NewReader(partner))
	if err != nil {
		t.Fatal(err)
	}
	_, sums := get(t, s, meta.SumsURL)
	_, sig := get(t, s, meta.SigURL)
	if _, err := openpgp.CheckDetachedSignature(keyring, bytes.NewReader(sums), bytes.NewReader(sig), nil); err != nil {
		t.Errorf("SHA256SUMS not signed with the provider's key: %v", err)
	}
}
