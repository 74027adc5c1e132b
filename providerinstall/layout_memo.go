package providerinstall

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/tfdeps/tfdeps/hashes"
)

// The "h1:" memo of a package directory.
//
// Reusing an installed package means checking its directory against the
// lock file's "h1:" hashes, which reads every byte of the package. To make
// a warm init cheap, tfdeps remembers the hash in a memo file kept where
// tfdeps keeps its own state — MEMODIR/KEY.json, with MEMODIR under the
// user cache directory (DefaultMemoDir) and KEY derived from the package
// directory's real path (symlinks resolved) — never inside the directories
// OpenTofu reads (issue #11: .terraform/providers and the plugin cache hold
// exactly what tofu's hold). A memo records the hash together with a
// fingerprint of every file the hash covers: relative name, size, mode,
// modification and change times in nanoseconds, inode and device, as stat
// reports them (following symlinks, as reading the content does). A later
// check that finds the same file set with the same fingerprints uses the
// recorded hash without reading any content; anything else hashes the
// directory again and rewrites the memo.
//
// Trusting a memo is sound only if no content change can leave every
// fingerprint as it was. Any write to a file sets its change time to the
// current time, which no user can set back, and replacing a file changes
// its inode. What remains is the racy case Git knows: a write within the
// timestamp granularity after the file was read leaves the change time
// unchanged. So a memo made by hashing records when hashing started, the
// files are fingerprinted before and after the content is read (a change
// in between means no memo is written), and such a memo is trusted only
// when every recorded modification and change time is older than the start
// of hashing by more than memoRacyMargin.
//
// A memo written at install time is different: the installer computed the
// hash from the bytes it wrote itself, into a private staging directory
// (random name, under the package's lock), and fingerprinted the files
// there after closing them, before the directory was renamed into place
// (which changes no file's fingerprint). No one else writes to the files
// between their last write and the fingerprint, so such a memo ("written")
// is trusted at once, and the first init after a cold one reads nothing.
// Unreadable, corrupt or foreign memos are ignored, failures to write one
// too: the memo only ever saves work.
//
// The fingerprint needs inode, device and change time, which tfdeps reads
// on Linux only; elsewhere no memo is read or written.

// legacyMemoSuffix named the memo that earlier tfdeps versions kept beside
// the package directory (OS_ARCH.tfdeps-h1); Dir.Lock removes it.
const legacyMemoSuffix = ".tfdeps-h1"

// memoFormat identifies the memo's layout; memos of another format are
// ignored.
const memoFormat = "tfdeps-h1-memo/2"

// memoRacyMargin is how much older than the start of hashing every file's
// timestamps must be for a memo to be trusted. It covers filesystem
// timestamp granularity and the lag of the kernel's coarse clock.
const memoRacyMargin = time.Second

// DefaultMemoDir returns the directory of the "h1:" memos, "tfdeps/h1-memo"
// under the user cache directory (userCacheDir is os.UserCacheDir,
// injected), or "" when there is none.
func DefaultMemoDir(userCacheDir func() (string, error)) string {
	base, err := userCacheDir()
	if err != nil || base == "" {
		return ""
	}
	return filepath.Join(base, "tfdeps", "h1-memo")
}

// memoPath returns the path of the "h1:" memo of a package directory:
// MEMODIR/KEY.json with KEY from the directory's real path; "" when h
// keeps no memos or the directory cannot be resolved.
func (h *dirHasher) memoPath(packageDir string) string {
	if h == nil || h.memoDir == "" {
		return ""
	}
	root, err := filepath.EvalSymlinks(packageDir)
	if err != nil {
		return ""
	}
	if root, err = filepath.Abs(root); err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(h.memoDir, hex.EncodeToString(sum[:16])+".json")
}

// h1Memo is the content of a memo file.
type h1Memo struct {
	Format string `json:"format"`
	// Root is the package directory with symlinks resolved.
	Root string `json:"root"`
	// HashedAt is when hashing started, Unix nanoseconds.
	HashedAt int64       `json:"hashed_at"`
	H1       hashes.Hash `json:"h1"`
	Files    []fileStamp `json:"files"`
	// Written: made at install time by the writer of the files (trusted
	// at once, see above).
	Written bool `json:"written,omitempty"`
}

// fileStamp is the fingerprint of one file of a package.
type fileStamp struct {
	Name  string `json:"name"`
	Size  int64  `json:"size"`
	Mode  uint32 `json:"mode"`
	Mtime int64  `json:"mtime"`
	Ctime int64  `json:"ctime"`
	Ino   uint64 `json:"ino"`
	Dev   uint64 `json:"dev"`
}

// dirHasher computes "h1:" hashes of package directories with the memo.
// The zero value hashes with hashes.HashDir and reads the system clock.
type dirHasher struct {
	// memoDir holds the memos ("": none are read or written).
	memoDir string
	// hashDir computes the hash from the content (tests count calls).
	hashDir func(dir string) (hashes.Hash, error)
	// now, when set, is the clock that dates the start of hashing
	// (otherwise the system's and the file system's clocks).
	now func() time.Time
}

func (h *dirHasher) hash(dir string) (hashes.Hash, error) {
	if h != nil && h.hashDir != nil {
		return h.hashDir(dir)
	}
	return hashes.HashDir(dir)
}

// startTime is the start of hashing in Unix nanoseconds: the earlier of
// the clock and the change time of tmp, just created. An injected clock
// stands for both.
func (h *dirHasher) startTime(tmp *os.File) int64 {
	if h != nil && h.now != nil {
		return h.now().UnixNano()
	}
	start := time.Now().UnixNano()
	if info, err := tmp.Stat(); err == nil {
		if st, ok := statFingerprint(info); ok {
			start = min(start, st.Ctime)
		}
	}
	return start
}

