package backend

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/tfdeps/tfdeps/flavour"
)

// Contacting a backend, as init does with a backend it configured: Open
// checks the settings as the backend checks them when it is configured
// (the arguments it requires, their forms, credentials that can be read
// without a request) and builds its client; Workspaces lists the
// workspaces the backend holds and ReadState reads one workspace's state,
// as init does to choose the workspace and to collect the providers the
// state records. Nothing is ever written to the backend: where the
// products create the empty state of a workspace that has none, Remote
// reports no state.
//
// The backends that can be contacted are http, s3, gcs and azurerm
// (CanCheck; not azurerm in the Terraform flavour); the local backend's
// files are the caller's. Every effect
// is injected through CheckOptions: the environment, the HTTP client,
// and the context that bounds each call.

// checkTypes are the backend types Open can contact, by flavour. In
// Terraform's, azurerm is not contacted: Terraform's backend is built on
// another Azure SDK, whose requests (the metadata host's answer it
// requires) and errors tfdeps does not reproduce.
var checkTypes = map[flavour.Flavour]map[string]bool{
	flavour.OpenTofu:  {"http": true, "s3": true, "gcs": true, "azurerm": true},
	flavour.Terraform: {"http": true, "s3": true, "gcs": true},
}

// CanCheck reports whether Open can contact backends of type typ in
// flavour f.
func CanCheck(f flavour.Flavour, typ string) bool { return checkTypes[f][typ] }

// MaxStateSize bounds a state read from a backend.
const MaxStateSize = 256 << 20

// ErrWorkspacesNotSupported is a backend's answer, when it has the
// default workspace only, to a request about another one (the products'
// text).
var ErrWorkspacesNotSupported = errors.New("workspaces not supported")

// CheckOptions are the effects a contacted backend uses.
type CheckOptions struct {
	// Flavour is the product whose backend is emulated.
	Flavour flavour.Flavour
	// Getenv reads the environment variables the backends take settings
	// from (nil: no variable is set).
	Getenv func(string) string
	// HTTPClient carries every request (nil: a client of its own over a
	// clone of http.DefaultTransport). A backend that sets TLS options
	// clones the client's transport when it is an *http.Transport.
	HTTPClient *http.Client
	// Body, when not nil, is the body the settings were decoded from
	// (ConfiguredBody): diagnostics about one of its arguments point at
	// it.
	Body hcl.Body
}

// ConfiguredBody is the body Configure decodes for block b: the block
// with the -backend-config overrides merged over it. Diagnostics about an
// argument point where its value came from: the block, a file, or the
// command line.
func ConfiguredBody(f flavour.Flavour, b *Block, o Options) hcl.Body {
	s, ok := Lookup(f, b.Type)
	if !ok {
		return b.Body
	}
	override, diags := overrideBody(o.Overrides, s, &o)
	if diags.HasErrors() || override == nil {
		return b.Body
	}
	return mergeBody{base: b.Body, override: override}
}

func (o *CheckOptions) getenv(name string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(name)
}

func (o *CheckOptions) httpClient() *http.Client {
	if o.HTTPClient != nil {
		return o.HTTPClient
	}
	return &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
}

// transport is a clone of the client's transport, for a backend that
// changes its TLS settings.
func (o *CheckOptions) transport() *http.Transport {
	if t, ok := o.httpClient().Transport.(*http.Transport); ok {
		return t.Clone()
	}
	return http.DefaultTransport.(*http.Transport).Clone()
}

// Remote is a backend configured to be contacted.
type Remote struct {
	// Type is the backend type.
	Type    string
	flavour flavour.Flavour
	c       remoteClient
}

// remoteClient is one backend type's client.
type remoteClient interface {
	workspaces(ctx context.Context) ([]string, error)
	readState(ctx context.Context, workspace string) ([]byte, error)
}

// Validate checks a saved backend's settings as the backend does before
// it makes any request: the arguments it requires and their forms (for
// http: its addresses, headers and TLS material). The diagnostics are
// the backend's own, with the products' texts; with o.Block set, those
// about an argument point at it in the configuration.
func Validate(rec *SavedBackend, o CheckOptions) hcl.Diagnostics {
	s, diags := settingsOf(rec, &o)
	if diags.HasErrors() {
		return diags
	}
	switch rec.Type {
	case "http":
		return validateHTTP(s)
	case "s3":
		return validateS3(s)
	case "gcs":
		return validateGCS(s)
	case "azurerm":
		return validateAzure(s)
	}
	return nil
}

