package hashes

import (
	"errors"
	"io"
)

// Errors of a single-hash check ([Matches]).
var (
	// ErrZipHashOfDir: a "zh:" hash cannot be checked against a directory.
	ErrZipHashOfDir = errors.New(`ziphash scheme ("zh:" prefix) is not supported for unpacked provider packages`)
	// ErrUnsupportedScheme: the hash's scheme is not one this package computes.
	ErrUnsupportedScheme = errors.New("unsupported hash format (this may require a newer version of OpenTofu)")
)

// Package is a provider package on local storage whose hashes can be
// computed: a [Dir], a [ZipFile] or a [Zip].
type Package interface {
	// H1 returns the package's "h1:" hash.
	H1() (Hash, error)
	// ZH returns the package's "zh:" hash, or ErrZipHashOfDir.
	ZH() (Hash, error)
}

var (
	_ Package = Dir("")
	_ Package = ZipFile("")
	_ Package = Zip{}
)

// Dir is an extracted package directory.
type Dir string

// H1 returns [HashDir] of the directory.
func (d Dir) H1() (Hash, error) { return HashDir(string(d)) }

// ZH always fails: "zh:" is defined for archives only.
func (d Dir) ZH() (Hash, error) { return "", ErrZipHashOfDir }

// ZipFile is the path of a package's zip archive.
type ZipFile string

// H1 returns [HashZipFile] of the archive.
func (z ZipFile) H1() (Hash, error) { return HashZipFile(string(z)) }

// ZH returns [ZipHashFile] of the archive.
func (z ZipFile) ZH() (Hash, error) { return ZipHashFile(string(z)) }

// Zip is a package's zip archive of Size bytes readable through R.
type Zip struct {
	R    io.ReaderAt
	Size int64
}

// H1 returns [HashZip] of the archive.
func (z Zip) H1() (Hash, error) { return HashZip(z.R, z.Size) }

// ZH returns the "zh:" hash of the archive's bytes.
func (z Zip) ZH() (Hash, error) { return ZipHash(io.NewSectionReader(z.R, 0, z.Size)) }

// Matches reports whether p has hash want. A "zh:" hash against a [Dir]
// fails with ErrZipHashOfDir, any scheme but "h1:" and "zh:" with
// ErrUnsupportedScheme.
func Matches(p Package, want Hash) (bool, error) {
	var got Hash
	var err error
	switch want.Scheme() {
	case SchemeH1:
		got, err = p.H1()
	case SchemeZip:
		got, err = p.ZH()
	default:
		return false, ErrUnsupportedScheme
	}
	if err != nil {
		return false, err
	}
	return got == want, nil
}

// MatchesAny reports whether p matches at least one hash of allowed, walking
// the list in order: hashes of unknown schemes are skipped, and so are "zh:"
// hashes when p is a [Dir]; each scheme's value is computed at most once,
// when first needed. An error computing a hash ends the check with it.
func MatchesAny(p Package, allowed []Hash) (bool, error) {
	found := false
	err := walkMatches(p, allowed, func(Hash) bool {
		found = true
		return false
	})
	return found, err
}

// Matching returns every hash of allowed that p matches, in list order,
// with the walk of [MatchesAny].
func Matching(p Package, allowed []Hash) ([]Hash, error) {
	var out []Hash
	err := walkMatches(p, allowed, func(h Hash) bool {
		out = append(out, h)
		return true
	})
	return out, err
}

// walkMatches calls match for each hash of allowed that p matches until
// match returns false.
func walkMatches(p Package, allowed []Hash, match func(Hash) bool) error {
	computed := map[Scheme]Hash{}
	for _, want := range allowed {
		scheme := want.Scheme()
		if !want.Preferred() {
			continue
		}
		got, done := computed[scheme]
		if !done {
			var err error
			got, err = computeScheme(p, scheme)
			if errors.Is(err, ErrZipHashOfDir) {
				got = "" // a directory: never checked against "zh:"
			} else if err != nil {
				return err
			}
			computed[scheme] = got
		}
		if got != "" && got == want && !match(want) {
			return nil
		}
	}
	return nil
}

func computeScheme(p Package, s Scheme) (Hash, error) {
	if s == SchemeH1 {
		return p.H1()
	}
	return p.ZH()
}
