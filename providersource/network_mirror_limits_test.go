package providersource

import (
	"strings"
	"testing"
)

func TestMirrorDecodersRefuseDeepDocuments(t *testing.T) {
	deep := "{\"versions\": {\"1.0.0\": " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}}"
	const want = "invalid response content from mirror server: line 1, column 122: nesting deeper than 100 levels"
	if _, err := DecodeMirrorIndex(strings.NewReader(deep)); err == nil || err.Error() != want {
		t.Errorf("DecodeMirrorIndex error = %v, want %q", err, want)
	}
	deep = "{\"archives\": {\"linux_amd64\": " + strings.Repeat("{\"a\":", 5000) + "1" + strings.Repeat("}", 5000) + "}}"
	const wantVersion = "invalid response content from mirror server: line 1, column 520: nesting deeper than 100 levels"
	if _, err := DecodeMirrorVersion(strings.NewReader(deep)); err == nil || err.Error() != wantVersion {
		t.Errorf("DecodeMirrorVersion error = %v, want %q", err, wantVersion)
	}
}
