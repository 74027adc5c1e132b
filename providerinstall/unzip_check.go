package providerinstall

import (
	"archive/zip"
	"fmt"
	"io"
	"io/fs"
	"path"
	"strings"

	"github.com/tfdeps/tfdeps/hashes"
)

// ArchiveProblem says why Extract refused an archive.
type ArchiveProblem int

// The reasons for refusing an archive.
const (
	// ProblemEmpty: the archive has no entries.
	ProblemEmpty ArchiveProblem = iota + 1
	// ProblemDotDot: an entry name has a ".." element ("/" or "\" separated).
	ProblemDotDot
	// ProblemAbsolute: an entry name is an absolute path.
	ProblemAbsolute
	// ProblemLinkOutside: a symbolic-link entry points outside the package.
	ProblemLinkOutside
	// ProblemBadName: an entry name cannot name a file in the package.
	ProblemBadName
	// ProblemTooManyEntries: more entries than ExtractOptions.MaxEntries.
	ProblemTooManyEntries
	// ProblemTooLarge: more uncompressed bytes than ExtractOptions.MaxBytes.
	ProblemTooLarge
)

// ArchiveError is a provider package archive refused by Extract. The texts
// for ProblemEmpty and ProblemDotDot are OpenTofu's.
type ArchiveError struct {
	Problem ArchiveProblem
	// Archive is the archive's name as given to Extract.
	Archive string
	// Entry is the offending entry's name, if one is to blame.
	Entry string
	// Target is the link target of a ProblemLinkOutside entry.
	Target string
	// Limit is the exceeded limit of ProblemTooManyEntries/ProblemTooLarge.
	Limit int64
}

func (e *ArchiveError) Error() string {
	switch e.Problem {
	case ProblemEmpty:
		return "empty archive: " + e.Archive
	case ProblemDotDot:
		return "entry contains '..': " + e.Entry
	case ProblemAbsolute:
		return "entry has an absolute path: " + e.Entry
	case ProblemLinkOutside:
		return fmt.Sprintf("entry is a symbolic link pointing outside the package: %s -> %s", e.Entry, e.Target)
	case ProblemBadName:
		return fmt.Sprintf("entry name is not a valid file name: %q", e.Entry)
	case ProblemTooManyEntries:
		return fmt.Sprintf("archive %s has more than %d entries", e.Archive, e.Limit)
	case ProblemTooLarge:
		return fmt.Sprintf("archive %s unpacks to more than %d bytes", e.Archive, e.Limit)
	}
	return "invalid archive: " + e.Archive
}

// maxLinkTarget bounds the stored target of a symbolic-link entry.
const maxLinkTarget = 4096

// plannedEntry is a checked archive entry.
type plannedEntry struct {
	file *zip.File
	// rel is the cleaned slash-separated path below the package root.
	rel  string
	kind fs.FileMode // fs.ModeDir, fs.ModeSymlink or 0 (regular file)
}

// planEntries checks every entry of an archive before anything is written.
func planEntries(files []*zip.File, archive string, opts ExtractOptions) ([]plannedEntry, error) {
	if len(files) == 0 {
		return nil, &ArchiveError{Problem: ProblemEmpty, Archive: archive}
	}
	if len(files) > opts.MaxEntries {
		return nil, &ArchiveError{Problem: ProblemTooManyEntries, Archive: archive, Limit: int64(opts.MaxEntries)}
	}
	var declared uint64
	planned := make([]plannedEntry, 0, len(files))
	for _, f := range files {
		e, err := planEntry(f, archive)
		if err != nil {
			return nil, err
		}
		// Compared before adding, so that sizes summing past 2^64 cannot
		// wrap around to a small total.
		if f.UncompressedSize64 > uint64(opts.MaxBytes)-declared {
			return nil, &ArchiveError{Problem: ProblemTooLarge, Archive: archive, Limit: opts.MaxBytes}
		}
		declared += f.UncompressedSize64
		if declared > uint64(opts.MaxBytes) {
			return nil, &ArchiveError{Problem: ProblemTooLarge, Archive: archive, Limit: opts.MaxBytes}
		}
		planned = append(planned, e)
	}
	return planned, nil
}

func planEntry(f *zip.File, archive string) (plannedEntry, error) {
	name := f.Name
	if hasDotDot(name) {
		return plannedEntry{}, &ArchiveError{Problem: ProblemDotDot, Archive: archive, Entry: name}
	}
	if isAbsoluteName(name) {
		return plannedEntry{}, &ArchiveError{Problem: ProblemAbsolute, Archive: archive, Entry: name}
	}
	e := plannedEntry{file: f, rel: path.Clean(name)}
	mode := f.Mode()
	switch {
	case mode.IsDir():
		e.kind = fs.ModeDir
		return e, nil
	case e.rel == "." || strings.ContainsRune(name, 0):
		return plannedEntry{}, &ArchiveError{Problem: ProblemBadName, Archive: archive, Entry: name}
	case strings.Contains(e.rel, "\n"):
		return plannedEntry{}, hashes.ErrNewlineName
	case mode&fs.ModeSymlink != 0:
		e.kind = fs.ModeSymlink
		return e, checkLinkInside(f, e.rel, archive)
	}
	return e, nil
}

// hasDotDot reports whether name has a ".." element, with both "/" and "\"
// as separators (the check OpenTofu applies).
func hasDotDot(name string) bool {
	if !strings.Contains(name, "..") {
		return false
	}
	for _, elem := range strings.FieldsFunc(name, isSeparator) {
		if elem == ".." {
			return true
		}
	}
	return false
}

func isSeparator(r rune) bool { return r == '/' || r == '\\' }

// isAbsoluteName reports whether name is rooted on any platform: a leading
// slash or backslash, or a Windows drive letter.
func isAbsoluteName(name string) bool {
	if name == "" {
		return false
	}
	if isSeparator(rune(name[0])) {
		return true
	}
	return len(name) >= 2 && name[1] == ':' && isLetter(name[0])
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// checkLinkInside reads a symbolic-link entry's target and refuses it when
// it is absolute or leaves the package root.
func checkLinkInside(f *zip.File, rel, archive string) error {
	rc, err := f.Open()
	if err != nil {
		return err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxLinkTarget+1))
	if err != nil {
		return err
	}
	target := string(b)
	outside := &ArchiveError{Problem: ProblemLinkOutside, Archive: archive, Entry: f.Name, Target: target}
	if len(b) > maxLinkTarget || target == "" || isAbsoluteName(target) || hasDotDotOutside(rel, target) {
		return outside
	}
	return nil
}

// hasDotDotOutside reports whether target, relative to the directory of
// the link at rel, climbs above the package root at any step.
func hasDotDotOutside(rel, target string) bool {
	depth := strings.Count(path.Dir(rel), "/") + 1
	if path.Dir(rel) == "." {
		depth = 0
	}
	for _, elem := range strings.FieldsFunc(target, isSeparator) {
		switch elem {
		case ".":
		case "..":
			depth--
			if depth < 0 {
				return true
			}
		default:
			depth++
		}
	}
	return false
}
