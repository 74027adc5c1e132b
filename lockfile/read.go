package lockfile

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// DefaultTofuVersion is the OpenTofu version named in the module-block
// warning when [ReadOptions] gives none.
const DefaultTofuVersion = flavour.DefaultOpenTofuVersion

// ReadOptions adjust how a lock file is read.
type ReadOptions struct {
	// Flavour selects the product whose diagnostics are given (see
	// terraform.go for what differs) and the default host of addresses
	// that name none.
	Flavour Flavour
	// TofuVersion is the emulated version of the flavour's product, named
	// in the warning about module blocks; empty means the flavour's
	// default version (DefaultTofuVersion for OpenTofu).
	TofuVersion string
	// Dir is the directory a relative path is read from ("" for the
	// current directory); diagnostics name the path as given.
	Dir string
}

var fileSchema = &hcl.BodySchema{
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "provider", LabelNames: []string{"source_addr"}},
		{Type: "module", LabelNames: []string{"path"}},
	},
}

// ReadFile reads the lock file at path with [Read]. A file that does not
// exist gives empty selections and no diagnostics, as for a configuration
// that was never initialised; the returned file is then nil. A file larger
// than MaxFileSize is an error.
func ReadFile(path string, opts ReadOptions) (*Locks, *hcl.File, hcl.Diagnostics) {
	src, err := readLimited(inDir(opts.Dir, path))
	if errors.Is(err, fs.ErrNotExist) {
		return New(), nil, nil
	}
	if errors.Is(err, errTooLarge) {
		return New(), nil, hcl.Diagnostics{tooLargeDiagnostic(path, opts.Flavour)}
	}
	if notRegular := (*regfile.NotRegularError)(nil); errors.As(err, &notRegular) {
		return New(), nil, hcl.Diagnostics{notRegularDiagnostic(path, notRegular)}
	}
	if err != nil {
		return New(), nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to read file",
			Detail:   fmt.Sprintf("The configuration file %q could not be read.", path),
		}}
	}
	return Read(src, path, opts)
}

// Read parses and validates a lock file whose content is src; filename is
// used in diagnostic ranges. It returns every selection it could decode,
// even when there are errors (callers treat any error as fatal), together
// with the file for rendering source snippets (its Bytes; its Body is
// empty when the file was read without the HCL parser). Hashes are kept in
// file order, duplicates included.
//
// Memory: a file as OpenTofu writes it (the plain syntax of plain.go) is
// read with memory a small multiple of its size. Any other file is parsed
// with the HCL parser, which needs about a hundred times the file, so it
// must be at most maxGeneralSyntaxSize (256 KiB), and nested at most
// nesting.MaxDepth levels (checked before parsing).
func Read(src []byte, filename string, opts ReadOptions) (*Locks, *hcl.File, hcl.Diagnostics) {
	text := string(src)
	n, bad, plain := scanPlain(text)
	if plain {
		locks, diags := readPlain(text, filename, n, opts.Flavour)
		return locks, &hcl.File{Body: hcl.EmptyBody(), Bytes: src}, diags
	}
	if diags := checkNesting(filename, src); diags != nil {
		return New(), &hcl.File{Body: hcl.EmptyBody(), Bytes: src}, diags
	}
	if len(src) > maxGeneralSyntaxSize {
		return New(), &hcl.File{Body: hcl.EmptyBody(), Bytes: src}, hcl.Diagnostics{notPlainDiagnostic(filename, bad, opts.Flavour)}
	}
	return readParsed(src, filename, opts)
}

// readParsed reads src with the HCL parser.
func readParsed(src []byte, filename string, opts ReadOptions) (*Locks, *hcl.File, hcl.Diagnostics) {
	locks := New()
	file, diags := hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
	if file == nil || file.Body == nil {
		return locks, file, diags
	}
	content, moreDiags := file.Body.Content(fileSchema)
	diags = append(diags, moreDiags...)
	if opts.TofuVersion == "" {
		opts.TofuVersion = opts.Flavour.DefaultVersion()
	}
	d := decoder{opts: opts, locks: locks, seen: map[addrs.Provider]hcl.Range{}}
	for _, block := range content.Blocks {
		if stop, more := errorLimit(diags, block.TypeRange); stop {
			diags = append(diags, more...)
			break
		}
		diags = append(diags, d.block(block, maxDiagnostics-len(diags))...)
	}
	return locks, file, diags
}

// decoder holds the state of decoding one file's blocks.
type decoder struct {
	opts       ReadOptions
	locks      *Locks
	seen       map[addrs.Provider]hcl.Range
	seenModule bool
}

func (d *decoder) block(block *hcl.Block, room int) hcl.Diagnostics {
	if block.Type == "module" {
		if d.seenModule {
			return nil
		}
		d.seenModule = true
		product := d.opts.Flavour.Product()
		return hcl.Diagnostics{{
			Severity: hcl.DiagWarning,
			Summary:  "Dependency locks for modules are not yet supported",
			Detail: fmt.Sprintf("%s v%s only supports dependency locks for providers, not for modules. "+
				"This configuration may be intended for a later version of %s that also supports dependency locks for modules.",
				product, d.opts.TofuVersion, product),
			Subject: block.TypeRange.Ptr(),
		}}
	}
	lock, diags := decodeProviderBlock(block, d.opts.Flavour, room)
	if lock == nil {
		return diags
	}
	if prev, dup := d.seen[lock.addr]; dup {
		return append(diags, duplicateDiagnostic(lock.addr, prev, block.TypeRange))
	}
	d.seen[lock.addr] = block.DefRange
	d.locks.setRead(lock)
	return diags
}

func duplicateDiagnostic(addr addrs.Provider, prev, typeRange hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Duplicate provider lock",
		Detail:   fmt.Sprintf("This lockfile already declared a lock for provider %s at %s.", addr, prev),
		Subject:  typeRange.Ptr(),
	}
}

// maxDiagnostics is the number of errors after which reading stops: each
// diagnostic costs a few hundred bytes, more than the bytes of file that
// can cause one, so this bounds the reader's memory. A hashes list stops at
// the limit, and no block is read once it is reached; one more diagnostic
// says so.
const maxDiagnostics = 1000

func tooManyErrors(subject hcl.Range) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Too many errors in the dependency lock file",
		Detail:   "tfdeps stopped reading the dependency lock file after 1,000 errors.",
		Subject:  subject.Ptr(),
	}
}

// errorLimit reports whether reading stops before the block at subject,
// with the diagnostic to add (none when a hashes list already added it).
func errorLimit(diags hcl.Diagnostics, subject hcl.Range) (bool, hcl.Diagnostics) {
	if len(diags) < maxDiagnostics {
		return false, nil
	}
	if last := diags[len(diags)-1]; last.Summary == "Too many errors in the dependency lock file" {
		return true, nil
	}
	return true, hcl.Diagnostics{tooManyErrors(subject)}
}
