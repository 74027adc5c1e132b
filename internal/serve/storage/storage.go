// Package storage is where tfdeps serve keeps everything it knows: package
// archives, their hash records, cached upstream answers, published releases
// and download leases, as objects in one bucket (gocloud.dev/blob): a local
// directory, or object storage (s3://, gs://, file://, mem://; the Azure driver is not linked in).
//
// It owns: opening a bucket from a directory or URL, the Store operations
// the server needs (read, atomic write, conditional create, stat, delete,
// list, presigned URLs) with one not-found error, key validation, and leases
// that let several replicas agree which one fetches a missing object.
//
// An object becomes visible only when its write completes: the blob drivers
// upload to a temporary name (a local directory: a temporary file in the
// same directory, named after the writing process (Holder) and renamed
// when complete) or as one request (object stores), and a write whose
// context is canceled is discarded. It does not know the layout
// of keys; package serve does.
package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	"gocloud.dev/gcerrors"

	// Drivers selectable by URL scheme.
	_ "gocloud.dev/blob/azureblob"
	_ "gocloud.dev/blob/gcsblob"
	_ "gocloud.dev/blob/memblob"
	_ "gocloud.dev/blob/s3blob"
)

// ErrNotFound is returned for a key that does not exist.
var ErrNotFound = errors.New("storage: object not found")

// ErrExists is returned by a conditional create when the key exists.
var ErrExists = errors.New("storage: object already exists")

// ErrNoSignedURL is returned by SignedURL when the backend cannot sign.
var ErrNoSignedURL = errors.New("storage: backend does not support signed URLs")

// MaxKeyLength bounds keys (S3 allows 1024 bytes).
const MaxKeyLength = 1024

// Store is a bucket with the operations the server uses.
type Store struct {
	bucket *blob.Bucket
	// signs reports whether SignedURL can work (object stores).
	signs bool
	// dir is the directory of a local store ("" for others).
	dir string
}

// Open opens location: a URL with a scheme gocloud.dev/blob knows, or a
// plain path, which is a local directory (created when missing).
func Open(ctx context.Context, location string) (*Store, error) {
	if location == "" {
		return nil, errors.New("storage: no location given")
	}
	if !strings.Contains(location, "://") {
		return OpenDir(location)
	}
	u, err := url.Parse(location)
	if err != nil {
		return nil, fmt.Errorf("storage: invalid location %q: %w", location, err)
	}
	b, err := blob.OpenBucket(ctx, location)
	if err != nil {
		return nil, fmt.Errorf("storage: opening %s: %w", location, err)
	}
	switch u.Scheme {
	case "s3", "gs":
		return &Store{bucket: b, signs: true}, nil
	}
	return &Store{bucket: b}, nil
}

// OpenDir opens a local directory as a bucket. Temporary files are made
// beside their final names so the rename that publishes them is atomic.
func OpenDir(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, fmt.Errorf("storage: %w", err)
	}
	b, err := fileblob.OpenBucket(abs, &fileblob.Options{NoTempDir: true, Metadata: fileblob.MetadataDontWrite})
	if err != nil {
		return nil, fmt.Errorf("storage: opening %s: %w", abs, err)
	}
	return &Store{bucket: b, dir: abs}, nil
}

// FromBucket wraps an open bucket; signs says whether SignedURL may be
// tried on it.
func FromBucket(b *blob.Bucket, signs bool) *Store { return &Store{bucket: b, signs: signs} }

// Close closes the bucket.
func (s *Store) Close() error { return s.bucket.Close() }

// CheckKey rejects keys the server must never use: empty, too long, not
// UTF-8, with empty, "." or ".." segments, backslashes or control bytes.
func CheckKey(key string) error {
	if key == "" || len(key) > MaxKeyLength {
		return fmt.Errorf("storage: invalid key length %d", len(key))
	}
	if strings.ContainsAny(key, "\\") {
		return fmt.Errorf("storage: invalid key %q", key)
	}
	for _, r := range key {
		if r < 0x20 || r == 0x7f || r == 0xfffd {
			return fmt.Errorf("storage: invalid key %q", key)
		}
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("storage: invalid key %q", key)
		}
	}
	return nil
}

