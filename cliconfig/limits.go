package cliconfig

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode"

	"github.com/tfdeps/tfdeps/internal/nesting"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// MaxFileSize is the largest CLI configuration file read: 4 MiB, thousands
// of times the size of any real one.
const MaxFileSize = 4 << 20

// readLimited reads the file at path, or fails when it is larger than
// MaxFileSize, having read no more than one byte past the limit. A named
// pipe, device or socket is refused without waiting on it.
func readLimited(path string) ([]byte, error) {
	f, err := regfile.Open(path)
	if notRegular := (*regfile.NotRegularError)(nil); errors.As(err, &notRegular) {
		return nil, notRegularError(notRegular)
	}
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

// notRegularError words a refused special file for "Error reading PATH:
// ...", which names the file already.
func notRegularError(err *regfile.NotRegularError) error {
	return errors.New(err.Detail("it"))
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
