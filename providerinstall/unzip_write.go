package providerinstall

import (
	"context"
	"crypto/sha256"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tfdeps/tfdeps/hashes"
)

// copyBufferSize is the size of the buffer entries are copied through.
const copyBufferSize = 256 << 10

// entryWriter writes checked entries below root, hashing each file's bytes
// as they are written.
type entryWriter struct {
	ctx     context.Context
	root    string
	budget  int64 // uncompressed bytes still allowed
	limit   int64
	archive string
	buf     []byte
	sha     hash.Hash
	sum     h1Summary
	// noHash: write only; sum is not filled.
	noHash bool
}

func newEntryWriter(ctx context.Context, root, archive string, maxBytes int64) *entryWriter {
	return &entryWriter{
		ctx:     ctx,
		root:    root,
		archive: archive,
		budget:  maxBytes,
		limit:   maxBytes,
		buf:     make([]byte, copyBufferSize),
		sha:     sha256.New(),
		sum:     h1Summary{},
	}
}

func (w *entryWriter) write(e plannedEntry) error {
	target := filepath.Join(w.root, filepath.FromSlash(e.rel))
	if e.kind == fs.ModeDir {
		return os.MkdirAll(target, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	digest, err := w.writeFile(e, target)
	if err != nil {
		return err
	}
	if !w.noHash {
		w.sum[e.rel] = digest
	}
	return nil
}

// writeFile copies one entry's content to target through sha256 and gives
// it the entry's permission bits.
func (w *entryWriter) writeFile(e plannedEntry, target string) ([sha256.Size]byte, error) {
	// Read and write: writeWhole maps the file.
	out, err := os.OpenFile(target, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	digest, done, err := w.writeWhole(out, e)
	if !done && err == nil {
		digest, err = w.writeStreamed(out, e)
	}
	if err == nil {
		err = out.Chmod(e.file.Mode().Perm())
	}
	if closeErr := out.Close(); err == nil {
		err = closeErr
	}
	return digest, err
}

// writeStreamed copies one entry's content to out through archive/zip's
// reader and, unless w.noHash, sha256.
func (w *entryWriter) writeStreamed(out io.Writer, e plannedEntry) ([sha256.Size]byte, error) {
	var digest [sha256.Size]byte
	rc, err := e.file.Open()
	if err != nil {
		return digest, err
	}
	defer rc.Close()
	dst := out
	if !w.noHash {
		w.sha.Reset()
		dst = io.MultiWriter(out, w.sha)
	}
	src := &budgetReader{r: rc, ctx: w.ctx, left: &w.budget, limit: w.limit, archive: w.archive}
	if err := w.copy(dst, src, e); err != nil {
		return digest, err
	}
	if !w.noHash {
		w.sha.Sum(digest[:0])
	}
	return digest, nil
}

// budgetReader reads from r while *left stays non-negative and ctx is
// live, so that neither a lying size header nor a cancelled install lets a
// copy run on.
type budgetReader struct {
	r       io.Reader
	ctx     context.Context
	left    *int64
	limit   int64
	archive string
}

func (b *budgetReader) Read(p []byte) (int, error) {
	if err := b.ctx.Err(); err != nil {
		return 0, err
	}
	n, err := b.r.Read(p)
	*b.left -= int64(n)
	if *b.left < 0 {
		return n, &ArchiveError{Problem: ProblemTooLarge, Archive: b.archive, Limit: b.limit}
	}
	return n, err
}

// h1Summary maps each written file's slash-separated path to the SHA-256
// of its content. A later entry with the same path replaces an earlier one,
// as its file does on disk.
type h1Summary map[string][sha256.Size]byte

// hash returns the "h1:" hash of the files.
func (s h1Summary) hash() (hashes.Hash, error) { return hashes.H1FromDigests(s) }

// copy copies an entry's content from src to dst: pipelined for large
// entries (unzip_pipe.go), through w.buf otherwise.
func (w *entryWriter) copy(dst io.Writer, src io.Reader, e plannedEntry) error {
	var err error
	if e.file.UncompressedSize64 >= pipelineMin {
		_, err = copyPipelined(dst, src)
	} else {
		_, err = io.CopyBuffer(dst, src, w.buf)
	}
	return err
}
