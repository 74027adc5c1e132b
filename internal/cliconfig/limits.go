package cliconfig

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"unicode"

	"github.com/tfdeps/tfdeps/internal/nesting"
)

// MaxFileSize is the largest CLI configuration file read: 4 MiB, thousands
// of times the size of any real one.
const MaxFileSize = 4 << 20

// readLimited reads the file at path, or fails when it is larger than
// MaxFileSize, having read no more than one byte past the limit.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, fmt.Errorf("file is larger than %d MiB, the most tfdeps reads", MaxFileSize>>20)
	}
	return src, nil
}

// checkNesting refuses a file nested deeper than nesting.MaxDepth levels
// before the HCL 1 parser, which recurses once per level, sees it. As the
// parser does, it takes a file whose first non-space character is "{" for
// JSON.
func checkNesting(src []byte) error {
	syntax := nesting.HCL
	if t := bytes.TrimLeftFunc(src, unicode.IsSpace); len(t) > 0 && t[0] == '{' {
		syntax = nesting.JSON
	}
	return nesting.Check(src, syntax, nesting.MaxDepth)
}
