package lockfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"
)

// Bytes returns the lock file content for l exactly as "tofu init" (or
// "terraform init", by flavour) writes it: the two header lines, then one
// block per provider in address order, each after an empty line, with
// "version", "constraints" (when not empty) and "hashes" (when not empty).
func (l *Locks) Bytes(flavour Flavour) []byte {
	f := hclwrite.NewEmptyFile()
	body := f.Body()
	body.AppendUnstructuredTokens(hclwrite.Tokens{
		{Type: hclsyntax.TokenComment, Bytes: []byte(header(flavour))},
	})
	for _, p := range l.Providers() {
		body.AppendNewline()
		block := body.AppendNewBlock("provider", []string{p.addr.String()}).Body()
		block.SetAttributeValue("version", cty.StringVal(p.version.String()))
		if c := p.constraints.String(); c != "" {
			block.SetAttributeValue("constraints", cty.StringVal(c))
		}
		if len(p.hashes) > 0 {
			block.SetAttributeRaw("hashes", hashListTokens(p))
		}
	}
	return f.Bytes()
}

// hashListTokens renders the hashes one per line, each with a trailing comma.
func hashListTokens(p *ProviderLock) hclwrite.Tokens {
	toks := hclwrite.Tokens{
		{Type: hclsyntax.TokenOBrack, Bytes: []byte("[")},
		{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")},
	}
	for _, h := range p.hashes {
		toks = append(toks, hclwrite.TokensForValue(cty.StringVal(h.String()))...)
		toks = append(toks,
			&hclwrite.Token{Type: hclsyntax.TokenComma, Bytes: []byte(",")},
			&hclwrite.Token{Type: hclsyntax.TokenNewline, Bytes: []byte("\n")},
		)
	}
	return append(toks, &hclwrite.Token{Type: hclsyntax.TokenCBrack, Bytes: []byte("]")})
}

// WriteFile writes l to path atomically: the content goes to a temporary
// file in the same directory, which is then renamed over path, with mode
// 0644. Temporary files left by killed runs are removed first (see
// RemoveStaleTempFiles). A failure is error L14, naming path as given.
func WriteFile(path string, l *Locks, flavour Flavour) hcl.Diagnostics {
	return WriteFileIn("", path, l, flavour)
}

// WriteFileIn is WriteFile for a path relative to directory dir ("" for
// the current directory): the error names path, and the paths of the
// operating system's errors, relative to dir, as from inside it.
func WriteFileIn(dir, path string, l *Locks, flavour Flavour) hcl.Diagnostics {
	if err := writeAtomic(inDir(dir, path), l.Bytes(flavour)); err != nil {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to update dependency lock file",
			Detail:   fmt.Sprintf("Error while writing new dependency lock information to %s: %s.", path, relativeErr(dir, err)),
		}}
	}
	return nil
}

// inDir is path read from directory dir.
func inDir(dir, path string) string {
	if dir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// relativeErr is err with the path of an *fs.PathError or *os.LinkError
// under dir made relative to dir.
func relativeErr(dir string, err error) error {
	if dir == "" {
		return err
	}
	rel := func(p string) string {
		if r, ok := strings.CutPrefix(p, filepath.Clean(dir)+string(filepath.Separator)); ok {
			return r
		}
		return p
	}
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return &fs.PathError{Op: pe.Op, Path: rel(pe.Path), Err: pe.Err}
	case errors.As(err, &le):
		return &os.LinkError{Op: le.Op, Old: rel(le.Old), New: rel(le.New), Err: le.Err}
	}
	return err
}

func writeAtomic(path string, data []byte) error {
	RemoveStaleTempFiles(path)
	tmp, err := createTemp(path)
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	ok = true
	return nil
}
