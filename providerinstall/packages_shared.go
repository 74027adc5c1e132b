package providerinstall

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/tfdeps/tfdeps/hashes"
)

// SharedPackages extracts each package archive once for many
// installations in one process (the root modules of one init -recursive
// run): the first installation of an archive unpacks and hashes it into a
// directory of the run's own, and every installation of the same archive
// (the same SHA-256) then gets the files as hard links to those (copies
// where the file system refuses links), with the "h1:" computed once.
//
// Nothing is trusted that an installation would check: each one has its
// archive authenticated and checked against its lock file's hashes before
// the shared files are used, exactly as an unshared installation checks
// them before extracting; the shared files were written by this process
// from an archive with that very digest. Concurrent installations of an
// archive wait for its one extraction; a failed extraction is not
// remembered.
type SharedPackages struct {
	dir        string
	mu         sync.Mutex
	entries    map[[32]byte]*sharedPackage
	extracts   atomic.Int64
	sequence   atomic.Int64
	linkFailed atomic.Bool

	linkedMu sync.Mutex
	linked   []linkedPackage
}

// linkedPackage is a package directory installed from shared files, whose
// hash memo is written again by Restamp.
type linkedPackage struct {
	hasher *dirHasher
	dir    string
	h1     hashes.Hash
	files  []fileStamp
}

type sharedPackage struct {
	ready chan struct{}
	dir   string
	h1    hashes.Hash
	err   error
}

// NewSharedPackages keeps its extracted packages in dir (made by the
// caller on the file system of the working directories, so that links
// work, and removed by the caller when the run is over).
func NewSharedPackages(dir string) *SharedPackages {
	return &SharedPackages{dir: dir, entries: map[[32]byte]*sharedPackage{}}
}

// Extractions counts the archives extracted (for tests and benchmarks).
func (s *SharedPackages) Extractions() int { return int(s.extracts.Load()) }

// extracted returns the directory holding a's files and their "h1:",
// extracting a there first unless another installation did.
func (s *SharedPackages) extracted(ctx context.Context, a *Archive, opts ExtractOptions) (string, hashes.Hash, error) {
	for {
		s.mu.Lock()
		e, ok := s.entries[a.SHA256]
		if !ok {
			e = &sharedPackage{ready: make(chan struct{})}
			s.entries[a.SHA256] = e
		}
		s.mu.Unlock()
		if !ok {
			return s.extract(ctx, e, a, opts)
		}
		select {
		case <-e.ready:
		case <-ctx.Done():
			return "", "", ctx.Err()
		}
		if e.err == nil {
			return e.dir, e.h1, nil
		}
		// The extraction failed; another installation's interrupt is not
		// this one's failure: try again (a failure is not remembered).
		if ctx.Err() != nil {
			return "", "", ctx.Err()
		}
		if !errors.Is(e.err, context.Canceled) && !errors.Is(e.err, context.DeadlineExceeded) {
			return "", "", e.err
		}
	}
}

// extract fills e by extracting a, for the installations waiting on it.
func (s *SharedPackages) extract(ctx context.Context, e *sharedPackage, a *Archive, opts ExtractOptions) (string, hashes.Hash, error) {
	dir := filepath.Join(s.dir, fmt.Sprintf("%s-%d", hex.EncodeToString(a.SHA256[:8]), s.sequence.Add(1)))
	h1, err := extractArchive(ctx, a, dir, opts, true)
	if err == nil {
		s.extracts.Add(1)
		e.dir, e.h1 = dir, h1
	} else {
		_ = os.RemoveAll(dir)
		e.err = err
		s.mu.Lock()
		delete(s.entries, a.SHA256) // the next installation tries again
		s.mu.Unlock()
	}
	close(e.ready)
	return e.dir, e.h1, err
}

// linkTree makes dst (not existing) a tree with src's directories, its
// files hard-linked (or copied) and its symbolic links recreated.
func (s *SharedPackages) linkTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.Mkdir(target, info.Mode().Perm())
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case !s.linkFailed.Load():
			if err := os.Link(path, target); err == nil {
				return nil
			}
			s.linkFailed.Store(true) // another file system: copy from now on
		}
		return copyFile(path, target, info.Mode().Perm())
	})
}

// noteLinked remembers a package directory installed from shared files.
func (s *SharedPackages) noteLinked(h *dirHasher, dir string, h1 hashes.Hash, files []fileStamp) {
	if files == nil {
		return
	}
	s.linkedMu.Lock()
	s.linked = append(s.linked, linkedPackage{hasher: h, dir: dir, h1: h1, files: files})
	s.linkedMu.Unlock()
}

// Restamp writes again the hash memos of the package directories
// installed from shared files, once every installation of the run is
// over: each link made changed the change time of the files it shares,
// which the memo checks, so without this the next initialisation of each
// directory would hash its packages again. A directory whose files
// changed otherwise (size, modification time, inode) since it was
// installed gets no memo.
func (s *SharedPackages) Restamp() {
	s.linkedMu.Lock()
	linked := s.linked
	s.linked = nil
	s.linkedMu.Unlock()
	for _, l := range linked {
		l.hasher.rememberLinked(l.dir, l.h1, l.files)
	}
}