func settingsOf(rec *SavedBackend, o *CheckOptions) (settings, hcl.Diagnostics) {
	if !CanCheck(o.Flavour, rec.Type) {
		return settings{}, hcl.Diagnostics{sourceless(fmt.Sprintf("tfdeps cannot contact backends of type %q", rec.Type))}
	}
	schema, ok := Lookup(o.Flavour, rec.Type)
	if !ok {
		return settings{}, hcl.Diagnostics{sourceless(fmt.Sprintf("unknown backend type %s", rec.Type))}
	}
	v, err := rec.Value(schema)
	if err != nil {
		return settings{}, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to decode current backend config", Detail: err.Error()}}
	}
	return settings{v: v, o: o}, nil
}

// Open configures a saved backend as init does: Validate's checks, then
// the credentials, which some backends check with a request (s3 asks
// STS who the caller is unless skip_credentials_validation is set). It
// returns the backend's client; the diagnostics are as Validate's.
func Open(ctx context.Context, rec *SavedBackend, o CheckOptions) (*Remote, hcl.Diagnostics) {
	s, diags := settingsOf(rec, &o)
	if diags.HasErrors() {
		return nil, diags
	}
	var c remoteClient
	switch rec.Type {
	case "http":
		c, diags = openHTTP(s)
	case "s3":
		c, diags = openS3(ctx, s)
	case "gcs":
		c, diags = openGCS(ctx, s)
	case "azurerm":
		c, diags = openAzure(ctx, s)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return &Remote{Type: rec.Type, flavour: o.Flavour, c: c}, diags
}

// Workspaces lists the backend's workspaces: "default" first, the others
// sorted. A backend with the default workspace only answers
// ErrWorkspacesNotSupported.
func (r *Remote) Workspaces(ctx context.Context) ([]string, error) {
	list, err := r.c.workspaces(ctx)
	if err != nil {
		return nil, err
	}
	if len(list) > 1 {
		sort.Strings(list[1:])
	}
	return list, nil
}

// ReadState reads the state of a workspace; nil when it has none (absent
// or empty). It is at most MaxStateSize bytes.
func (r *Remote) ReadState(ctx context.Context, workspace string) ([]byte, error) {
	b, err := r.c.readState(ctx, workspace)
	if err != nil || len(b) == 0 {
		return nil, err
	}
	return b, nil
}

// StateReadError is a workspace's state that cannot be read. Opening is
// set when the products meet the failure while opening the workspace
// (init reports "Error loading state"), unset when they meet it reading
// the opened workspace's state ("Error refreshing state").
type StateReadError struct {
	Opening bool
	Err     error
}

func (e *StateReadError) Error() string { return e.Err.Error() }
func (e *StateReadError) Unwrap() error { return e.Err }

// OpenState opens a workspace and reads its state, as init does for the
// selected workspace: nil when it has none (where the products would
// create an empty state, tfdeps writes nothing). The error is a
// *StateReadError. The s3 backend first lists the workspaces; gcs and
// azurerm read the state while opening the workspace; http has the
// default workspace only, and reads it while opening it in Terraform's
// flavour, after in OpenTofu's.
func (r *Remote) OpenState(ctx context.Context, workspace string) ([]byte, error) {
	opening := false
	switch r.Type {
	case "http":
		if workspace != "default" {
			return nil, &StateReadError{Opening: true, Err: ErrWorkspacesNotSupported}
		}
		opening = r.flavour == flavour.Terraform
	case "s3":
		list, err := r.c.workspaces(ctx)
		if err != nil {
			return nil, &StateReadError{Opening: true, Err: err}
		}
		opening = !slices.Contains(list, workspace)
	default:
		opening = true
	}
	b, err := r.ReadState(ctx, workspace)
	if err != nil {
		return nil, &StateReadError{Opening: opening, Err: err}
	}
	return b, nil
}

// readAllMax reads a state's body, refusing one larger than MaxStateSize.
func readAllMax(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxStateSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxStateSize {
		return nil, fmt.Errorf("state larger than %d bytes", MaxStateSize)
	}
	return b, nil
}

// settings reads a backend's decoded configuration, with the environment
// variables that stand for arguments left unset.
type settings struct {
	v cty.Value
	o *CheckOptions
}

func (s settings) attr(name string) cty.Value {
	if s.v.IsNull() || !s.v.Type().IsObjectType() || !s.v.Type().HasAttribute(name) {
		return cty.NilVal
	}
	a := s.v.GetAttr(name)
	if a.IsNull() || !a.IsKnown() {
		return cty.NilVal
	}
	return a
}

// str is a string argument, else the first environment variable set,
// else "" (ok false when neither is set).
func (s settings) str(name string, envs ...string) (string, bool) {
	if a := s.attr(name); a != cty.NilVal && a.Type() == cty.String {
		return a.AsString(), true
	}
	for _, e := range envs {
		if v := s.o.getenv(e); v != "" {
			return v, true
		}
	}
	return "", false
}

func (s settings) string(name string, envs ...string) string {
	v, _ := s.str(name, envs...)
	return v
}

// boolean is a bool argument (ok false when unset).
func (s settings) boolean(name string) (bool, bool) {
	if a := s.attr(name); a != cty.NilVal && a.Type() == cty.Bool {
		return a.True(), true
	}
	return false, false
}

func (s settings) isTrue(name string) bool {
	v, _ := s.boolean(name)
	return v
}

// integer is a number argument, else the environment variable env when
// it holds an integer, else def.
func (s settings) integer(name, env string, def int) int {
	if a := s.attr(name); a != cty.NilVal && a.Type() == cty.Number {
		n, _ := a.AsBigFloat().Int64()
		return int(n)
	}
	if env != "" {
		var n int
		if _, err := fmt.Sscan(s.o.getenv(env), &n); err == nil {
			return n
		}
	}
	return def
}

// list is a list or set of strings argument (nil when unset).
func (s settings) list(name string) []string {
	a := s.attr(name)
	if a == cty.NilVal || !a.CanIterateElements() {
		return nil
	}
	var out []string
	for it := a.ElementIterator(); it.Next(); {
		_, v := it.Element()
		if !v.IsNull() && v.Type() == cty.String {
			out = append(out, v.AsString())
		}
	}
	return out
}

// stringMap is a map of strings argument (nil when unset).
func (s settings) stringMap(name string) map[string]string {
	a := s.attr(name)
	if a == cty.NilVal || !a.CanIterateElements() {
		return nil
	}
	out := map[string]string{}
	for it := a.ElementIterator(); it.Next(); {
		k, v := it.Element()
		if !v.IsNull() && v.Type() == cty.String {
			out[k.AsString()] = v.AsString()
		}
	}
	return out
}

// errorAt is an error about argument name: with the body known, its
// subject is the argument's value, or the body itself when the argument
// is unset.
func (s settings) errorAt(name, summary, detail string) *hcl.Diagnostic {
	return s.diagAt(hcl.DiagError, name, summary, detail)
}

// diagAt is a diagnostic about argument name, placed as errorAt places
// it. Terraform places it at the argument only when the block itself
// sets it (then at the value that won, perhaps a -backend-config one);
// an argument set by -backend-config alone is placed at the block.
func (s settings) diagAt(sev hcl.DiagnosticSeverity, name, summary, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: sev, Summary: summary, Detail: detail}
	b := s.o.Body
	if b == nil {
		return d
	}
	d.Subject = b.MissingItemRange().Ptr()
	if m, ok := b.(mergeBody); ok && s.o.Flavour == flavour.Terraform && !bodyHasAttr(m.base, name) {
		return d
	}
	content, _, _ := b.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}})
	if content != nil {
		if a, ok := content.Attributes[name]; ok {
			d.Subject = a.Expr.Range().Ptr()
		}
	}
	return d
}

