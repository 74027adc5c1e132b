package registry

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"

	getter "github.com/hashicorp/go-getter"
	"github.com/ulikunitz/xz"
)

// MaxModulePackageSize bounds a registry-hosted module archive (OpenTofu
// has no bound).
const MaxModulePackageSize = 1 << 30

// DownloadModulePackage fetches a registry-hosted archive (§3.5) into w:
// GET with Accept, Accept-Encoding and X-Terraform-Version, the package
// host's credentials only when loc.UseRegistryCredentials. It returns the
// number of bytes written. Errors: "failed to download module package:
// server returned %s" (non-2xx), "server promised %d bytes, but returned %d
// bytes" (Content-Length mismatch), "copying module package to temporary
// file: %s", a size-limit error, transport and retry errors.
func (c *Client) DownloadModulePackage(ctx context.Context, loc *DirectModuleLocation, w io.Writer) (int64, error) {
	h := http.Header{}
	h.Set("Accept", "application/zip, application/x-tar; *;q=0.1")
	h.Set("Accept-Encoding", "identity, gzip, *;q=0.1")
	resp, err := c.moduleRequest(ctx, loc.Package.Host, loc.URL, loc.UseRegistryCredentials, h)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode >= 300 {
		return 0, fmt.Errorf("failed to download module package: server returned %s", resp.Status)
	}
	n, err := io.Copy(w, io.LimitReader(resp.Body, MaxModulePackageSize+1))
	if err != nil {
		if ctx.Err() != nil {
			return n, RequestCanceledError{}
		}
		return n, fmt.Errorf("copying module package to temporary file: %w", err)
	}
	if n > MaxModulePackageSize {
		return n, fmt.Errorf("module package is larger than the limit of %d bytes", int64(MaxModulePackageSize))
	}
	if want, err := strconv.ParseInt(resp.Header.Get("Content-Length"), 10, 64); err == nil && n != want {
		return n, fmt.Errorf("server promised %d bytes, but returned %d bytes", want, n)
	}
	return n, nil
}

// FetchModulePackage downloads a registry-hosted archive to a temporary
// file in tmpDir ("" for the system's) and extracts it into targetDir,
// returning the module directory (targetDir joined with loc.Subdir). The
// temporary file is always removed. Extraction errors read "extracting
// package archive: %s".
func (c *Client) FetchModulePackage(ctx context.Context, loc *DirectModuleLocation, tmpDir, targetDir string) (string, error) {
	f, err := os.CreateTemp(tmpDir, "tfdeps-modpkg-")
	if err != nil {
		return "", fmt.Errorf("creating temporary file for module package: %w", err)
	}
	defer func() {
		f.Close()
		os.Remove(f.Name())
	}()
	if _, err := c.DownloadModulePackage(ctx, loc, f); err != nil {
		return "", err
	}
	if err := ExtractModulePackage(f, targetDir); err != nil {
		return "", fmt.Errorf("extracting package archive: %w", err)
	}
	if loc.Subdir == "" {
		return targetDir, nil
	}
	return targetDir + string(os.PathSeparator) + fromSlash(loc.Subdir), nil
}

func fromSlash(s string) string {
	if os.PathSeparator == '/' {
		return s
	}
	return string(bytes.ReplaceAll([]byte(s), []byte("/"), []byte{os.PathSeparator}))
}

// ModulePackageFormat is an archive format found by SniffModulePackage.
type ModulePackageFormat string

// The formats a registry-hosted module archive may have.
const (
	FormatZip    ModulePackageFormat = "zip"
	FormatTarGz  ModulePackageFormat = "tar.gz"
	FormatTarXz  ModulePackageFormat = "tar.xz"
	FormatTarBz2 ModulePackageFormat = "tar.bz2"
)

// ErrUnknownModulePackage is SniffModulePackage's error for content that
// is none of the formats.
var ErrUnknownModulePackage = errors.New("module package is not zip archive, or tar archive with gz, xz, or bzip2 compression")

// SniffModulePackage finds the archive format from the content, in
// OpenTofu's order: zip, gzip (tar inside), xz (tar), bzip2 (magic "BZ").
func SniffModulePackage(r io.ReaderAt, size int64) (ModulePackageFormat, error) {
	if _, err := zip.NewReader(r, size); err == nil {
		return FormatZip, nil
	}
	if _, err := gzip.NewReader(io.NewSectionReader(r, 0, size)); err == nil {
		return FormatTarGz, nil
	}
	head := make([]byte, xz.HeaderLen)
	if n, _ := r.ReadAt(head, 0); n == len(head) && xz.ValidHeader(head) {
		return FormatTarXz, nil
	}
	if n, _ := r.ReadAt(head[:4], 0); n == 4 && head[0] == 'B' && head[1] == 'Z' {
		return FormatTarBz2, nil
	}
	return "", ErrUnknownModulePackage
}

// ExtractModulePackage sniffs f's format and extracts it into targetDir
// with go-getter's decompressors (as OpenTofu; file modes from the
// archive).
func ExtractModulePackage(f *os.File, targetDir string) error {
	info, err := f.Stat()
	if err != nil {
		return err
	}
	format, err := SniffModulePackage(f, info.Size())
	if err != nil {
		return err
	}
	var d getter.Decompressor
	switch format {
	case FormatZip:
		d = new(getter.ZipDecompressor)
	case FormatTarGz:
		d = new(getter.TarGzipDecompressor)
	case FormatTarXz:
		d = new(getter.TarXzDecompressor)
	default:
		d = new(getter.TarBzip2Decompressor)
	}
	return d.Decompress(targetDir, f.Name(), true, 0)
}
