package providersource

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/tfdeps/tfdeps/internal/nesting"
	"github.com/tfdeps/tfdeps/versions"
)

// maxMirrorResponse bounds every network mirror JSON document. OpenTofu reads
// them without a bound; real documents are a few kilobytes.
const maxMirrorResponse = 16 << 20

// errResponseTooLarge is returned by limitedReader past its limit.
var errResponseTooLarge = fmt.Errorf("response body is too large (limit %d bytes)", maxMirrorResponse)

// limitedReader fails with errResponseTooLarge instead of returning more than
// n bytes, so that a decoder stops rather than sees a truncated document.
type limitedReader struct {
	r io.Reader
	n int64
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		// Allow a clean EOF exactly at the limit.
		var probe [1]byte
		if n, _ := l.r.Read(probe[:]); n > 0 {
			return 0, errResponseTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= int64(n)
	return n, err
}

// decodeMirrorJSON decodes the first JSON value of r into out, as OpenTofu's
// json.Decoder does (trailing data is ignored).
//
// The document is read whole (up to maxMirrorResponse) and refused if it
// nests deeper than nesting.MaxResponseDepth levels, trailing data
// included.
func decodeMirrorJSON(r io.Reader, out any) error {
	body, err := io.ReadAll(&limitedReader{r: r, n: maxMirrorResponse})
	if errors.Is(err, errResponseTooLarge) {
		return err
	}
	if err == nil {
		if nerr := nesting.Check(body, nesting.JSON, nesting.MaxResponseDepth); nerr != nil {
			return fmt.Errorf("invalid response content from mirror server: %w", nerr)
		}
		err = json.NewDecoder(bytes.NewReader(body)).Decode(out)
	}
	if err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			err = &mirrorTypeError{te}
		}
		return fmt.Errorf("invalid response content from mirror server: %w", err)
	}
	return nil
}

// mirrorTypeError is a JSON type error (a document of the wrong shape) worded
// as OpenTofu's: its decoding types, declared in package getproviders, are
// named there "getproviders.ResponseBody" and
// "getproviders.ResponseArchiveMeta"; ours, of the same names, live in
// package providersource.
type mirrorTypeError struct {
	err *json.UnmarshalTypeError
}

func (e *mirrorTypeError) Error() string {
	return strings.ReplaceAll(e.err.Error(), "providersource.Response", "getproviders.Response")
}

func (e *mirrorTypeError) Unwrap() error { return e.err }

// DecodeMirrorIndex decodes an index.json document: {"versions": {"V": {}}}.
// Version keys that do not parse are skipped; the list is sorted.
func DecodeMirrorIndex(r io.Reader) (versions.List, error) {
	// The type's name shows in type errors: it is OpenTofu's (see
	// mirrorTypeError).
	type ResponseBody struct {
		Versions map[string]struct{} `json:"versions"`
	}
	var doc ResponseBody
	if err := decodeMirrorJSON(r, &doc); err != nil {
		return nil, err
	}
	var list versions.List
	for s := range doc.Versions {
		if v, err := versions.ParseVersion(s); err == nil {
			list = append(list, v)
		}
	}
	// Map order is random in OpenTofu; tfdeps orders metadata variants.
	list.SortByMetadataThenPrecedence()
	return list, nil
}

// MirrorArchive is one platform entry of a VERSION.json document.
type MirrorArchive struct {
	URL    string   `json:"url"`
	Hashes []string `json:"hashes"`
}

// DecodeMirrorVersion decodes a VERSION.json document:
// {"archives": {"OS_ARCH": {"url": "…", "hashes": ["…"]}}}.
func DecodeMirrorVersion(r io.Reader) (map[string]*MirrorArchive, error) {
	// The types' names and the untagged Hashes show in type errors: they
	// are OpenTofu's (see mirrorTypeError).
	type ResponseArchiveMeta struct {
		RelativeURL string `json:"url"`
		Hashes      []string
	}
	type ResponseBody struct {
		Archives map[string]*ResponseArchiveMeta `json:"archives"`
	}
	var doc ResponseBody
	if err := decodeMirrorJSON(r, &doc); err != nil {
		return nil, err
	}
	if doc.Archives == nil {
		return nil, nil
	}
	archives := make(map[string]*MirrorArchive, len(doc.Archives))
	for pl, a := range doc.Archives {
		if a == nil {
			archives[pl] = nil
			continue
		}
		archives[pl] = &MirrorArchive{URL: a.RelativeURL, Hashes: a.Hashes}
	}
	return archives, nil
}
