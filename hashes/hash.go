package hashes

import (
	"errors"
	"slices"
	"strings"
)

// Scheme is the prefix of a hash string, colon included ("h1:", "zh:").
type Scheme string

// The hash schemes this package can compute.
const (
	// SchemeH1 is dirhash Hash1 over the package's files.
	SchemeH1 Scheme = "h1:"
	// SchemeZip is the lower-case hex SHA-256 of the zip archive's bytes.
	SchemeZip Scheme = "zh:"
)

// ErrMissingScheme is the error of [Parse] for a string without a scheme.
var ErrMissingScheme = errors.New("hash string must start with a scheme keyword followed by a colon")

// Hash is one hash string, scheme included, such as
// "h1:M3DR13qgXTa/ivVFH2A1n2e2smmuZ87MJJhJKV3bVxY=". Hashes of schemes this
// package does not know are valid values: they are kept, compared and sorted
// like the others but never match a package. The zero Hash is "no hash".
type Hash string

// Parse checks that s starts with a scheme keyword followed by a colon and
// returns it as a Hash. It does not check the value after the scheme.
func Parse(s string) (Hash, error) {
	if strings.IndexByte(s, ':') < 1 {
		return "", ErrMissingScheme
	}
	return Hash(s), nil
}

// String returns the hash string, scheme included.
func (h Hash) String() string { return string(h) }

// Scheme returns the hash's scheme, colon included, or "" for a string
// without one.
func (h Hash) Scheme() Scheme {
	i := strings.IndexByte(string(h), ':')
	if i < 1 {
		return ""
	}
	return Scheme(h[:i+1])
}

// Value returns the part after the scheme.
func (h Hash) Value() string {
	return strings.TrimPrefix(string(h), string(h.Scheme()))
}

// Preferred reports whether h has a scheme this package can check ("h1:" or
// "zh:"). Only preferred hashes are used for verification.
func (h Hash) Preferred() bool {
	s := h.Scheme()
	return s == SchemeH1 || s == SchemeZip
}

// Preferred returns the preferred hashes of hs, in their original order.
func Preferred(hs []Hash) []Hash {
	var out []Hash
	for _, h := range hs {
		if h.Preferred() {
			out = append(out, h)
		}
	}
	return out
}

// SortedUnique returns a sorted copy of hs (byte order of the whole
// string) without duplicates: the form an installer records.
func SortedUnique(hs []Hash) []Hash {
	if len(hs) == 0 {
		return nil
	}
	out := slices.Clone(hs)
	slices.Sort(out)
	return slices.Compact(out)
}

// Strings returns hs as plain strings.
func Strings(hs []Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = string(h)
	}
	return out
}
