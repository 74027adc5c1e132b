package config

import (
	"fmt"
	"io"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/internal/nesting"
)

// checkNesting refuses a configuration file nested deeper than
// nesting.MaxDepth levels, holding more than MaxFileTokens tokens, or
// whose templates cost more than MaxTemplateJoin to parse, with the file
// and line where a limit is exceeded.
func checkNesting(name string, src []byte) hcl.Diagnostics {
	syntax := nesting.HCL
	if strings.HasSuffix(name, ".json") {
		syntax = nesting.HCLJSON
	}
	return nesting.LimitsDiagnostics(name, src, syntax, nesting.Limits{Depth: nesting.MaxDepth, Tokens: MaxFileTokens, Joined: MaxTemplateJoin})
}

// MaxFileTokens is the most tokens (as nesting.Limits counts them: about
// what HCL's lexer makes) one configuration file may hold: 3,000,000.
// Parsing and loading a file costs up to about 300 bytes per token at its
// peak, whatever the tokens are (deep brackets, long lists of numbers,
// templates of many interpolations, JSON), so the limit keeps the worst
// file within about 1.2 GB, under the 2 GB the tool allows itself. Real
// files have a token per 3 to 6 bytes: 10 MB of generated resource blocks
// hold about 2.7 million (see the README's limits and bench/memory.sh).
const MaxFileTokens = 3_000_000

// MaxTemplateJoin bounds, in bytes copied, the work HCL's parser does
// joining the literal parts of a file's templates (heredoc lines, lines of
// JSON strings, text around "$${" escapes), which grows with the square
// of a run of parts: 8 GB, a few seconds. A 1 MB heredoc of 80-character
// lines costs about 6.3 GB; 10 MB of them would take hours.
const MaxTemplateJoin = 8_000_000_000

// MaxFileSize is the largest configuration file read: 16 MiB. What a file
// costs to load is bounded by its tokens (MaxFileTokens); this bounds what
// is read at all. Generated .tf.json files of real configurations stay far
// below it.
const MaxFileSize = 16 << 20

// FileTooLargeError is the error of a FileSystem's ReadFile for a file
// larger than MaxFileSize.
type FileTooLargeError struct {
	Name string
}

func (e *FileTooLargeError) Error() string {
	return fmt.Sprintf("%s: file is larger than %d MiB", e.Name, MaxFileSize>>20)
}

// Diagnostic is the error diagnostic for the file. It has no subject: a
// snippet would mean reading the file.
func (e *FileTooLargeError) Diagnostic() *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Configuration file too large",
		Detail:   fmt.Sprintf("The file %q is larger than %d MiB, the most tfdeps reads of one configuration file.", e.Name, MaxFileSize>>20),
	}
}

// readLimited reads what open opens, reading no more than one byte past
// MaxFileSize, and fails with a *FileTooLargeError for name past it.
func readLimited(name string, f io.ReadCloser, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(src) > MaxFileSize {
		return nil, &FileTooLargeError{Name: name}
	}
	return src, nil
}

// MaxModuleFiles is the most configuration files (primary, override and
// test files together) tfdeps reads from one module directory: 10,000,
// some hundred times what real modules hold.
const MaxModuleFiles = 10000

// checkFileCount refuses a module directory with more than MaxModuleFiles
// configuration files, before any is read.
func checkFileCount(dir string, files Files) *hcl.Diagnostic {
	n := len(files.Primary) + len(files.Override) + len(files.Tests)
	if n <= MaxModuleFiles {
		return nil
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Too many configuration files",
		Detail: fmt.Sprintf("The module directory %s holds %d configuration files, more than tfdeps' limit of %d files in one module.",
			dir, n, MaxModuleFiles),
	}
}

// MaxModules is the most module calls a module tree may hold: 10,000, far
// more than real configurations have. It bounds trees that repeat without
// a cycle (each module calling the next twice doubles the tree per level).
const MaxModules = 10000

// countModule counts the module call req as BuildTree follows it. Past
// MaxModules it says to stop, with an error naming the limit and the
// call the first time.
func (b *treeBuilder) countModule(req *ModuleRequest) (stop bool, diag *hcl.Diagnostic) {
	b.modules++
	switch {
	case b.modules <= MaxModules:
		return false, nil
	case b.modules > MaxModules+1:
		return true, nil
	}
	return true, errorDiag("Too many modules", fmt.Sprintf(
		"The module call %s (%s) is module call number %d of this configuration's module tree, more than tfdeps' limit of %d. Check the configuration for module calls that repeat (each module calling the next more than once doubles the tree at every level).",
		modulePathString(req.Path), callPos(req.Call), b.modules, MaxModules), req.Call.DeclRange.Ptr())
}

// RefusedBeforeParsing reports whether the loader refuses the named
// configuration file without parsing it: larger than MaxFileSize, nested
// too deep or holding too many tokens. A caller that would parse the file
// again (for a diagnostic's snippet, say) must not.
func RefusedBeforeParsing(name string, src []byte) bool {
	return len(src) > MaxFileSize || checkNesting(name, src) != nil
}
