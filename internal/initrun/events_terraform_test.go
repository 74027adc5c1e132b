package initrun

import (
	"bytes"
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// TestTerraformInstalledLines: a fresh install in the Terraform flavour is
// shown in Terraform's words, in the text and the JSON
// view, and the note about partner and community providers follows only
// when one of them was not signed by HashiCorp.
func TestTerraformInstalledLines(t *testing.T) {
	const keyID = "0123456789ABCDEF"
	signed := func(s registry.Signer) *registry.AuthResult {
		return &registry.AuthResult{Signer: s, SignerKeyID: keyID}
	}
	tests := []struct {
		name      string
		auth      []*registry.AuthResult
		wantText  string
		wantJSON  string
		wantColor string
	}{
		{
			name:     "HashiCorp",
			auth:     []*registry.AuthResult{signed(registry.SignerHashiCorp)},
			wantText: "- Installed hashicorp/null v3.2.1 (signed by HashiCorp)\n",
			wantJSON: `{"@level":"info","@message":"Installed provider version: hashicorp/null v3.2.1 (signed by HashiCorp)","@module":"terraform.ui","@timestamp":"T","tfdeps":{"event":"installed","provider":"hashicorp/null","version":"3.2.1"},"type":"log"}` + "\n",
		},
		{
			name: "partner",
			auth: []*registry.AuthResult{signed(registry.SignerPartner)},
			wantText: "- Installed hashicorp/null v3.2.1 (signed by a HashiCorp partner, key ID " + keyID + ")\n" +
				"Partner and community providers are signed by their developers.\n" +
				"If you'd like to know more about provider signing, you can read about it here:\n" +
				"https://developer.hashicorp.com/terraform/cli/plugins/signing\n",
			wantJSON: `{"@level":"info","@message":"Installed provider version: hashicorp/null v3.2.1 (signed by a HashiCorp partnerkey_id: ` + keyID + `)","@module":"terraform.ui","@timestamp":"T","tfdeps":{"event":"installed","provider":"hashicorp/null","version":"3.2.1"},"type":"log"}` + "\n" +
				`{"@level":"info","@message":"Partner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://developer.hashicorp.com/terraform/cli/plugins/signing","@module":"terraform.ui","@timestamp":"T","tfdeps":{"event":"signing_notice"},"type":"log"}` + "\n",
			wantColor: "- Installed hashicorp/null v3.2.1 (signed by a HashiCorp partner, key ID \x1b[0m\x1b[1m" + keyID + "\x1b[0m\x1b[0m)\n",
		},
		{
			name: "self-signed after HashiCorp",
			auth: []*registry.AuthResult{signed(registry.SignerHashiCorp), signed(registry.SignerSelf)},
			wantText: "- Installed hashicorp/null v3.2.1 (signed by HashiCorp)\n" +
				"- Installed hashicorp/null v3.2.1 (self-signed, key ID " + keyID + ")\n" +
				"Partner and community providers are signed by their developers.\n" +
				"If you'd like to know more about provider signing, you can read about it here:\n" +
				"https://developer.hashicorp.com/terraform/cli/plugins/signing\n",
		},
	}
	p, v := nullProvider(t)
	p.Hostname = addrs.DefaultHostIn(flavour.Terraform) // shown without its host
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := func(view func(m *Env) View, color bool) string {
				var out bytes.Buffer
				m := &Env{Stdout: &out, Stderr: io.Discard, Flavour: flavour.Terraform, TofuVersion: "1.12.6", TerraformVersion: "1.15.9", Color: color}
				e := &initEvents{view: view(m), flavour: flavour.Terraform}
				out.Reset()
				ev := e.events()
				for _, a := range tt.auth {
					ev.Installed(p, v, a)
				}
				ev.ProvidersSigned()
				return timestampRE.ReplaceAllString(out.String(), `"@timestamp":"T"`)
			}
			plain := func(m *Env) View { return &plainView{m: m} }
			if diff := cmp.Diff(tt.wantText, run(plain, false)); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if tt.wantColor != "" {
				got := run(plain, true)
				if first, _, _ := bytes.Cut([]byte(got), []byte("\n")); string(first)+"\n" != tt.wantColor {
					t.Errorf("coloured line = %q, want %q", first, tt.wantColor)
				}
			}
			if tt.wantJSON != "" {
				jsonV := func(m *Env) View {
					v := newJSONView(m)
					v.now = func() time.Time { return time.Time{} }
					return v
				}
				if diff := cmp.Diff(tt.wantJSON, run(jsonV, false)); diff != "" {
					t.Errorf("JSON (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestOpenTofuInstalledLinesUnchanged: results without Terraform's
// classification keep OpenTofu's line and notice.
func TestOpenTofuInstalledLinesUnchanged(t *testing.T) {
	var out bytes.Buffer
	m := &Env{Stdout: &out, Stderr: io.Discard, TofuVersion: "1.12.6"}
	e := &initEvents{view: &plainView{m: m}}
	auth := &registry.AuthResult{}
	auth.Add("zh:00", registry.Disposition{ReportedByRegistry: true, SignedByKeyIDs: []string{"ABC"}})
	ev := e.events()
	p, v := nullProvider(t)
	ev.Installed(p, v, auth)
	ev.ProvidersSigned()
	want := "- Installed hashicorp/null v3.2.1 (signed, key ID ABC)\n" + signingNotice + "\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
}

func nullProvider(t *testing.T) (addrs.Provider, versions.Version) {
	t.Helper()
	p, err := addrs.ParseProviderSource("hashicorp/null")
	if err != nil {
		t.Fatal(err)
	}
	v, err := versions.ParseVersion("3.2.1")
	if err != nil {
		t.Fatal(err)
	}
	return p, v
}
