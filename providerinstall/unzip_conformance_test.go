package providerinstall

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/hashes"
)

// conformanceHashesDir holds packages with the results OpenTofu gave for
// them (see its README).
const conformanceHashesDir = "../../../shared/conformance/hashes"

type hashCase struct {
	Zip              string  `json:"zip"`
	ExtractedH1      *string `json:"extracted_h1"`
	ExtractError     *string `json:"extract_error"`
	ExtractedH1Error *string `json:"extracted_h1_error"`
}

func TestExtractConformance(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join(conformanceHashesDir, "*", "expected.json"))
	if err != nil || len(dirs) == 0 {
		t.Skipf("conformance data not found at %s", conformanceHashesDir)
	}
	for _, expectedPath := range dirs {
		dir := filepath.Dir(expectedPath)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var c hashCase
			b, err := os.ReadFile(expectedPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &c); err != nil {
				t.Fatal(err)
			}
			zipPath := filepath.Join(dir, c.Zip)
			target := filepath.Join(t.TempDir(), "linux_amd64")
			got, err := ExtractFile(context.Background(), zipPath, target, ExtractOptions{})
			checkConformance(t, c, zipPath, target, got, err)
			hashed, hashErr := HashArchiveFile(context.Background(), zipPath, ExtractOptions{})
			if err != nil {
				if hashErr == nil {
					t.Errorf("HashArchiveFile succeeded where extraction failed: %v", err)
				}
				return
			}
			checkHashedAgrees(t, hashed, hashErr, got, target)
		})
	}
}

func checkConformance(t *testing.T, c hashCase, zipPath, target string, got hashes.Hash, err error) {
	t.Helper()
	wantErr := c.ExtractError
	if wantErr == nil {
		wantErr = c.ExtractedH1Error
	}
	switch {
	case wantErr != nil:
		want := strings.ReplaceAll(*wantErr, "<zip path>", zipPath)
		if err == nil || err.Error() != want {
			t.Errorf("error = %v, want %q", err, want)
		}
		if _, statErr := os.Lstat(target); statErr == nil {
			t.Errorf("target %s exists after a failed extraction", target)
		}
	case err != nil:
		t.Fatalf("ExtractFile: %v", err)
	case c.ExtractedH1 != nil:
		if string(got) != *c.ExtractedH1 {
			t.Errorf("h1 = %s, want %s", got, *c.ExtractedH1)
		}
		dirH1, err := hashes.HashDir(target)
		if err != nil {
			t.Fatal(err)
		}
		if dirH1 != got {
			t.Errorf("HashDir of the result = %s, extraction said %s", dirH1, got)
		}
	}
}