func mapErr(err error) error {
	switch gcerrors.Code(err) {
	case gcerrors.NotFound:
		return fmt.Errorf("%w: %v", ErrNotFound, err)
	case gcerrors.FailedPrecondition:
		return fmt.Errorf("%w: %v", ErrExists, err)
	}
	return err
}

// Attrs are an object's size and modification time.
type Attrs struct {
	Size    int64
	ModTime time.Time
}

// Stat returns the attributes of key, or ErrNotFound.
func (s *Store) Stat(ctx context.Context, key string) (Attrs, error) {
	if err := CheckKey(key); err != nil {
		return Attrs{}, err
	}
	a, err := s.bucket.Attributes(ctx, key)
	if err != nil {
		return Attrs{}, mapErr(err)
	}
	return Attrs{Size: a.Size, ModTime: a.ModTime}, nil
}

// Reader is an open object: seekable, with its size and time.
type Reader interface {
	io.ReadSeekCloser
	Size() int64
	ModTime() time.Time
}

// Open opens key for reading, or fails with ErrNotFound.
func (s *Store) Open(ctx context.Context, key string) (Reader, error) {
	if err := CheckKey(key); err != nil {
		return nil, err
	}
	r, err := s.bucket.NewReader(ctx, key, nil)
	if err != nil {
		return nil, mapErr(err)
	}
	return r, nil
}

// ReadAll reads a whole object of at most limit bytes.
func (s *Store) ReadAll(ctx context.Context, key string, limit int64) ([]byte, error) {
	r, err := s.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if r.Size() > limit {
		return nil, fmt.Errorf("storage: object %s is larger than %d bytes", key, limit)
	}
	return io.ReadAll(io.LimitReader(r, limit))
}

// PutOptions adjust a write.
type PutOptions struct {
	ContentType string
	// IfNotExist makes the write fail with ErrExists when key exists.
	IfNotExist bool
	// MaxSize, when positive, fails the write (and discards it) when the
	// source has more bytes.
	MaxSize int64
}

// ErrTooLarge is returned by Put when the source exceeds MaxSize.
var ErrTooLarge = errors.New("storage: object exceeds the size limit")

// Put copies r to key. The object becomes visible only when the whole copy
// succeeded; on any error (including a canceled ctx) nothing is published.
func (s *Store) Put(ctx context.Context, key string, r io.Reader, opts PutOptions) (int64, error) {
	if err := CheckKey(key); err != nil {
		return 0, err
	}
	if s.dir != "" {
		return s.putLocal(ctx, key, r, opts)
	}
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := s.bucket.NewWriter(wctx, key, &blob.WriterOptions{ContentType: opts.ContentType, IfNotExist: opts.IfNotExist})
	if err != nil {
		return 0, mapErr(err)
	}
	src := r
	if opts.MaxSize > 0 {
		src = io.LimitReader(r, opts.MaxSize+1)
	}
	n, err := io.Copy(w, src)
	if err == nil && opts.MaxSize > 0 && n > opts.MaxSize {
		err = ErrTooLarge
	}
	if err != nil {
		cancel() // discards the upload
		w.Close()
		return n, mapErr(err)
	}
	if err := w.Close(); err != nil {
		return n, mapErr(err)
	}
	return n, nil
}

// putLocal is Put on a directory store: the bytes go to a temporary file
// beside the final name, named after this process (tempPrefix) so that a
// later process can remove it once this one is dead (SweepTemp), then
// become the object by a rename, or with IfNotExist by a hard link, which
// fails when the name exists: fileblob checks that the file is absent and
// then renames, so two writers (replicas sharing the directory, or
// goroutines) could both succeed; with a link exactly one does.
func (s *Store) putLocal(ctx context.Context, key string, r io.Reader, opts PutOptions) (int64, error) {
	path := filepath.Join(s.dir, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+"."+tempPrefix(self())+".*.tmp")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	src := r
	if opts.MaxSize > 0 {
		src = io.LimitReader(r, opts.MaxSize+1)
	}
	n, err := io.Copy(tmp, src)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	switch {
	case err != nil:
		return n, err
	case opts.MaxSize > 0 && n > opts.MaxSize:
		return n, ErrTooLarge
	case ctx.Err() != nil:
		return n, ctx.Err()
	}
	if !opts.IfNotExist {
		return n, os.Rename(tmp.Name(), path)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return n, fmt.Errorf("%w: %s", ErrExists, key)
		}
		return n, err
	}
	return n, nil
}

