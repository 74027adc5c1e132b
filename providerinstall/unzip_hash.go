package providerinstall

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/tfdeps/tfdeps/hashes"
)

// HashedArchive is what ExtractFile would produce from an archive, worked
// out without writing anything.
type HashedArchive struct {
	// H1 is the "h1:" hash of the directory ExtractFile would unpack.
	H1 hashes.Hash
	// TopFiles are the names of the regular files at the package root, in
	// name order, as FindExecutable would see them.
	TopFiles []string
}

// Executable returns the file at the package root that FindExecutable would
// pick for providerType, with its error texts.
func (h HashedArchive) Executable(providerType string) (string, error) {
	prefix := "terraform-provider-" + providerType
	for _, name := range h.TopFiles {
		if rest, ok := strings.CutPrefix(name, prefix); ok && (rest == "" || rest[0] == '_' || rest[0] == '.') {
			return name, nil
		}
	}
	return "", fmt.Errorf("could not find executable file starting with %s", prefix)
}

// HashArchiveFile reads the provider package archive at zipPath once and
// returns the hash and root files of the directory ExtractFile would
// unpack from it: the same checks and limits, the same rule that a later
// entry replaces an earlier one of the same path, and an error where
// unpacking would fail because a file and a directory share a path. Nothing
// is written, which makes it the cheap way to learn a package's "h1:" when
// the files themselves are not wanted.
func HashArchiveFile(ctx context.Context, zipPath string, opts ExtractOptions) (HashedArchive, error) {
	f, err := os.Open(zipPath)
	if err != nil {
		return HashedArchive{}, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return HashedArchive{}, err
	}
	return HashArchive(ctx, f, info.Size(), zipPath, opts)
}

// HashArchive is HashArchiveFile for an archive of size bytes read through
// r (a package held in memory, say); name stands for the archive in error
// messages.
func HashArchive(ctx context.Context, r io.ReaderAt, size int64, name string, opts ExtractOptions) (HashedArchive, error) {
	opts = opts.withDefaults()
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return HashedArchive{}, err
	}
	zr.RegisterDecompressor(zip.Deflate, newBufferedInflater)
	entries, err := planEntries(zr.File, name, opts)
	if err != nil {
		return HashedArchive{}, err
	}
	return hashEntries(ctx, name, entries, opts.MaxBytes)
}

// hashEntries hashes the planned entries' contents as writeEntries would
// write them, keeping track of which paths are files and which directories.
func hashEntries(ctx context.Context, archive string, entries []plannedEntry, maxBytes int64) (HashedArchive, error) {
	w := newEntryWriter(ctx, "", archive, maxBytes)
	dirs := map[string]bool{}
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return HashedArchive{}, err
		}
		if err := claimPath(w.sum, dirs, e); err != nil {
			return HashedArchive{}, err
		}
		if e.kind == os.ModeDir {
			continue
		}
		digest, err := w.hashFile(e)
		if err != nil {
			return HashedArchive{}, err
		}
		w.sum[e.rel] = digest
	}
	h1, err := w.sum.hash()
	if err != nil {
		return HashedArchive{}, err
	}
	var top []string
	for name := range w.sum {
		if !strings.Contains(name, "/") {
			top = append(top, name)
		}
	}
	slices.Sort(top)
	return HashedArchive{H1: h1, TopFiles: top}, nil
}

// claimPath records e's path (and its parent directories) and fails where
// unpacking would: a file below a file, or a file where a directory is.
func claimPath(files h1Summary, dirs map[string]bool, e plannedEntry) error {
	for dir := path.Dir(e.rel); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if _, isFile := files[dir]; isFile {
			return fmt.Errorf("cannot unpack %s: %s is a file", e.rel, dir)
		}
		dirs[dir] = true
	}
	if e.kind == os.ModeDir {
		if _, isFile := files[e.rel]; isFile {
			return fmt.Errorf("cannot unpack directory %s: a file has that name", e.rel)
		}
		dirs[e.rel] = true
		return nil
	}
	if dirs[e.rel] {
		return fmt.Errorf("cannot unpack %s: a directory has that name", e.rel)
	}
	return nil
}

// hashFile reads one entry's content through sha256, within the budget.
func (w *entryWriter) hashFile(e plannedEntry) ([32]byte, error) {
	var digest [32]byte
	if digest, ok := w.hashWhole(e); ok {
		return digest, nil
	}
	rc, err := e.file.Open()
	if err != nil {
		return digest, err
	}
	defer rc.Close()
	w.sha.Reset()
	src := &budgetReader{r: rc, ctx: w.ctx, left: &w.budget, limit: w.limit, archive: w.archive}
	if err := w.copy(w.sha, src, e); err != nil {
		return digest, err
	}
	w.sha.Sum(digest[:0])
	return digest, nil
}
