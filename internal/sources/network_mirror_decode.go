package sources

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

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
		return fmt.Errorf("invalid response content from mirror server: %w", err)
	}
	return nil
}

// DecodeMirrorIndex decodes an index.json document: {"versions": {"V": {}}}.
// Version keys that do not parse are skipped; the list is sorted.
func DecodeMirrorIndex(r io.Reader) (versions.List, error) {
	var doc struct {
		Versions map[string]struct{} `json:"versions"`
	}
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
	var doc struct {
		Archives map[string]*MirrorArchive `json:"archives"`
	}
	if err := decodeMirrorJSON(r, &doc); err != nil {
		return nil, err
	}
	return doc.Archives, nil
}
