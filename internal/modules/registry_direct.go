package modules

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"

	getter "github.com/hashicorp/go-getter"
)

// DownloadDirect implements Registry: a registry-hosted archive, sniffed
// by content (zip, gzip, xz or bzip2 tar), extracted into dir
// (modules.md §3.5).
func (r *HTTPRegistry) DownloadDirect(ctx context.Context, loc Location, dir string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc.Package, nil)
	if err != nil {
		return err
	}
	for k, v := range r.client.Settings().Headers(true) {
		req.Header[k] = v
	}
	req.Header.Set("Accept", "application/zip, application/x-tar; *;q=0.1")
	req.Header.Set("Accept-Encoding", "identity, gzip, *;q=0.1")
	if loc.UseCredentials {
		if token, err := r.client.Credentials().Token(loc.Module.Host); err == nil && token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
	}
	resp, err := r.plain.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("failed to download module package: server returned %s", resp.Status)
	}
	tmp, err := os.CreateTemp("", "tfdeps-module-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	n, err := io.Copy(tmp, io.LimitReader(resp.Body, MaxPackageSize+1))
	if err != nil {
		return err
	}
	if n > MaxPackageSize {
		return fmt.Errorf("module package is larger than %d bytes", int64(MaxPackageSize))
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return fmt.Errorf("server promised %d bytes, but returned %d bytes", resp.ContentLength, n)
	}
	head := make([]byte, 6)
	if _, err := tmp.ReadAt(head, 0); err != nil && err != io.EOF {
		return err
	}
	d := sniffArchive(head)
	if d == nil {
		return fmt.Errorf("module package is not zip archive, or tar archive with gz, xz, or bzip2 compression")
	}
	if err := d.Decompress(dir, tmp.Name(), true, 0); err != nil {
		return fmt.Errorf("extracting package archive: %s", err)
	}
	return nil
}

func sniffArchive(head []byte) getter.Decompressor {
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return new(getter.ZipDecompressor)
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return new(getter.TarGzipDecompressor)
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return new(getter.TarXzDecompressor)
	case bytes.HasPrefix(head, []byte("BZ")):
		return new(getter.TarBzip2Decompressor)
	}
	return nil
}
