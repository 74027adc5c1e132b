package providerinstall

import (
	"context"
	"fmt"
	"os"

	"github.com/tfdeps/tfdeps/hashes"
)

// InstallZip installs the package archive at zipPath into the package
// directory dir the way OpenTofu installs a local archive once it has been
// authenticated and checked against the lock file (init.md §5, step 6.3,
// "local zip" 3–4):
//
//   - dir absent, or a real empty directory: the archive is extracted
//     (ExtractFile) and kept is false;
//   - anything else at dir: its "h1:" hash must equal the archive's "h1:"
//     hash (computed from the archive, so directory entries count), in
//     which case the existing content is kept untouched and kept is true;
//     otherwise it fails with OpenTofu's "existing cached package … does
//     not match" error.
//
// The returned hash is the "h1:" hash of dir's content either way, so the
// caller never needs to hash the installed directory again.
func InstallZip(ctx context.Context, zipPath, dir string, opts ExtractOptions) (h1 hashes.Hash, kept bool, err error) {
	info, statErr := os.Lstat(dir)
	if statErr != nil {
		h1, err = ExtractFile(ctx, zipPath, dir, opts)
		return h1, false, err
	}
	dirH1, dirErr := hashes.HashDir(dir)
	if info.IsDir() && dirErr == nil && dirH1 == hashes.EmptyH1 {
		h1, err = ExtractFile(ctx, zipPath, dir, opts)
		return h1, false, err
	}
	zipH1, zipErr := hashes.HashZipFile(zipPath)
	switch {
	case zipErr != nil:
		return "", false, fmt.Errorf("failed to calculate checksum for temporary copy of provider package at %s: %s", zipPath, zipErr)
	case dirErr != nil:
		return "", false, fmt.Errorf("failed to calculate checksum for existing cached provider package at %s: %s", dir, dirErr)
	case dirH1 != zipH1:
		return "", false, fmt.Errorf("existing cached package at %s does not match the content of the downloaded package; does it contain local modifications?", dir)
	}
	return dirH1, true, nil
}
