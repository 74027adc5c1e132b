package lockfile

import (
	"bytes"
	"fmt"
	"io"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/nesting"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// MaxFileSize is the largest lock file ReadFile reads: 8 MiB, some
// thousand times a lock file of a hundred providers with every platform's
// hashes. Reading parses the whole file, with memory a small multiple of
// its size, so the limit also bounds the reader's memory.
const MaxFileSize = 8 << 20

// readLimited reads the file at path, or returns errTooLarge when it has
// more than MaxFileSize bytes, having read no more than one byte past the
// limit. A regular file is read into a buffer of its size; a named pipe,
// device or socket is a *regfile.NotRegularError, without waiting on it.
func readLimited(path string) ([]byte, error) {
	f, err := regfile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var buf bytes.Buffer
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		if info.Size() > MaxFileSize {
			return nil, errTooLarge
		}
		buf.Grow(int(info.Size()) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxFileSize+1)); err != nil {
		return nil, err
	}
	src := buf.Bytes()
	if len(src) > MaxFileSize {
		return nil, errTooLarge
	}
	return src, nil
}

var errTooLarge = fmt.Errorf("larger than %d bytes", MaxFileSize)

// tooLargeDiagnostic is the error for a lock file over MaxFileSize.
func tooLargeDiagnostic(path string, f Flavour) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Dependency lock file too large",
		Detail: fmt.Sprintf("The dependency lock file %q is larger than %d MiB, the most tfdeps reads. "+
			"A lock file of this size was not written by %s or tfdeps.", path, MaxFileSize>>20, f.Product()),
	}
}

// notRegularDiagnostic is the error for a lock file that is a named pipe,
// device or socket.
func notRegularDiagnostic(path string, err *regfile.NotRegularError) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Failed to read file",
		Detail:   err.Detail(fmt.Sprintf("The dependency lock file %q", path)),
	}
}

// checkNesting refuses a lock file nested deeper than nesting.MaxDepth
// levels, before the parser could exhaust the stack.
func checkNesting(filename string, src []byte) hcl.Diagnostics {
	return nesting.CheckDiagnostics(filename, src, nesting.HCL, nesting.MaxDepth)
}
