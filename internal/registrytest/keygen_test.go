package registrytest

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

var regenerateKeys = flag.Bool("regenerate-keys", false, "write the missing test signing keys to testdata/")

// TestRegenerateKeys writes the committed test keys whose files are
// missing (delete a file to renew that key). It only runs with
// -regenerate-keys; the keys are committed so that signatures are stable.
func TestRegenerateKeys(t *testing.T) {
	if !*regenerateKeys {
		t.Skip("run with -regenerate-keys to write new test keys")
	}
	keys := []struct {
		file     string
		name     string
		created  time.Time
		lifetime uint32
	}{
		{"signing-key.asc", "tfdeps test signing key", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{"expired-key.asc", "tfdeps expired test key", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), 86400},
		{"other-key.asc", "tfdeps unknown test key", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{"hashicorp-test-key.asc", "tfdeps test stand-in for HashiCorp's release key", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{"partners-test-key.asc", "tfdeps test stand-in for HashiCorp's partner key", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), 0},
		{"partner-key.asc", "tfdeps test partner key", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), 0},
	}
	for _, k := range keys {
		if _, err := os.Stat(filepath.Join("testdata", k.file)); err == nil {
			continue
		}
		created := k.created
		cfg := &packet.Config{
			Algorithm:       packet.PubKeyAlgoRSA,
			RSABits:         2048,
			Time:            func() time.Time { return created },
			KeyLifetimeSecs: k.lifetime,
		}
		e, err := openpgp.NewEntity(k.name, "", "test@tfdeps.invalid", cfg)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		w, err := armor.Encode(&buf, openpgp.PrivateKeyType, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.SerializePrivate(w, cfg); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		buf.WriteString("\n")
		if err := os.WriteFile(filepath.Join("testdata", k.file), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