// H1 returns hashes.HashDir(dir), from the memo at memo when it is still
// valid ("" or an unsupported platform: no memo). Errors are HashDir's.
func (h *dirHasher) H1(dir, memo string) (hashes.Hash, error) {
	if memo == "" || !memoSupported {
		return h.hash(dir)
	}
	root, before, ok := stampPackage(dir)
	if !ok {
		return h.hash(dir)
	}
	if m, err := readMemo(memo); err == nil && m.valid(root, before) {
		return m.H1, nil
	}
	return h.hashAndRemember(dir, memo, &h1Memo{Format: memoFormat, Root: root, Files: before})
}

// hashAndRemember hashes dir and writes the memo m for it when the files
// did not change while they were read and are old enough to be trusted.
// The start of hashing is the earlier of the clock and the change time of
// the memo's temporary file, created first: that is the file system's own
// clock, in case it runs behind ours.
func (h *dirHasher) hashAndRemember(dir, memo string, m *h1Memo) (hashes.Hash, error) {
	_ = os.MkdirAll(filepath.Dir(memo), 0o755)
	tmp, err := os.CreateTemp(filepath.Dir(memo), filepath.Base(memo)+".tmp*")
	if err != nil {
		return h.hash(dir)
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	start := h.startTime(tmp)
	sum, err := h.hash(dir)
	if err != nil {
		return sum, err
	}
	m.HashedAt, m.H1 = start, sum
	if _, after, ok := stampPackage(dir); ok && slices.Equal(m.Files, after) && m.trusted() {
		_ = commitMemo(tmp, memo, m)
	}
	return sum, nil
}

// valid reports whether m describes the package at root with exactly the
// fingerprints files, and may be trusted.
func (m *h1Memo) valid(root string, files []fileStamp) bool {
	return m.Format == memoFormat && m.Root == root && m.H1.Scheme() == hashes.SchemeH1 &&
		slices.Equal(m.Files, files) && m.trusted()
}

// trusted reports whether every recorded timestamp is older than the
// start of hashing by more than memoRacyMargin.
func (m *h1Memo) trusted() bool {
	if m.Written {
		return true
	}
	limit := m.HashedAt - int64(memoRacyMargin)
	for _, f := range m.Files {
		if f.Mtime >= limit || f.Ctime >= limit {
			return false
		}
	}
	return true
}

// stampPackage fingerprints the files hashes.HashDir(dir) reads, in the
// same order, and returns dir with symlinks resolved. It reports false
// when the memo cannot be used for dir: any error, a name HashDir would
// refuse, or an entry whose content is not a regular file.
func stampPackage(dir string) (string, []fileStamp, bool) {
	root, err := filepath.EvalSymlinks(dir)
	if err == nil {
		root, err = filepath.Abs(root)
	}
	if err != nil {
		return "", nil, false
	}
	var files []fileStamp
	err = filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			return nil
		}
		if path == root {
			return errors.New("not a directory")
		}
		st, err := stampFile(root, path)
		if err == nil {
			files = append(files, st)
		}
		return err
	})
	return root, files, err == nil
}

// stampFile fingerprints the file at path (symlinks followed).
func stampFile(root, path string) (fileStamp, error) {
	name := filepath.ToSlash(path[len(root)+1:])
	if strings.Contains(name, "\n") {
		return fileStamp{}, errors.New("newline in name")
	}
	info, err := os.Stat(path)
	if err != nil {
		return fileStamp{}, err
	}
	if !info.Mode().IsRegular() {
		return fileStamp{}, fmt.Errorf("%s is not a regular file", path)
	}
	st, ok := statFingerprint(info)
	if !ok {
		return fileStamp{}, errors.New("no fingerprint")
	}
	st.Name = name
	return st, nil
}

// readMemo reads and decodes a memo file.
func readMemo(path string) (*h1Memo, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m h1Memo
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	return &m, nil
}

// commitMemo writes m into the temporary file tmp and renames it to
// path.
func commitMemo(tmp *os.File, path string, m *h1Memo) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// rememberWritten records the memo of a package the installer has just
// unpacked: files are the fingerprints taken in the staging directory,
// dir is where the package now is, h1 its hash.
func (h *dirHasher) rememberWritten(dir string, h1 hashes.Hash, files []fileStamp) {
	h.remember(dir, h1, files, slices.Equal[[]fileStamp])
}

// rememberLinked records the memo of a package whose files are links to
// files shared with other package directories (SharedPackages): linking
// them elsewhere changed their change time since files were taken, and
// nothing else may have changed.
func (h *dirHasher) rememberLinked(dir string, h1 hashes.Hash, files []fileStamp) {
	h.remember(dir, h1, files, func(a, b []fileStamp) bool {
		return slices.EqualFunc(a, b, func(x, y fileStamp) bool { x.Ctime, y.Ctime = 0, 0; return x == y })
	})
}

// remember writes dir's memo with its current fingerprints when same
// says they are those taken when it was written (files).
func (h *dirHasher) remember(dir string, h1 hashes.Hash, files []fileStamp, same func(a, b []fileStamp) bool) {
	memo := h.memoPath(dir)
	if memo == "" || !memoSupported || h1.Scheme() != hashes.SchemeH1 {
		return
	}
	root, after, ok := stampPackage(dir)
	if !ok || !same(files, after) {
		return
	}
	if os.MkdirAll(filepath.Dir(memo), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(memo), filepath.Base(memo)+".tmp*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	m := &h1Memo{Format: memoFormat, Root: root, HashedAt: time.Now().UnixNano(), H1: h1, Files: after, Written: true}
	_ = commitMemo(tmp, memo, m)
}