// bodyHasAttr reports whether body sets argument name (at any depth of
// -backend-config merging).
func bodyHasAttr(body hcl.Body, name string) bool {
	content, _, _ := body.PartialContent(&hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: name}}})
	return content != nil && content.Attributes[name] != nil
}

// wholeBody is a diagnostic about the backend's settings as a whole,
// placed at the block when it is known.
func (s settings) wholeBody(sev hcl.DiagnosticSeverity, summary, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: sev, Summary: summary, Detail: detail}
	if b := s.o.Body; b != nil {
		d.Subject = b.MissingItemRange().Ptr()
	}
	return d
}

// UnsupportedCredentialsError is a backend configured with credentials
// tfdeps cannot use to contact it (the products can).
type UnsupportedCredentialsError struct {
	Type      string
	Supported string
}

func (e *UnsupportedCredentialsError) Error() string {
	return fmt.Sprintf("tfdeps reaches %s backends with %s only", e.Type, e.Supported)
}

// errorDiag is the diagnostic of an error configuring a backend: the
// products' own texts are the summary; tfdeps' limits say what to do.
func errorDiag(err error, f flavour.Flavour) *hcl.Diagnostic {
	var uc *UnsupportedCredentialsError
	if errors.As(err, &uc) {
		return &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Backend not checked: unsupported credentials",
			Detail:   fmt.Sprintf("%s. Run \"%s init\" to check this backend with its other credentials, or init without -backend-check.", uc.Error(), f.Command()),
		}
	}
	return sourceless(err.Error())
}

// sourceless is an error with no place in the configuration: a problem
// the backend found in its settings as a whole, or in reaching it.
func sourceless(summary string) *hcl.Diagnostic {
	return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary}
}
