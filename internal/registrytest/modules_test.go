package registrytest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"sort"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ulikunitz/xz"
)

func moduleTestOptions() Options {
	files := map[string]string{"main.tf": "# m\n", "run.sh*": "#!/bin/sh\n"}
	return Options{Modules: []Module{{Namespace: "acme", Name: "net", System: "aws", Versions: []ModuleVersion{
		{Version: "1.0.0", Files: files},
		{Version: "1.1.0", Files: files, Location: JSONLocation, Prefix: "net-1.1.0"},
		{Version: "2.0.0", Files: files, Location: DirectLocation, UseCredentials: true, Format: "tar.gz"},
		{Version: "3.0.0", Files: files, ViaPage: true, RelativeLocation: true},
	}}}}
}

func TestModuleEndpoints(t *testing.T) {
	s := New(t, moduleTestOptions())
	c := s.Client()
	get := func(path string) *http.Response {
		t.Helper()
		resp, err := c.Get(s.URL() + path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	body := func(resp *http.Response) string {
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	versions := get("/v1/modules/acme/net/aws/versions")
	if diff := cmp.Diff(`{"modules":[{"source":"acme/net/aws","versions":[{"version":"1.0.0"},{"version":"1.1.0"},{"version":"2.0.0"},{"version":"3.0.0"}]}]}`, body(versions)); diff != "" {
		t.Errorf("versions (-want +got):\n%s", diff)
	}
	tests := []struct {
		version string
		status  int
		header  string
		body    string
	}{
		{"1.0.0", 204, s.URL() + "/modfiles/acme/net/aws/1.0.0.zip", ""},
		{"1.1.0", 200, "", `{"location":"` + s.URL() + `/modfiles/acme/net/aws/1.1.0.zip//net-1.1.0"}`},
		{"2.0.0", 200, "", `{"location":"` + s.URL() + `/modfiles/acme/net/aws/2.0.0.tar.gz","use_registry_credentials":true}`},
		{"3.0.0", 204, "/modpage/acme/net/aws/3.0.0", ""},
		{"9.9.9", 404, "", "404 page not found\n"},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			resp := get("/v1/modules/acme/net/aws/" + tt.version + "/download")
			got := []any{resp.StatusCode, resp.Header.Get("X-Terraform-Get"), body(resp)}
			if diff := cmp.Diff([]any{tt.status, tt.header, tt.body}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	page := get("/modpage/acme/net/aws/3.0.0?terraform-get=1")
	if got := page.Header.Get("X-Terraform-Get"); got != s.URL()+"/modfiles/acme/net/aws/3.0.0.zip" {
		t.Errorf("page X-Terraform-Get = %q", got)
	}
	if got := get("/modpage/acme/net/aws/3.0.0").StatusCode; got != 404 {
		t.Errorf("page without terraform-get=1: %d", got)
	}
	if n := s.CountPath("/v1/modules/acme/net/aws/versions"); n != 1 {
		t.Errorf("versions requests = %d", n)
	}
	if n := s.Count(ModuleDownload); n != 5 {
		t.Errorf("download requests = %d", n)
	}
	s.Inject(ModuleArchive, Fault{Kind: Status, Status: 503, Times: 1})
	if got := get("/modfiles/acme/net/aws/1.0.0.zip").StatusCode; got != 503 {
		t.Errorf("fault: %d", got)
	}
	if got := get("/modfiles/acme/net/aws/1.0.0.zip").StatusCode; got != 200 {
		t.Errorf("after fault: %d", got)
	}
}

func TestModuleJSON(t *testing.T) {
	var m Module
	src := `{"namespace":"a","name":"b","system":"c","versions":[{"version":"1.0.0","location":"direct","use_credentials":true,"files":{"main.tf":""}}]}`
	if err := json.Unmarshal([]byte(src), &m); err != nil {
		t.Fatal(err)
	}
	if v := m.Versions[0]; v.Location != DirectLocation || !v.UseCredentials || m.System != "c" {
		t.Errorf("decoded %+v", m)
	}
	if err := json.Unmarshal([]byte(`{"versions":[{"location":"ftp"}]}`), &m); err == nil {
		t.Error("unknown location kind must fail")
	}
}

func TestBuildModuleArchive(t *testing.T) {
	files := map[string]string{"main.tf": "# m\n", "sub/x.tf": "# x\n", "run.sh*": "#!/bin/sh\n"}
	want := []string{"top/main.tf 644 # m\n", "top/run.sh 755 #!/bin/sh\n", "top/sub/x.tf 644 # x\n"}
	for _, format := range []string{"zip", "tar.gz", "tgz", "tar.xz", "tar.bz2"} {
		t.Run(format, func(t *testing.T) {
			if format == "tar.bz2" {
				if _, err := exec.LookPath("bzip2"); err != nil {
					t.Skip("no bzip2 command")
				}
			}
			b, err := BuildModuleArchive(format, "top", files)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := BuildModuleArchive(format, "top", files)
			if !bytes.Equal(b, again) {
				t.Error("archive is not deterministic")
			}
			if diff := cmp.Diff(want, listArchive(t, format, b)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// listArchive lists "NAME MODE CONTENT" for the regular files of an archive.
func listArchive(t *testing.T, format string, b []byte) []string {
	t.Helper()
	var out []string
	if format == "zip" {
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range zr.File {
			rc, _ := f.Open()
			c, _ := io.ReadAll(rc)
			rc.Close()
			out = append(out, f.Name+" "+modeString(int64(f.Mode().Perm()))+" "+string(c))
		}
		sort.Strings(out)
		return out
	}
	var r io.Reader
	var err error
	switch format {
	case "tar.gz", "tgz":
		r, err = gzip.NewReader(bytes.NewReader(b))
	case "tar.xz":
		r, err = xz.NewReader(bytes.NewReader(b))
	case "tar.bz2":
		r = bzip2.NewReader(bytes.NewReader(b))
	}
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		c, _ := io.ReadAll(tr)
		out = append(out, h.Name+" "+modeString(h.Mode)+" "+string(c))
	}
	sort.Strings(out)
	return out
}

func modeString(m int64) string { return strconv.FormatInt(m, 8) }
