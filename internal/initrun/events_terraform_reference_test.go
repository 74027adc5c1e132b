package initrun

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
	"github.com/tfdeps/tfdeps/workdir"
)

// terraformSigningNotice is the note Terraform prints after a partner's
// or a self-signed install, without the blank line its message starts
// with (Terraform trims it).
var terraformSigningNotice = strings.TrimPrefix(signingNoticeIn(flavour.Terraform), "\n")

// referenceSigners are the providers of TestReferenceTerraformSignatures,
// each signed with another test key. Real Terraform trusts only
// HashiCorp's real keys, so the stand-in HashiCorp key gives "self-signed"
// and the partner key's trust signature does not verify: the reference
// can show the self-signed and failure paths, not the HashiCorp and
// partner successes (those are covered by the registry package's tests).
var referenceSigners = map[string]registrytest.Key{
	"official":  registrytest.HashiCorpTestKey,
	"partner":   registrytest.PartnerKey,
	"community": registrytest.TestKey,
	"expired":   registrytest.ExpiredKey,
	"unknown":   registrytest.OtherKey,
}

// TestReferenceTerraformSignatures runs the reference Terraform
// ($TFDEPS_REFERENCE_TERRAFORM) init, in text and JSON, against the fake
// registry serving Terraform-style responses as registry.terraform.io, and
// checks that tfdeps' Terraform flavour authenticates the same packages
// and words each result and error as Terraform prints it (text with and
// without colour, and JSON).
func TestReferenceTerraformSignatures(t *testing.T) {
	tf := os.Getenv("TFDEPS_REFERENCE_TERRAFORM")
	if tf == "" {
		t.Skip("TFDEPS_REFERENCE_TERRAFORM is not set")
	}
	opts := registrytest.Options{TerraformStyle: true}
	var names []string
	for name, key := range referenceSigners {
		names = append(names, name)
		opts.Providers = append(opts.Providers, registrytest.Provider{
			Namespace: "acme", Type: name, SignWith: key,
			Versions: []registrytest.Version{{Version: "1.0.0"}},
		})
	}
	sort.Strings(names)
	home := t.TempDir()
	sa, err := registrytest.StartStandalone(home, opts, "registry.terraform.io")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sa.Close)

	var cfg strings.Builder
	cfg.WriteString("terraform {\n  required_providers {\n")
	for _, name := range names {
		cfg.WriteString("    " + name + " = { source = \"acme/" + name + "\" }\n")
	}
	cfg.WriteString("  }\n}\n")

	textOut, textErr := runTerraformInit(t, tf, home, sa, cfg.String(), "-no-color")
	jsonOut, _ := runTerraformInit(t, tf, home, sa, cfg.String(), "-json")
	colorOut, _ := runTerraformInit(t, tf, home, sa, cfg.String())

	wantText, wantJSON, wantColor := tfdepsTerraformLines(t, sa, names)
	if diff := cmp.Diff(wantColor, sortedCopy(grepLines(colorOut, "- Installed "))); diff != "" {
		t.Errorf("coloured lines (-tfdeps +terraform):\n%s", diff)
	}
	gotText := grepLines(textOut, "- Installed ")
	gotText = append(gotText, grepLines(unwrapParagraphs(textErr), "Error while installing ")...)
	if diff := cmp.Diff(wantText, sortedCopy(gotText)); diff != "" {
		t.Errorf("text lines (-tfdeps +terraform):\n%s\nterraform stdout:\n%s\nstderr:\n%s", diff, textOut, textErr)
	}
	var gotJSON []string
	for _, msg := range jsonMessages(t, jsonOut) {
		if strings.HasPrefix(msg, "Installed provider version: ") || strings.Contains(msg, "Error while installing ") {
			gotJSON = append(gotJSON, msg)
		}
		if msg == terraformSigningNotice {
			gotJSON = append(gotJSON, "NOTICE")
		}
	}
	if diff := cmp.Diff(wantJSON, sortedCopy(gotJSON)); diff != "" {
		t.Errorf("JSON messages (-tfdeps +terraform):\n%s\nterraform -json output:\n%s", diff, jsonOut)
	}
	if !strings.Contains(textOut, "\n"+terraformSigningNotice+"\n") {
		t.Errorf("terraform init printed no partner-and-community note as tfdeps words it:\n%s", textOut)
	}
}

// runTerraformInit runs terraform init in a new directory holding main.tf,
// with the fake registry's CLI configuration and certificate; it returns
// stdout and stderr (Terraform fails for the providers whose signature is
// rejected).
func runTerraformInit(t *testing.T, tf, home string, sa *registrytest.Standalone, mainTF string, args ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(mainTF), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tf, append([]string{"init", "-input=false"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION="}, sa.Env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("running %s: %v", tf, err)
		}
	}
	return stdout.String(), stderr.String()
}

