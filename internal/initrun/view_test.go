package initrun

import (
	"bytes"
	"io"
	"regexp"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestJSONView pins OpenTofu's machine-readable UI: the version line
// first, keys sorted, texts without "- " and with line breaks joined,
// diagnostics nested with range and snippet (an empty range widened by one
// byte); tfdeps' event data under "tfdeps".
func TestJSONView(t *testing.T) {
	var out bytes.Buffer
	m := &Env{Stdout: &out, Stderr: io.Discard, TofuVersion: "1.12.6"}
	v := newJSONView(m)
	v.now = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC) }
	out.Reset()

	v.Event("init_providers", "", "", initProvidersText)
	v.Event("installed", "hashicorp/null", "3.2.1", "- Installed hashicorp/null v3.2.1 (signed, key ID ABC)")
	v.Message("blank", "", false)
	v.Message("init_next_steps", initNextStepsTextIn(flavour.OpenTofu), false)
	src := "resource \"a\" \"b\" {\n}\n"
	f, _ := hclparse.NewParser().ParseHCL([]byte(src), "main.tf")
	v.keepSource(f, "main.tf")
	v.Diagnostics(hcl.Diagnostics{{
		Severity: hcl.DiagError, Summary: "Bad", Detail: "Why.",
		Subject: &hcl.Range{Filename: "main.tf", Start: hcl.Pos{Line: 1, Column: 10, Byte: 9}, End: hcl.Pos{Line: 1, Column: 10, Byte: 9}},
	}})

	ts := `"@timestamp":"2026-01-02T03:04:05.000006Z"`
	want := `{"@level":"info","@message":"Initializing provider plugins...","@module":"tofu.ui",` + ts + `,"tfdeps":{"event":"init_providers"}}` + "\n" +
		`{"@level":"info","@message":"Installed hashicorp/null v3.2.1 (signed, key ID ABC)","@module":"tofu.ui",` + ts + `,"tfdeps":{"event":"installed","provider":"hashicorp/null","version":"3.2.1"}}` + "\n" +
		`{"@level":"info","@message":"You may now begin working with OpenTofu. Try running \"tofu plan\" to see any changes that are required for your infrastructure. All OpenTofu commands should now work. If you ever set or change modules or backend configuration for OpenTofu, rerun this command to reinitialize your working directory. If you forget, other commands will detect it and remind you to do so if necessary.","@module":"tofu.ui",` + ts + `,"tfdeps":{"event":"init_next_steps"}}` + "\n" +
		`{"@level":"error","@message":"Error: Bad","@module":"tofu.ui",` + ts + `,"diagnostic":{"severity":"error","summary":"Bad","detail":"Why.","range":{"filename":"main.tf","start":{"line":1,"column":10,"byte":9},"end":{"line":1,"column":11,"byte":10}},"snippet":{"context":"resource \"a\" \"b\"","code":"resource \"a\" \"b\" {","start_line":1,"highlight_start_offset":9,"highlight_end_offset":10,"values":[]}},"type":"diagnostic"}` + "\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("JSON lines (-want +got):\n%s", diff)
	}
}

func TestJSONViewVersionLine(t *testing.T) {
	var out bytes.Buffer
	newJSONView(&Env{Stdout: &out, TofuVersion: "1.12.6"})
	got := timestampRE.ReplaceAllString(out.String(), `"@timestamp":"T"`)
	want := `{"@level":"info","@message":"OpenTofu 1.12.6","@module":"tofu.ui","@timestamp":"T","tofu":"1.12.6","type":"version","ui":"1.2"}` + "\n"
	if got != want {
		t.Errorf("version line = %s, want %s", got, want)
	}
}

var timestampRE = regexp.MustCompile(`"@timestamp":"[^"]*"`)

// TestViewText: the generic path prints the human text in the human views
// and OpenTofu's JSON text in the JSON view.
func TestViewText(t *testing.T) {
	var plain, js bytes.Buffer
	(&plainView{m: &Env{Stdout: &plain}}).Text("info", "module_installed", "- net in modules/net", "installing net in modules/net")
	v := newJSONView(&Env{Stdout: &js, TofuVersion: "1.12.6"})
	js.Reset()
	v.Text("info", "module_installed", "- net in modules/net", "installing net in modules/net")
	if got, want := plain.String(), "- net in modules/net\n"; got != want {
		t.Errorf("plain = %q, want %q", got, want)
	}
	got := timestampRE.ReplaceAllString(js.String(), `"@timestamp":"T"`)
	want := `{"@level":"info","@message":"installing net in modules/net","@module":"tofu.ui","@timestamp":"T","tfdeps":{"event":"module_installed"}}` + "\n"
	if got != want {
		t.Errorf("json = %s, want %s", got, want)
	}
}
