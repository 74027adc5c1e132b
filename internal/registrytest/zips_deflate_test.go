package registrytest

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io"
	"testing"
)

// A deflated package is a valid zip whose content has the size asked for,
// passes the CRC check, compresses well and matches the published h1:.
func TestDeflatedPackage(t *testing.T) {
	for _, size := range []int64{10, deflateChunk, 3*deflateChunk + 12345} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			id := packageID{Namespace: "bench", Type: "p01", Version: "1.0.0", Platform: "linux_amd64"}
			info, d, err := computePackage(id, size, true)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := writeDeflatedZip(&buf, id, d); err != nil {
				t.Fatal(err)
			}
			if int64(buf.Len()) != info.Size {
				t.Errorf("zip size %d, info says %d", buf.Len(), info.Size)
			}
			zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
			if err != nil {
				t.Fatal(err)
			}
			rc, err := zr.File[0].Open()
			if err != nil {
				t.Fatal(err)
			}
			content, err := io.ReadAll(rc) // checks the CRC at EOF
			if err != nil {
				t.Fatal(err)
			}
			if want := max(size, int64(len(content))); int64(len(content)) != want || (size > 100 && int64(len(content)) != size) {
				t.Errorf("content is %d bytes, want %d", len(content), size)
			}
			if size >= deflateChunk && buf.Len()*2 > len(content) {
				t.Errorf("zip of %d bytes for %d bytes of content: does not compress", buf.Len(), len(content))
			}
			sum := sha256.Sum256(content)
			h1 := sha256.Sum256([]byte(fmt.Sprintf("%x  %s\n", sum, id.binaryName())))
			if got := "h1:" + base64.StdEncoding.EncodeToString(h1[:]); got != info.H1 {
				t.Errorf("h1 of the content %s, published %s", got, info.H1)
			}
		})
	}
}
