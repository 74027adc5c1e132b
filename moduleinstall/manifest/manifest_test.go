package manifest

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/conformance"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

// offline parses sources without any network access.
var offline = moduleaddr.Parser{HTTPClient: &http.Client{Transport: refuse{}}}

type refuse struct{}

func (refuse) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in tests")
}

func TestParse(t *testing.T) {
	tests := []struct {
		name, src string
		want      Manifest
		wantErr   string
	}{
		{name: "zero bytes", src: "", want: Manifest{}},
		{name: "records", src: `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"a","Source":"acme/net/aws","Version":"v1.0","Dir":".terraform/modules/a","Extra":1}]}`,
			want: Manifest{"": {Dir: "."}, "a": {Key: "a", Source: "registry.opentofu.org/acme/net/aws", Version: "1.0.0", Dir: ".terraform/modules/a"}}},
		{name: "source renormalised", src: `{"Modules":[{"Key":"l","Source":"./x//y/","Dir":"x/y"},{"Key":"g","Source":"github.com/a/b//c?ref=1","Dir":"g"}]}`,
			want: Manifest{"l": {Key: "l", Source: "./x/y", Dir: "x/y"}, "g": {Key: "g", Source: "git::https://github.com/a/b.git//c?ref=1", Dir: "g"}}},
		{name: "unparseable source kept", src: `{"Modules":[{"Key":"x","Source":"not a source","Dir":"x"}]}`,
			want: Manifest{"x": {Key: "x", Source: "not a source", Dir: "x"}}},
		{name: "null modules", src: `{"Modules":null}`, want: Manifest{}},
		{name: "bad version", src: `{"Modules":[{"Key":"a","Source":"acme/net/aws","Version":"one","Dir":"a"}]}`,
			wantErr: `invalid version "one" for a: malformed version: one`},
		{name: "duplicate", src: `{"Modules":[{"Key":"a","Dir":"a"},{"Key":"a","Dir":"b"}]}`,
			wantErr: "snapshot file contains two records for path a"},
		{name: "not json", src: `{"Modules":[`, wantErr: "error unmarshalling snapshot: unexpected end of JSON input"},
		// A value of the wrong kind: encoding/json names the Go types, so
		// tfdeps names OpenTofu's (observed with tofu 1.12.6).
		{name: "wrong type", src: `{"Modules":{}}`, wantErr: "error unmarshalling snapshot: json: cannot unmarshal object into Go struct field manifestSnapshotFile.Modules of type []modsdir.Record"},
		{name: "record not object", src: `{"Modules":[5]}`, wantErr: "error unmarshalling snapshot: json: cannot unmarshal number into Go struct field manifestSnapshotFile.Modules of type modsdir.Record"},
		{name: "key not string", src: `{"Modules":[{"Key":5}]}`, wantErr: "error unmarshalling snapshot: json: cannot unmarshal number into Go struct field Record.Modules.Key of type string"},
		{name: "version not string", src: `{"Modules":[{"Key":"","Version":true}]}`, wantErr: "error unmarshalling snapshot: json: cannot unmarshal bool into Go struct field Record.Modules.Version of type string"},
		{name: "top-level array", src: `[]`, wantErr: "error unmarshalling snapshot: json: cannot unmarshal array into Go value of type modsdir.manifestSnapshotFile"},
		{name: "top-level number", src: `5`, wantErr: "error unmarshalling snapshot: json: cannot unmarshal number into Go value of type modsdir.manifestSnapshotFile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.src))
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff(tt.wantErr, gotErr); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("manifest (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadMissingIsEmpty(t *testing.T) {
	got, err := Read(filepath.Join(t.TempDir(), "modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Manifest{}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestReadDirectoryIsError(t *testing.T) {
	if _, err := Read(t.TempDir()); err == nil {
		t.Error("reading a directory must fail")
	}
}

func TestMarshal(t *testing.T) {
	m := Manifest{
		"shallow": {Key: "shallow", Source: "git::file:///srv/net.git?ref=v1&depth=1", Dir: ".terraform/modules/shallow"},
		"":        {Dir: "."},
		"app":     {Key: "app", Source: "registry.opentofu.org/acme/app/aws", Version: "1.1.0", Dir: ".terraform/modules/app"},
		"esc":     {Key: "esc", Source: "../x<y>", Dir: ""},
	}
	got, err := m.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"app","Source":"registry.opentofu.org/acme/app/aws","Version":"1.1.0","Dir":".terraform/modules/app"},{"Key":"esc","Source":"../x\u003cy\u003e","Dir":""},{"Key":"shallow","Source":"git::file:///srv/net.git?ref=v1\u0026depth=1","Dir":".terraform/modules/shallow"}]}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	empty, _ := Manifest{}.Marshal()
	if string(empty) != `{"Modules":null}` {
		t.Errorf("empty manifest = %s", empty)
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	m := Manifest{"": {Dir: "."}}
	if err := os.WriteFile(path, []byte("old contents"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := m.Write(path); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"Modules":[{"Key":"","Source":"","Dir":"."}]}`, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	assertOnly(t, dir, FileName)
}

func TestWriteFailureLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, FileName)
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(target, "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := (Manifest{"": {Dir: "."}}).Write(target); err == nil {
		t.Fatal("renaming over a non-empty directory must fail")
	}
	assertOnly(t, dir, FileName)
}

func TestWriteMissingDirNamesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope", FileName)
	err := (Manifest{}).Write(path)
	if err == nil || !strings.HasPrefix(err.Error(), "open "+path+": ") {
		t.Errorf("got %v, want an error naming %s", err, path)
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if diff := cmp.Diff(names, got); diff != "" {
		t.Errorf("directory entries (-want +got):\n%s", diff)
	}
}

// TestConformanceRoundTrip reads every modules.json OpenTofu wrote in the
// shared conformance cases and checks that writing it gives the same bytes.
func TestConformanceRoundTrip(t *testing.T) {
	root := conformance.Dir(t, "modules")
	files, err := filepath.Glob(filepath.Join(root, "*", "expected-modules.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no expected-modules.json under %s", root)
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			want, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(want)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), FileName)
			if err := m.Write(out); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("(-read +written):\n%s", diff)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"a","Source":"acme/net/aws","Version":"1.0.0","Dir":"a"}]}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := ParseWith(src, offline)
		if err != nil {
			return
		}
		out, err := m.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseWith(out, offline); err != nil {
			t.Fatalf("written manifest does not read back: %v\n%s", err, out)
		}
	})
}
