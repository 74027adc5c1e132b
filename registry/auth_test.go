package registry

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// fetch runs FindPackage and FetchPackage for acme/widget 1.0.0 linux_amd64.
func fetch(t *testing.T, srv *registrytest.Server, host string, env testEnv) (*Archive, *AuthResult, error) {
	t.Helper()
	c, _ := testClient(t, srv, env)
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
	return a, res, err
}

func TestAuthenticateSigned(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	_, res, err := fetch(t, srv, exampleHost, testEnv{})
	if err != nil {
		t.Fatal(err)
	}
	key := srv.KeyID()
	want := map[hashes.Hash]Disposition{}
	for _, pl := range registrytest.DefaultPlatforms() {
		info, _ := srv.Package("acme", "widget", "1.0.0", pl)
		platform, _ := addrs.ParsePlatform(pl)
		want[hashes.Hash(info.H1)] = Disposition{ReportedByRegistry: true, Platform: platform}
		want[hashes.Hash(info.ZH())] = Disposition{ReportedByRegistry: true, SignedByKeyIDs: []string{key}, Platform: platform}
		if pl == "linux_amd64" {
			want[hashes.Hash(info.ZH())] = Disposition{VerifiedLocally: true, ReportedByRegistry: true, SignedByKeyIDs: []string{key}, Platform: platform}
		}
	}
	if diff := cmp.Diff(want, res.Hashes); diff != "" {
		t.Errorf("dispositions (-want +got):\n%s", diff)
	}
	if res.Summary() != "signed" || res.SigningSkipped() || !cmp.Equal(res.KeyIDs(), []string{key}) || len(res.Warnings) != 0 {
		t.Errorf("summary %q, skipped %v, keys %v, warnings %v", res.Summary(), res.SigningSkipped(), res.KeyIDs(), res.Warnings)
	}
}

func TestAuthenticateFailures(t *testing.T) {
	const notSigned = "the provider is not signed with a valid signing key; please contact the provider author "
	tests := []struct {
		name     string
		opts     func(*registrytest.Options)
		host     string
		env      testEnv
		endpoint registrytest.Endpoint
		fault    registrytest.FaultKind
		want     string
	}{
		{name: "tampered archive", endpoint: registrytest.Archive, fault: registrytest.Tamper,
			want: "archive has incorrect checksum zh:GOT (expected zh:WANT)"},
		{name: "tampered archive without packages map", opts: func(o *registrytest.Options) { o.NoPackagesMap = true },
			endpoint: registrytest.Archive, fault: registrytest.Tamper,
			want: "archive has incorrect checksum zh:GOT (expected zh:WANT)"},
		{name: "tampered checksum list", endpoint: registrytest.SHA256SUMS, fault: registrytest.Tamper,
			want: "checksum list has unexpected SHA-256 hash 0000000000000000000000000000000000000000000000000000000000000000 (expected WANT)"},
		{name: "bad signature", endpoint: registrytest.Signature, fault: registrytest.BadSignature,
			want: notSigned + "(error checking signature: openpgp: invalid signature: RSA verification failure)"},
		{name: "unknown issuer", opts: func(o *registrytest.Options) { o.SignWith = registrytest.OtherKey },
			want: notSigned + "(authentication signature from unknown issuer)"},
		{name: "expired key enforced", opts: func(o *registrytest.Options) { o.SignWith = registrytest.ExpiredKey },
			env:  testEnv{"OPENTOFU_ENFORCE_GPG_EXPIRATION": "true"},
			want: notSigned + "(authentication signature from unknown issuer)"},
		{name: "no keys on another host", opts: func(o *registrytest.Options) { o.NoSigningKeys = true },
			want: notSigned + "(authentication signature from unknown issuer)"},
		{name: "no keys, validation enforced", opts: func(o *registrytest.Options) { o.NoSigningKeys = true },
			host: "registry.opentofu.org", env: testEnv{"OPENTOFU_ENFORCE_GPG_VALIDATION": "true"},
			want: notSigned + "(authentication signature from unknown issuer)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := fakeOptions()
			if tt.opts != nil {
				tt.opts(&opts)
			}
			srv := registrytest.New(t, opts)
			if tt.fault != 0 {
				srv.Inject(tt.endpoint, registrytest.Fault{Kind: tt.fault})
			}
			host, env := tt.host, tt.env
			if host == "" {
				host = exampleHost
			}
			if env == nil {
				env = testEnv{}
			}
			_, _, err := fetch(t, srv, host, env)
			info, _ := srv.Package("acme", "widget", "1.0.0", "linux_amd64")
			want := replaceAll(tt.want, "WANT", info.SHA256)
			got := errText(err)
			if len(got) > len("archive has incorrect checksum zh:")+64 && got[:len("archive has incorrect checksum zh:")] == "archive has incorrect checksum zh:" {
				got = "archive has incorrect checksum zh:GOT" + got[len("archive has incorrect checksum zh:")+64:]
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAuthenticateExpiredKeyAccepted(t *testing.T) {
	opts := fakeOptions()
	opts.SignWith = registrytest.ExpiredKey
	srv := registrytest.New(t, opts)
	_, res, err := fetch(t, srv, exampleHost, testEnv{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"[WARN] Provider acme/widget (registry.example.com) gpg key expired, this will fail in future versions of OpenTofu"}
	if diff := cmp.Diff(want, res.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if !cmp.Equal(res.KeyIDs(), []string{srv.KeyID()}) || res.Summary() != "signed" {
		t.Errorf("keys %v (want %s), summary %q", res.KeyIDs(), srv.KeyID(), res.Summary())
	}
}

func TestAuthenticateSigningSkipped(t *testing.T) {
	opts := fakeOptions()
	opts.NoSigningKeys = true
	srv := registrytest.New(t, opts)
	srv.Inject(registrytest.Signature, registrytest.Fault{Kind: registrytest.BadSignature})
	_, res, err := fetch(t, srv, "registry.opentofu.org", testEnv{"OPENTOFU_ENFORCE_GPG_VALIDATION": "1"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary() != "signing skipped" || !res.SigningSkipped() || res.Signed() || len(res.KeyIDs()) != 0 {
		t.Errorf("summary %q, skipped %v, keys %v", res.Summary(), res.SigningSkipped(), res.KeyIDs())
	}
	for h, d := range res.Hashes {
		if len(d.SignedByKeyIDs) != 0 {
			t.Errorf("%s marked signed without verification", h)
		}
	}
}
