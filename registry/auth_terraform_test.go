package registry

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// testTerraformKeys trusts the fake's stand-ins for HashiCorp's keys.
func testTerraformKeys(t *testing.T) *TerraformKeys {
	t.Helper()
	hc, partners, err := registrytest.TerraformTrustedKeys()
	if err != nil {
		t.Fatal(err)
	}
	return &TerraformKeys{HashiCorp: hc, Partners: partners}
}

// terraformOptions serves acme/widget 1.0.0 Terraform-style, signed with
// key.
func terraformOptions(key registrytest.Key, badTrust bool) registrytest.Options {
	return registrytest.Options{
		TerraformStyle: true,
		Providers: []registrytest.Provider{{
			Namespace: "acme", Type: "widget", SignWith: key, BadTrustSignature: badTrust,
			Versions: []registrytest.Version{{Version: "1.0.0"}},
		}},
	}
}

// fetchTerraform runs FindPackage and FetchPackage for acme/widget 1.0.0
// linux_amd64 with a Terraform-flavour client addressing the fake as host.
func fetchTerraform(t *testing.T, srv *registrytest.Server, host string, keys *TerraformKeys) (*PackageMeta, *AuthResult, error) {
	t.Helper()
	c, _ := testClient(t, srv, testEnv{}, func(s *Settings) {
		s.Flavour = flavour.Terraform
		s.TerraformKeys = keys
		s.HostServices["registry.terraform.io"] = map[string]any{"providers.v1": srv.ProvidersBaseURL()}
	})
	meta, err := c.FindPackage(ctx(t), mustProvider(t, host+"/acme/widget"), mustVersion(t, "1.0.0"), linuxAMD64)
	if err != nil {
		t.Fatalf("FindPackage: %v", err)
	}
	dir := t.TempDir()
	a, res, err := c.FetchPackage(ctx(t), meta, dir, nil)
	if err != nil {
		if a != nil || res != nil {
			t.Error("archive or result returned with an error")
		}
		assertEmptyDir(t, dir)
	} else {
		t.Cleanup(func() { a.Remove() })
	}
	return meta, res, err
}

func TestAuthenticateTerraformClassification(t *testing.T) {
	tests := []struct {
		name      string
		key       registrytest.Key
		realKeys  bool // trust HashiCorp's real keys instead of the stand-ins
		badTrust  bool
		want      string // TerraformSummary
		thirdPart bool
	}{
		{name: "HashiCorp", key: registrytest.HashiCorpTestKey, want: "signed by HashiCorp"},
		{name: "partner with a valid trust signature", key: registrytest.PartnerKey, want: "signed by a HashiCorp partner", thirdPart: true},
		{name: "self-signed", key: registrytest.TestKey, want: "self-signed", thirdPart: true},
		{name: "expired key accepted without a warning", key: registrytest.ExpiredKey, want: "self-signed", thirdPart: true},
		{name: "stand-in HashiCorp key under the real keys", key: registrytest.HashiCorpTestKey, realKeys: true, want: "self-signed", thirdPart: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, terraformOptions(tt.key, tt.badTrust))
			keys := testTerraformKeys(t)
			if tt.realKeys {
				keys = nil
			}
			_, res, err := fetchTerraform(t, srv, exampleHost, keys)
			if err != nil {
				t.Fatal(err)
			}
			keyID := srv.KeyIDOf(tt.key)
			if got := res.TerraformSummary(); got != tt.want {
				t.Errorf("TerraformSummary() = %q, want %q", got, tt.want)
			}
			if got := res.SummaryFor(flavour.Terraform); got != tt.want {
				t.Errorf("SummaryFor(Terraform) = %q, want %q", got, tt.want)
			}
			if res.SignerKeyID != keyID || !cmp.Equal(res.KeyIDs(), []string{keyID}) {
				t.Errorf("key IDs %q / %v, want %s", res.SignerKeyID, res.KeyIDs(), keyID)
			}
			if res.ThirdPartySigned() != tt.thirdPart {
				t.Errorf("ThirdPartySigned() = %v, want %v", res.ThirdPartySigned(), tt.thirdPart)
			}
			if len(res.Warnings) != 0 || !res.Signed() || res.SigningSkipped() {
				t.Errorf("warnings %v, signed %v, skipped %v", res.Warnings, res.Signed(), res.SigningSkipped())
			}
		})
	}
}

