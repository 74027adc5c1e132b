package hashes

import (
	"archive/zip"
	"bufio"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/flate"
	"golang.org/x/mod/sumdb/dirhash"
)

// newInflater inflates with klauspost/compress/flate, about 1.5 times as
// fast as compress/flate, through a large read buffer (a decompressor
// given a plain reader reads 4 KiB at a time).
func newInflater(r io.Reader) io.ReadCloser {
	return flate.NewReader(bufio.NewReaderSize(r, 256<<10))
}

// ErrNewlineName is dirhash's error for a file name containing a newline,
// which the h1: scheme cannot represent.
var ErrNewlineName = errors.New("dirhash: filenames with newlines are not supported")

// EmptyH1 is the "h1:" hash of a package without files.
const EmptyH1 Hash = "h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="

// HashDir returns the "h1:" hash of the extracted package in dir: every
// non-directory entry found without following symlinks, named by its path
// relative to dir with "/" separators. Symlinks in dir itself are resolved
// first.
func HashDir(dir string) (Hash, error) {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	h, err := dirhash.HashDir(real, "", dirhash.Hash1)
	return Hash(h), err
}

// HashZipFile returns the "h1:" hash of the zip archive at path.
func HashZipFile(path string) (Hash, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", err
	}
	return HashZip(f, info.Size())
}

// MaxZipContent bounds the uncompressed content HashZip reads, as the
// installer bounds what it unpacks: no provider package comes near it, and
// a crafted archive cannot make hashing run on for ever.
const MaxZipContent = 4 << 30

// HashZip returns the "h1:" hash of the zip archive of size bytes read from
// r, without extracting it. Every central-directory entry contributes its
// stored name as-is, directory entries ("sub/") included as empty files; of
// entries sharing a name, the last one's content counts for each of them.
// Entries are decompressed and hashed concurrently (r must allow parallel
// ReadAt calls, as io.ReaderAt promises); memory use does not depend on the
// archive's size. The result equals dirhash.HashZip with dirhash.Hash1.
func HashZip(r io.ReaderAt, size int64) (Hash, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return "", err
	}
	zr.RegisterDecompressor(zip.Deflate, newInflater)
	names := make([]string, len(zr.File))
	byName := make(map[string]*zip.File, len(zr.File))
	var declared uint64
	for i, f := range zr.File {
		names[i] = f.Name
		byName[f.Name] = f
		// The reader refuses content longer than declared, so bounding the
		// declared sizes bounds the work. Each size is compared before it
		// is added, so that sizes summing past 2^64 cannot wrap around.
		if f.UncompressedSize64 > MaxZipContent-declared {
			return "", fmt.Errorf("zip archive declares more than %d bytes of content", uint64(MaxZipContent))
		}
		if declared += f.UncompressedSize64; declared > MaxZipContent {
			return "", fmt.Errorf("zip archive declares more than %d bytes of content", uint64(MaxZipContent))
		}
	}
	slices.Sort(names)
	digests := digestEntries(uniqueHashable(names), byName)
	return summarise(names, digests)
}

// uniqueHashable returns the distinct names of sorted, up to the first name
// containing a newline (dirhash stops there with an error).
func uniqueHashable(sorted []string) []string {
	var out []string
	for i, name := range sorted {
		if strings.Contains(name, "\n") {
			break
		}
		if i == 0 || sorted[i-1] != name {
			out = append(out, name)
		}
	}
	return out
}

// entryDigest is the SHA-256 of one entry's content, or why it failed.
type entryDigest struct {
	sum [sha256.Size]byte
	err error
}

// digestEntries hashes the content of the named entries with a few workers.
func digestEntries(names []string, byName map[string]*zip.File) map[string]entryDigest {
	out := make(map[string]entryDigest, len(names))
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(names), 8) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 64*1024)
			for name := range work {
				d := digestEntry(byName[name], buf)
				mu.Lock()
				out[name] = d
				mu.Unlock()
			}
		}()
	}
	for _, name := range names {
		work <- name
	}
	close(work)
	wg.Wait()
	return out
}

func digestEntry(f *zip.File, buf []byte) entryDigest {
	rc, err := f.Open()
	if err != nil {
		return entryDigest{err: err}
	}
	defer rc.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, rc, buf); err != nil {
		return entryDigest{err: err}
	}
	var d entryDigest
	h.Sum(d.sum[:0])
	return d
}

// H1FromDigests returns the "h1:" hash of a package whose files, named by
// slash-separated paths below the package root, have the given SHA-256
// digests; it is how a package hashed while it is written gets its h1:.
func H1FromDigests(files map[string][sha256.Size]byte) (Hash, error) {
	names := make([]string, 0, len(files))
	digests := make(map[string]entryDigest, len(files))
	for name, sum := range files {
		names = append(names, name)
		digests[name] = entryDigest{sum: sum}
	}
	slices.Sort(names)
	return summarise(names, digests)
}

// summarise builds the Hash1 summary of the sorted names from their digests
// and hashes it, failing on the first name (in sorted order) that has a
// newline or whose content could not be read, as dirhash.Hash1 does.
func summarise(sorted []string, digests map[string]entryDigest) (Hash, error) {
	summary := sha256.New()
	for _, name := range sorted {
		if strings.Contains(name, "\n") {
			return "", ErrNewlineName
		}
		d := digests[name]
		if d.err != nil {
			return "", d.err
		}
		fmt.Fprintf(summary, "%x  %s\n", d.sum, name)
	}
	return Hash("h1:" + base64.StdEncoding.EncodeToString(summary.Sum(nil))), nil
}
