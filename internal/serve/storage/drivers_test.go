package storage

import (
	"context"
	"strings"
	"testing"
)

// Every scheme the README names has a driver linked in: opening a bucket
// of each fails, if at all, for want of credentials or a reachable
// service, never because gocloud knows no driver for the scheme.
func TestDriversLinked(t *testing.T) {
	t.Setenv("AZURE_STORAGE_ACCOUNT", "tfdepstest")
	t.Setenv("AZURE_STORAGE_KEY", "dGZkZXBz") // base64, fake
	for _, loc := range []string{"mem://", "file://" + t.TempDir(), "s3://bucket?region=us-east-1", "azblob://container"} {
		t.Run(strings.SplitN(loc, ":", 2)[0], func(t *testing.T) {
			st, err := Open(context.Background(), loc)
			if err != nil && strings.Contains(err.Error(), "no driver registered") {
				t.Fatalf("Open(%q): %v", loc, err)
			}
			if st != nil {
				st.Close()
			}
		})
	}
}