func TestAuthenticateTerraformFailures(t *testing.T) {
	tests := []struct {
		name     string
		key      registrytest.Key
		opts     func(*registrytest.Options)
		host     string
		realKeys bool
		badTrust bool
		endpoint registrytest.Endpoint
		fault    registrytest.FaultKind
		want     string
	}{
		{name: "partner with an invalid trust signature", key: registrytest.PartnerKey, badTrust: true,
			want: "error verifying trust signature: openpgp: invalid signature: RSA verification failure"},
		{name: "partner key under the real keys", key: registrytest.PartnerKey, realKeys: true,
			want: "error verifying trust signature: openpgp: signature made by unknown entity"},
		{name: "no signing keys", opts: func(o *registrytest.Options) { o.NoSigningKeys = true },
			want: "authentication signature from unknown issuer"},
		{name: "no signing keys on Terraform's default host", opts: func(o *registrytest.Options) { o.NoSigningKeys = true },
			host: "registry.terraform.io", want: "authentication signature from unknown issuer"},
		{name: "no signing keys on registry.opentofu.org", opts: func(o *registrytest.Options) { o.NoSigningKeys = true },
			host: "registry.opentofu.org", want: "authentication signature from unknown issuer"},
		{name: "unknown issuer", key: registrytest.OtherKey, want: "authentication signature from unknown issuer"},
		{name: "bad signature", endpoint: registrytest.Signature, fault: registrytest.BadSignature,
			want: "error checking signature: openpgp: invalid signature: RSA verification failure"},
		{name: "tampered checksum list", endpoint: registrytest.SHA256SUMS, fault: registrytest.Tamper,
			want: "checksum list has unexpected SHA-256 hash 0000000000000000000000000000000000000000000000000000000000000000 (expected WANT)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := terraformOptions(tt.key, tt.badTrust)
			if tt.opts != nil {
				tt.opts(&opts)
			}
			srv := registrytest.New(t, opts)
			if tt.fault != 0 {
				srv.Inject(tt.endpoint, registrytest.Fault{Kind: tt.fault})
			}
			keys := testTerraformKeys(t)
			if tt.realKeys {
				keys = nil
			}
			host := tt.host
			if host == "" {
				host = exampleHost
			}
			_, _, err := fetchTerraform(t, srv, host, keys)
			info, _ := srv.Package("acme", "widget", "1.0.0", "linux_amd64")
			if diff := cmp.Diff(replaceAll(tt.want, "WANT", info.SHA256), errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAuthenticateTerraformSignatureErrorType(t *testing.T) {
	srv := registrytest.New(t, terraformOptions(registrytest.OtherKey, false))
	_, _, err := fetchTerraform(t, srv, exampleHost, testTerraformKeys(t))
	var sigErr *SignatureError
	if !errors.As(err, &sigErr) || !errors.Is(err, errUnknownIssuer) {
		t.Errorf("error %v (%T) is not a SignatureError wrapping the unknown issuer", err, err)
	}
}

// TestAuthenticateTerraformHashes: Terraform's authentication does not use
// the packages map, even when the registry serves one, and trusts every
// SHA256SUMS hash once the signature verifies.
func TestAuthenticateTerraformHashes(t *testing.T) {
	opts := terraformOptions(registrytest.TestKey, false)
	opts.TerraformStyle = false // an OpenTofu-style answer, packages map included
	srv := registrytest.New(t, opts)
	meta, res, err := fetchTerraform(t, srv, exampleHost, testTerraformKeys(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(meta.Packages) != len(registrytest.DefaultPlatforms()) {
		t.Errorf("packages map not kept for sparing downloads: %v", meta.Packages)
	}
	key := srv.KeyIDOf(registrytest.TestKey)
	want := map[hashes.Hash]Disposition{}
	for _, pl := range registrytest.DefaultPlatforms() {
		info, _ := srv.Package("acme", "widget", "1.0.0", pl)
		d := Disposition{ReportedByRegistry: true, SignedByKeyIDs: []string{key}}
		if pl == "linux_amd64" {
			d.VerifiedLocally, d.Platform = true, linuxAMD64
		}
		want[hashes.Hash(info.ZH())] = d
	}
	if diff := cmp.Diff(want, res.Hashes); diff != "" {
		t.Errorf("dispositions (-want +got):\n%s", diff)
	}
}

// TestAuthenticateTerraformMalformedSums: with a checksum list whose lines
// are not all "HASH FILE", Terraform's acceptable (signed) hashes fall back
// to the archive's own checksum.
func TestAuthenticateTerraformMalformedSums(t *testing.T) {
	srv := registrytest.New(t, terraformOptions(registrytest.TestKey, false))
	c, _ := testClient(t, srv, testEnv{}, func(s *Settings) { s.Flavour = flavour.Terraform })
	meta, err := c.FindPackage(ctx(t), mustProvider(t, exampleHost+"/acme/widget"), mustVersion(t, "1.0.0"), linuxAMD64)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := srv.Package("acme", "widget", "1.0.0", "linux_amd64")
	meta.SHA256SUMS = []byte(info.SHA256 + "  " + info.Filename + "\nnot-a-checksum-line\n")
	meta.Signature, err = registrytest.Sign(registrytest.TestKey, meta.SHA256SUMS)
	if err != nil {
		t.Fatal(err)
	}
	a := &Archive{SHA256: mustHex32(t, info.SHA256)}
	res, err := Authenticate(meta, a, nil)
	if err != nil {
		t.Fatal(err)
	}
	key := srv.KeyIDOf(registrytest.TestKey)
	want := map[hashes.Hash]Disposition{
		a.ZH(): {VerifiedLocally: true, ReportedByRegistry: true, SignedByKeyIDs: []string{key}, Platform: linuxAMD64},
	}
	if diff := cmp.Diff(want, res.Hashes); diff != "" {
		t.Errorf("dispositions (-want +got):\n%s", diff)
	}
}

func TestDecodePackageTerraform(t *testing.T) {
	base := mustURL(t, "https://registry.example.com/v1/providers/a/b/1.0.0/download/linux/amd64")
	body := func(shasum, packages string) []byte {
		return []byte(`{"protocols":["5.0"],"os":"linux","arch":"amd64","filename":"f.zip","download_url":"f.zip","shasums_url":"s","shasums_signature_url":"s.sig","shasum":"` + shasum + `",` +
			`"signing_keys":{"gpg_public_keys":[{"key_id":"A","ascii_armor":"x","trust_signature":"y"}]}` + packages + `}`)
	}
	const sum = "84d89877f0d4041efb6bf91a16f0248f2fd573e6af05c19f96bedb9f882f7882"
	tests := []struct {
		name     string
		flavour  flavour.Flavour
		body     []byte
		want     string
		packages int // platforms in the decoded packages map
	}{
		{name: "short shasum, OpenTofu", flavour: flavour.OpenTofu, body: body("abc", ""),
			want: `registry response includes invalid SHA256 hash "abc": %!w(<nil>)`},
		{name: "short shasum, Terraform", flavour: flavour.Terraform, body: body("abc", ""),
			want: `registry response includes invalid SHA256 hash "abc": %!s(<nil>)`},
		{name: "invalid packages map, OpenTofu", flavour: flavour.OpenTofu, body: body(sum, `,"packages":{"nope":{}}`),
			want: `registry response includes invalid package platform "nope": must be two words separated by an underscore`},
		{name: "invalid packages map, Terraform drops it", flavour: flavour.Terraform, body: body(sum, `,"packages":{"nope":{}}`),
			want: "<nil>"},
		{name: "invalid package hash, Terraform drops the map", flavour: flavour.Terraform, body: body(sum, `,"packages":{"linux_amd64":{"hashes":["x"]}}`),
			want: "<nil>"},
		{name: "trailing data, OpenTofu", flavour: flavour.OpenTofu, body: append(body(sum, ""), " x"...),
			want: "invalid character 'x' after top-level value"},
		{name: "trailing data, Terraform reads the first value", flavour: flavour.Terraform, body: append(body(sum, ""), " x"...),
			want: "<nil>"},
		{name: "valid packages map, Terraform keeps it", flavour: flavour.Terraform, body: body(sum, `,"packages":{"linux_amd64":{"hashes":["zh:`+sum+`"],"package_size":1}}`),
			want: "<nil>", packages: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			meta, err := DecodePackage(tt.flavour, tt.body, base, linuxAMD64)
			if diff := cmp.Diff(tt.want, errText(err)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if meta.Flavour != tt.flavour || len(meta.Packages) != tt.packages {
				t.Errorf("flavour %v, packages %v", meta.Flavour, meta.Packages)
			}
			want := []SigningKey{{KeyID: "A", ASCIIArmor: "x", TrustSignature: "y"}}
			if diff := cmp.Diff(want, meta.SigningKeys); diff != "" {
				t.Errorf("signing keys (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTerraformSummary(t *testing.T) {
	local := &AuthResult{}
	local.Add("h1:x", Disposition{VerifiedLocally: true})
	tests := []struct {
		name string
		res  *AuthResult
		want string
	}{
		{"nil", nil, "unauthenticated"},
		{"nothing checked", &AuthResult{}, "unauthenticated"},
		{"checked against hashes", local, "verified checksum"},
		{"HashiCorp", &AuthResult{Signer: SignerHashiCorp}, "signed by HashiCorp"},
		{"partner", &AuthResult{Signer: SignerPartner}, "signed by a HashiCorp partner"},
		{"self", &AuthResult{Signer: SignerSelf}, "self-signed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.res.TerraformSummary(); got != tt.want {
				t.Errorf("TerraformSummary() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestTerraformRetryTexts: a metadata request whose retries are exhausted
// fails with Terraform's words, naming only the host for a status.
func TestTerraformRetryTexts(t *testing.T) {
	const path = "/v1/providers/acme/widget/versions"
	tests := []struct {
		name  string
		env   testEnv
		fault registrytest.Fault
		want  string
	}{
		{name: "status", fault: registrytest.Fault{Kind: registrytest.Status},
			want: "could not query provider registry for registry.example.com/acme/widget: the request failed after 2 attempts, please try again later: 500 Internal Server Error returned from ADDR"},
		{name: "dropped connection", fault: registrytest.Fault{Kind: registrytest.Drop},
			want: `could not query provider registry for registry.example.com/acme/widget: the request failed after 2 attempts, please try again later: Get "https://ADDR` + path + `": EOF`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, fakeOptions())
			srv.Inject(registrytest.Versions, tt.fault)
			c, _ := testClient(t, srv, testEnv{}, func(s *Settings) { s.Flavour = flavour.Terraform })
			_, err := c.ListVersions(ctx(t), mustProvider(t, exampleHost+"/acme/widget"))
			if diff := cmp.Diff(tt.want, withAddr(srv, errText(err))); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
	single := &RequestError{Attempts: 1, Detail: "x", Flavour: flavour.Terraform}
	if got, want := single.Error(), "the request failed, please try again later: x"; got != want {
		t.Errorf("one attempt: %q, want %q", got, want)
	}
}