// tfdepsTerraformLines authenticates every provider with the Terraform
// flavour (HashiCorp's real keys, as the reference binary) and returns the
// text lines and JSON messages tfdeps prints for them, sorted; "NOTICE"
// stands for the partner-and-community note when one is due.
func tfdepsTerraformLines(t *testing.T, sa *registrytest.Standalone, names []string) (text, jsonMsgs, colored []string) {
	t.Helper()
	client := registry.New(registry.Settings{
		Transport:    sa.Transport(),
		Getenv:       func(string) string { return "" },
		Environ:      func() []string { return nil },
		Flavour:      flavour.Terraform,
		HostServices: map[string]map[string]any{"registry.terraform.io": {"providers.v1": sa.ProvidersBaseURL()}},
	})
	v, err := versions.ParseVersion("1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	platform := addrs.Platform{OS: "linux", Arch: "amd64"}
	notice := false
	for _, name := range names {
		p, err := addrs.ParseProviderSource("registry.terraform.io/acme/" + name)
		if err != nil {
			t.Fatal(err)
		}
		meta, err := client.FindPackage(t.Context(), p, v, platform)
		if err != nil {
			t.Fatalf("FindPackage %s: %v", p, err)
		}
		a, res, err := client.FetchPackage(t.Context(), meta, t.TempDir(), nil)
		if err != nil {
			detail := workdir.FetchFailure(flavour.Terraform, p, v, err, nil, "").Detail
			text = append(text, detail)
			jsonMsgs = append(jsonMsgs, detail)
			continue
		}
		a.Remove()
		human, machine := terraformInstalledTexts(p, v, res, false)
		text = append(text, human)
		human, _ = terraformInstalledTexts(p, v, res, true)
		colored = append(colored, human)
		jsonMsgs = append(jsonMsgs, machine)
		notice = notice || res.ThirdPartySigned()
	}
	if notice {
		jsonMsgs = append(jsonMsgs, "NOTICE")
	}
	return sortedCopy(text), sortedCopy(jsonMsgs), sortedCopy(colored)
}

// unwrapParagraphs undoes Terraform's word wrapping of diagnostic texts
// (at 78 columns without a terminal): the lines of each paragraph are
// joined with spaces.
func unwrapParagraphs(s string) string {
	paras := strings.Split(s, "\n\n")
	for i, p := range paras {
		paras[i] = strings.ReplaceAll(p, "\n", " ")
	}
	return strings.Join(paras, "\n")
}

func grepLines(s, prefix string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, prefix) {
			out = append(out, line)
		}
	}
	return out
}

// jsonMessages returns the @message of each JSON line, and of each
// diagnostic its detail.
func jsonMessages(t *testing.T, out string) []string {
	t.Helper()
	var msgs []string
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Message    string `json:"@message"`
			Diagnostic *struct {
				Detail string `json:"detail"`
			} `json:"diagnostic"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("terraform -json printed %q: %v", sc.Text(), err)
		}
		msgs = append(msgs, line.Message)
		if line.Diagnostic != nil {
			msgs = append(msgs, line.Diagnostic.Detail)
		}
	}
	return msgs
}

func sortedCopy(ss []string) []string {
	out := append([]string(nil), ss...)
	sort.Strings(out)
	return out
}

// TestReferenceTerraformSignatureFaults: for a bad signature, a tampered
// checksum list and a tampered archive, tfdeps' Terraform flavour fails
// with the error terraform init prints.
func TestReferenceTerraformSignatureFaults(t *testing.T) {
	tf := os.Getenv("TFDEPS_REFERENCE_TERRAFORM")
	if tf == "" {
		t.Skip("TFDEPS_REFERENCE_TERRAFORM is not set")
	}
	tests := []struct {
		name     string
		endpoint registrytest.Endpoint
		kind     registrytest.FaultKind
	}{
		{"bad signature", registrytest.Signature, registrytest.BadSignature},
		{"tampered checksum list", registrytest.SHA256SUMS, registrytest.Tamper},
		{"tampered archive", registrytest.Archive, registrytest.Tamper},
	}
	const mainTF = "terraform {\n  required_providers {\n    community = { source = \"acme/community\" }\n  }\n}\n"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			sa, err := registrytest.StartStandalone(home, registrytest.Options{TerraformStyle: true, Providers: []registrytest.Provider{{
				Namespace: "acme", Type: "community", Versions: []registrytest.Version{{Version: "1.0.0"}},
			}}}, "registry.terraform.io")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(sa.Close)
			sa.Inject(tt.endpoint, registrytest.Fault{Kind: tt.kind})
			_, stderr := runTerraformInit(t, tf, home, sa, mainTF, "-no-color")
			got := grepLines(unwrapParagraphs(stderr), "Error while installing ")
			want, _, _ := tfdepsTerraformLines(t, sa, []string{"community"})
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("errors (-tfdeps +terraform):\n%s\nterraform stderr:\n%s", diff, stderr)
			}
		})
	}
}
