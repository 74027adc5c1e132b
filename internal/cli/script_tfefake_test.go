package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tfdeps/tfdeps/internal/tfefake"
)

// cmdTFEFake runs a fake HCP Terraform (internal/tfefake) for a script:
//
//	tfefake start ORG...   start it with these organizations: $TFE_HOST is
//	                       its address (127.0.0.1:PORT), SSL_CERT_FILE gains
//	                       its authority, and TF_CLI_CONFIG_FILE becomes a
//	                       copy of the script's CLI configuration with a
//	                       token for $TFE_HOST and for app.terraform.io,
//	                       whose tfe.v2 services a host block sends to the
//	                       fake
//	tfefake notoken        the same CLI configuration without the tokens
//	tfefake workspace ORG NAME [tag=TAG]... [binding=KEY:VALUE]...
//	                       [version=VERSION] [mode=MODE]
//	                       add a workspace
//	tfefake state ORG NAME FILE
//	                       make FILE's content the workspace's state
//	tfefake requests FILE  write the requests received so far to FILE, one
//	                       a line (METHOD PATH [BODY]), and forget them
//	tfefake workspaces ORG FILE
//	                       write the organization's workspaces to FILE, one
//	                       a line (NAME VERSION TAGS)
func cmdTFEFake(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! tfefake")
	}
	if len(args) == 0 {
		ts.Fatalf("usage: tfefake start ORG... | notoken | workspace ORG NAME [tag=T]... | state ORG NAME FILE | requests FILE | workspaces ORG FILE")
	}
	key := ts.Getenv("WORK")
	if args[0] == "start" {
		s := tfefake.New(args[1:]...)
		r, err := s.Start()
		ts.Check(err)
		ts.Defer(r.Close)
		tfeFakes.Store(key, &scriptTFE{r: r, cliConfig: readIfSet(ts, "TF_CLI_CONFIG_FILE")})
		pem := filepath.Join(key, ".tfefake.pem")
		ts.Check(os.WriteFile(pem, append([]byte(readIfSet(ts, "SSL_CERT_FILE")), r.CertPEM...), 0o644))
		ts.Setenv("SSL_CERT_FILE", pem)
		ts.Setenv("TFE_HOST", r.Host)
		writeTFEConfig(ts, true)
		return
	}
	v, ok := tfeFakes.Load(key)
	if !ok {
		ts.Fatalf("tfefake: not started")
	}
	r := v.(*scriptTFE).r
	switch {
	case args[0] == "notoken" && len(args) == 1:
		writeTFEConfig(ts, false)
	case args[0] == "workspace" && len(args) >= 3:
		w := tfefake.Workspace{Name: args[2]}
		for _, a := range args[3:] {
			k, val, _ := strings.Cut(a, "=")
			switch k {
			case "tag":
				w.Tags = append(w.Tags, val)
			case "version":
				w.TerraformVersion = val
			case "mode":
				w.ExecutionMode = val
			case "binding":
				bk, bv, _ := strings.Cut(val, ":")
				if w.TagBindings == nil {
					w.TagBindings = map[string]string{}
				}
				w.TagBindings[bk] = bv
			default:
				ts.Fatalf("tfefake workspace: unknown setting %q", a)
			}
		}
		_, err := r.AddWorkspace(args[1], w)
		ts.Check(err)
	case args[0] == "state" && len(args) == 4:
		b, err := os.ReadFile(ts.MkAbs(args[3]))
		ts.Check(err)
		ts.Check(r.SetState(args[1], args[2], b))
	case args[0] == "requests" && len(args) == 2:
		var b strings.Builder
		for _, q := range r.Requests() {
			b.WriteString(q.String() + "\n")
		}
		r.ResetRequests()
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
	case args[0] == "workspaces" && len(args) == 3:
		var b strings.Builder
		for _, n := range r.WorkspaceNames(args[1]) {
			w, _ := r.Workspace(args[1], n)
			fmt.Fprintf(&b, "%s %s %s\n", w.Name, w.TerraformVersion, strings.Join(w.Tags, ","))
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[2]), []byte(b.String()), 0o644))
	default:
		ts.Fatalf("tfefake: bad arguments %q", args)
	}
}

// writeTFEConfig writes the script's CLI configuration with the fake's
// host block, and its tokens when withTokens, and points
// TF_CLI_CONFIG_FILE at it.
func writeTFEConfig(ts *testscript.TestScript, withTokens bool) {
	v, _ := tfeFakes.Load(ts.Getenv("WORK"))
	st := v.(*scriptTFE)
	var b strings.Builder
	b.WriteString(st.cliConfig)
	fmt.Fprintf(&b, "\nhost \"app.terraform.io\" {\n  services = {\n    \"tfe.v2\"   = %q\n    \"tfe.v2.1\" = %q\n  }\n}\n", st.r.APIURL, st.r.APIURL)
	if withTokens {
		for _, h := range []string{st.r.Host, "app.terraform.io"} {
			fmt.Fprintf(&b, "\ncredentials %q {\n  token = %q\n}\n", h, st.r.Token)
		}
	}
	p := filepath.Join(ts.Getenv("WORK"), ".tfefake.tfrc")
	ts.Check(os.WriteFile(p, []byte(b.String()), 0o644))
	ts.Setenv("TF_CLI_CONFIG_FILE", p)
}

// readIfSet is the content of the file the variable names, or "".
func readIfSet(ts *testscript.TestScript, variable string) string {
	p := ts.Getenv(variable)
	if p == "" {
		return ""
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	return string(b)
}

// scriptTFE is a script's fake and the CLI configuration it extends.
type scriptTFE struct {
	r         *tfefake.Running
	cliConfig string
}

// tfeFakes are the running fakes, by script work directory.
var tfeFakes sync.Map

// tfeReferenceCmds are the commands of the reference scripts that run
// against the fake HCP Terraform.
var tfeReferenceCmds = map[string]func(*testscript.TestScript, bool, []string){
	"tfefake":  cmdTFEFake,
	"cmpjsonl": cmdCmpJSONLines,
}

// TestTFEReferenceScripts runs the scripts of testdata/reference_tfe: tofu
// init ($TFDEPS_REFERENCE_TOFU, as "exec tofu") initialises a remote
// backend or a cloud block against the fake HCP Terraform, tfdeps init
// does on the same configuration, and the scripts compare what they print
// and record. Skipped when TFDEPS_REFERENCE_TOFU is unset.
func TestTFEReferenceScripts(t *testing.T) {
	tofu := os.Getenv("TFDEPS_REFERENCE_TOFU")
	if tofu == "" {
		t.Skip("TFDEPS_REFERENCE_TOFU is not set")
	}
	runReferenceScripts(t, "reference_tfe", "tofu", tofu, nil, tfeReferenceCmds)
}

// TestTFETerraformReferenceScripts is TestTFEReferenceScripts with
// terraform ($TFDEPS_REFERENCE_TERRAFORM) and "tfdeps -compat=terraform",
// on the scripts of testdata/reference_tfe_terraform. Skipped when
// TFDEPS_REFERENCE_TERRAFORM is unset.
func TestTFETerraformReferenceScripts(t *testing.T) {
	terraform := os.Getenv("TFDEPS_REFERENCE_TERRAFORM")
	if terraform == "" {
		t.Skip("TFDEPS_REFERENCE_TERRAFORM is not set")
	}
	runReferenceScripts(t, "reference_tfe_terraform", "terraform", terraform, map[string]string{"CHECKPOINT_DISABLE": "1"}, tfeReferenceCmds)
}