// PutBytes writes b to key atomically.
func (s *Store) PutBytes(ctx context.Context, key string, b []byte, opts PutOptions) error {
	_, err := s.Put(ctx, key, strings.NewReader(string(b)), opts)
	return err
}

// Delete removes key; a missing key is not an error.
func (s *Store) Delete(ctx context.Context, key string) error {
	if err := CheckKey(key); err != nil {
		return err
	}
	if err := s.bucket.Delete(ctx, key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return err
	}
	return nil
}

// List returns the keys under prefix (which ends in "/"), in key order, at
// most limit of them.
func (s *Store) List(ctx context.Context, prefix string, limit int) ([]string, error) {
	it := s.bucket.List(&blob.ListOptions{Prefix: prefix})
	var out []string
	for len(out) < limit {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if !obj.IsDir && !strings.HasSuffix(obj.Key, ".tmp") {
			out = append(out, obj.Key)
		}
	}
	return out, nil
}

// SignedURL returns a presigned GET URL for key valid for ttl, or
// ErrNoSignedURL when the backend cannot make one.
func (s *Store) SignedURL(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if !s.signs {
		return "", ErrNoSignedURL
	}
	if err := CheckKey(key); err != nil {
		return "", err
	}
	u, err := s.bucket.SignedURL(ctx, key, &blob.SignedURLOptions{Expiry: ttl, Method: "GET"})
	if err != nil {
		if gcerrors.Code(err) == gcerrors.Unimplemented {
			return "", ErrNoSignedURL
		}
		return "", err
	}
	return u, nil
}

// LocalFile returns the open file behind a Reader from a local directory
// whole-object read, so that servers can hand it to sendfile. It reports
// false for other backends.
func LocalFile(r Reader) (*os.File, bool) {
	br, ok := r.(*blob.Reader)
	if !ok {
		return nil, false
	}
	var under io.Reader
	if !br.As(&under) {
		return nil, false
	}
	f, ok := under.(*os.File)
	return f, ok
}

// SweepTemp removes, below a local directory store, the temporary files of
// writes that were interrupted: at once those of a process of this machine
// that is dead (their names say whose they are: putLocal), others (another
// machine's, or older names) once they are older than age. A crash loop
// therefore does not fill the disk. It returns how many it removed; other
// backends have nothing to sweep (an interrupted upload is never an
// object).
func (s *Store) SweepTemp(age time.Duration, now time.Time) (int, error) {
	if s.dir == "" {
		return 0, nil
	}
	me := self()
	removed := 0
	err := filepath.WalkDir(s.dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !tempName.MatchString(d.Name()) {
			return nil
		}
		dead := false
		if m := ownedTempName.FindStringSubmatch(d.Name()); m != nil {
			dead = deadByName(m[1], m[2], m[3], me)
		}
		if info, err := d.Info(); err == nil && (dead || now.Sub(info.ModTime()) > age) {
			if os.Remove(path) == nil {
				removed++
			}
		}
		return nil
	})
	return removed, err
}

// tempName matches temporary files of writes (fileblob's and putLocal's);
// ownedTempName those putLocal names after their process: machine tag,
// process id and start time.
var (
	tempName      = regexp.MustCompile(`\.[0-9a-f]+\.tmp$`)
	ownedTempName = regexp.MustCompile(`\.t([0-9a-f]{8})-([0-9]+)-([0-9]*)\.[0-9]+\.tmp$`)
)

// Ping reports whether the bucket can be reached.
func (s *Store) Ping(ctx context.Context) error {
	ok, err := s.bucket.IsAccessible(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("storage: bucket is not accessible")
	}
	return nil
}
