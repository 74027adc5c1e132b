package providersource

import (
	"strings"
	"testing"
)

// TestMirrorDecodersTypeErrors: a document of the wrong shape fails with
// OpenTofu's text, which names its decoding types (observed from tofu
// v1.12.6 serving each document from a network mirror).
func TestMirrorDecodersTypeErrors(t *testing.T) {
	const prefix = "invalid response content from mirror server: json: cannot unmarshal "
	tests := []struct {
		name    string
		version bool // VERSION.json, else index.json
		doc     string
		want    string
	}{
		{"index array", false, `[]`, "array into Go value of type getproviders.ResponseBody"},
		{"index string", false, `"x"`, "string into Go value of type getproviders.ResponseBody"},
		{"index versions array", false, `{"versions": []}`, "array into Go struct field ResponseBody.versions of type map[string]struct {}"},
		{"index version number", false, `{"versions": {"3.2.1": 5}}`, "number into Go struct field ResponseBody.versions of type struct {}"},
		{"version array", true, `[]`, "array into Go value of type getproviders.ResponseBody"},
		{"version archives array", true, `{"archives": []}`, "array into Go struct field ResponseBody.archives of type map[string]*getproviders.ResponseArchiveMeta"},
		{"version archive number", true, `{"archives": {"linux_amd64": 5}}`, "number into Go struct field ResponseBody.archives of type getproviders.ResponseArchiveMeta"},
		{"version url number", true, `{"archives": {"linux_amd64": {"url": 5}}}`, "number into Go struct field ResponseArchiveMeta.archives.url of type string"},
		{"version hashes string", true, `{"archives": {"linux_amd64": {"url": "x.zip", "hashes": "h1:x"}}}`, "string into Go struct field ResponseArchiveMeta.archives.Hashes of type []string"},
		{"version hash number", true, `{"archives": {"linux_amd64": {"URL": "x.zip", "HASHES": [5]}}}`, "number into Go struct field ResponseArchiveMeta.archives.Hashes of type string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.version {
				_, err = DecodeMirrorVersion(strings.NewReader(tt.doc))
			} else {
				_, err = DecodeMirrorIndex(strings.NewReader(tt.doc))
			}
			if want := prefix + tt.want; err == nil || err.Error() != want {
				t.Errorf("got %v\nwant %s", err, want)
			}
		})
	}
}

// TestDecodeMirrorVersionFields: url and hashes are matched without regard
// to case, as encoding/json does.
func TestDecodeMirrorVersionFields(t *testing.T) {
	got, err := DecodeMirrorVersion(strings.NewReader(`{"archives": {"linux_amd64": {"URL": "a.zip", "Hashes": ["h1:x"]}, "darwin_arm64": null}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := got["linux_amd64"]
	if a == nil || a.URL != "a.zip" || len(a.Hashes) != 1 || a.Hashes[0] != "h1:x" {
		t.Errorf("linux_amd64 = %+v", a)
	}
	if a, ok := got["darwin_arm64"]; !ok || a != nil {
		t.Errorf("darwin_arm64 = %+v, %v; want a nil entry", a, ok)
	}
}
