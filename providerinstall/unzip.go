package providerinstall

import (
	"archive/zip"
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/klauspost/compress/flate"

	"github.com/tfdeps/tfdeps/hashes"
)

// Default limits of ExtractOptions. Real provider packages hold two or
// three files and less than 1 GiB; the limits only stop archives built to
// exhaust the disk.
const (
	DefaultMaxEntries = 10_000
	DefaultMaxBytes   = 4 << 30
)

// ExtractOptions bounds what Extract accepts. Zero fields take the defaults.
type ExtractOptions struct {
	// MaxEntries is the largest number of zip entries accepted.
	MaxEntries int
	// MaxBytes is the largest total of uncompressed bytes written.
	MaxBytes int64
}

func (o ExtractOptions) withDefaults() ExtractOptions {
	if o.MaxEntries <= 0 {
		o.MaxEntries = DefaultMaxEntries
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	return o
}

// ErrPackageExists is returned by Extract and Link when the package
// directory is already there and is not an empty directory.
var ErrPackageExists = errors.New("package directory already exists")

// ExtractFile unpacks the provider package archive at zipPath into dir and
// returns the "h1:" hash of the unpacked files, computed while they are
// written; it equals hashes.HashDir(dir).
//
// The archive is unpacked into a staging directory beside dir, which is
// renamed to dir only after every entry was written: on any error, or when
// ctx is cancelled, the staging directory is removed and dir is left as it
// was. dir must not exist or be an empty directory (ErrPackageExists
// otherwise). Entries are checked before anything is written; see
// ArchiveError for what is refused. Files get the permission bits stored in
// the archive (no umask), directories 0755. A symbolic-link entry whose
// target stays inside the package is written, as OpenTofu does, as a
// regular file holding the link target.
func ExtractFile(ctx context.Context, zipPath, dir string, opts ExtractOptions) (hashes.Hash, error) {
	return extractPath(ctx, zipPath, dir, opts, true)
}

// extractPath opens the archive at zipPath for extract.
func extractPath(ctx context.Context, zipPath, dir string, opts ExtractOptions, hash bool) (hashes.Hash, error) {
	f, err := os.Open(zipPath)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	return extract(ctx, f, info.Size(), zipPath, dir, opts, hash)
}

// Extract is ExtractFile for an archive of size bytes read through r; name
// stands for the archive in error messages.
func Extract(ctx context.Context, r io.ReaderAt, size int64, name, dir string, opts ExtractOptions) (hashes.Hash, error) {
	return extract(ctx, r, size, name, dir, opts, true)
}

// extractFileUnhashed is ExtractFile without hashing the files, for a
// caller that already has the package's "h1:" in the form a registry
// computes it from the archive (install_knownh1.go). That form equals the
// unpacked directory's only for an archive of regular files with clean,
// distinct names; for any other archive the files are hashed all the same
// and the directory's "h1:" returned. It returns "" when nothing was hashed.
func extractFileUnhashed(ctx context.Context, zipPath, dir string, opts ExtractOptions) (hashes.Hash, error) {
	return extractPath(ctx, zipPath, dir, opts, false)
}

// extractArchive is ExtractFile (hash set) or extractFileUnhashed of a
// downloaded or local archive, in a file or in memory.
func extractArchive(ctx context.Context, a *Archive, dir string, opts ExtractOptions, hash bool) (hashes.Hash, error) {
	if a.Data == nil {
		return extractPath(ctx, a.Path, dir, opts, hash)
	}
	return extract(ctx, memArchive(a.Data), int64(len(a.Data)), a.URL, dir, opts, hash)
}

// memArchive is an archive's bytes in memory; whole inflation takes an
// entry's compressed bytes from it without a copy (compressedBytes).
type memArchive []byte

func (m memArchive) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("memArchive.ReadAt: negative offset")
	}
	if off >= int64(len(m)) {
		return 0, io.EOF
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// extract is Extract; unless hash is set, it hashes the files written
// only when the archive is not plain (plainArchive) and returns "" when it
// did not.
func extract(ctx context.Context, r io.ReaderAt, size int64, name, dir string, opts ExtractOptions, hash bool) (hashes.Hash, error) {
	opts = opts.withDefaults()
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return "", err // as go-getter's unzip reports it: the reader's error alone
	}
	zr.RegisterDecompressor(zip.Deflate, newBufferedInflater)
	entries, err := planEntries(zr.File, name, opts)
	if err != nil {
		return "", err
	}
	if err := checkTargetFree(dir); err != nil {
		return "", err
	}
	staging, err := newStagingDir(dir)
	if err != nil {
		return "", err
	}
	h1, err := writeEntries(ctx, staging, name, entries, opts.MaxBytes, hash)
	if err == nil {
		err = commitStaging(staging, dir)
	}
	if err != nil {
		_ = os.RemoveAll(staging)
		return "", err
	}
	return h1, nil
}

// writeEntries writes the planned entries below root and returns the "h1:"
// hash of the files written ("" unless hash is set).
func writeEntries(ctx context.Context, root, archive string, entries []plannedEntry, maxBytes int64, hash bool) (hashes.Hash, error) {
	w := newEntryWriter(ctx, root, archive, maxBytes)
	w.noHash = !hash && plainArchive(entries)
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if err := w.write(e); err != nil {
			return "", err
		}
	}
	if w.noHash {
		return "", nil
	}
	return w.sum.hash()
}

// plainArchive reports whether the archive holds only regular files with
// clean, distinct names: then its "h1:" as a zip (hashes.md §3.2) equals
// that of the directory unpacked from it.
func plainArchive(entries []plannedEntry) bool {
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		if e.kind != 0 || e.rel != e.file.Name || seen[e.rel] {
			return false
		}
		seen[e.rel] = true
	}
	return true
}

// newBufferedInflater inflates with klauspost/compress/flate (about 1.5
// times as fast as compress/flate on provider-like content, same output)
// through a large read buffer: a decompressor given a plain reader reads
// compressed data 4 KiB at a time, one system call each.
func newBufferedInflater(r io.Reader) io.ReadCloser {
	return flate.NewReader(bufio.NewReaderSize(r, copyBufferSize))
}

// checkTargetFree fails unless dir is absent or an empty directory (a
// symlink, even to an empty directory, counts as taken).
func checkTargetFree(dir string) error {
	info, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if info.IsDir() {
		f, err := os.Open(dir)
		if err != nil {
			return err
		}
		defer f.Close()
		if _, err := f.Readdirnames(1); errors.Is(err, io.EOF) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s", ErrPackageExists, dir)
}

// commitStaging renames the finished staging directory to dir. An empty
// directory at dir is replaced.
func commitStaging(staging, dir string) error {
	err := os.Rename(staging, dir)
	if err == nil {
		return nil
	}
	if rmErr := os.Remove(dir); rmErr != nil {
		// Not an empty directory after all (it was filled concurrently),
		// or something else went wrong: report the rename failure.
		return fmt.Errorf("cannot move unpacked package into place: %w", err)
	}
	return os.Rename(staging, dir)
}
