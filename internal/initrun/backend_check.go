package initrun

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/backend"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
)

// tfdeps records a backend's configuration without contacting it: the
// credentials and reachability of a remote backend are checked by the
// first plan. With -backend-check init does what the reference tool does
// with the backends package backend can contact (http, s3, gcs,
// azurerm; in the Terraform flavour not azurerm): it configures the
// backend, lists its workspaces to check the selected one, and reads the
// selected workspace's state (for the providers it records). The local
// backend's files are always read. This file adapts package backend to
// init's steps and words.

// backendCheckTimeout bounds each contact with a backend.
const backendCheckTimeout = 5 * time.Minute

// contactContext bounds one contact with the backend: by
// backendCheckTimeout, and by an interrupt signal, which ends it at once
// (tofu cancels its requests on an interrupt and reports the backend's
// error; terraform goes on until the backend answers).
func contactContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	ctx, cancel := context.WithTimeout(ctx, backendCheckTimeout)
	return ctx, func() { cancel(); stop() }
}

// errBackendInterrupted is the Terraform flavour's error for a contact
// ended by an interrupt (Terraform itself waits for the backend).
const errBackendInterrupted = "Backend initialization was canceled by an interrupt signal."

// interrupted replaces, in the Terraform flavour, the error of a contact
// ended by an interrupt with a short one; OpenTofu's words it as the
// backend's error, as tofu does.
func (r *initRun) interrupted(ctx context.Context, diags hcl.Diagnostics) hcl.Diagnostics {
	if diags.HasErrors() && r.m.Flavour == flavour.Terraform && errors.Is(ctx.Err(), context.Canceled) {
		return hcl.Diagnostics{errorDiag(errBackendInterrupted, "")}
	}
	return diags
}

// checkedBackend is the backend contacted during this run, kept for the
// steps after the one that configured it.
type checkedBackend struct {
	rec    *backend.SavedBackend
	remote *backend.Remote
	// warnings are the backend's warnings about its settings, reported
	// once the workspace's state is read, with the other warnings.
	warnings hcl.Diagnostics
}

// backendCheckOptions are the effects package backend uses for this run.
func (r *initRun) backendCheckOptions() backend.CheckOptions {
	return backend.CheckOptions{Flavour: r.m.Flavour, Getenv: r.m.Getenv, Body: r.backendBody}
}

// backendCheck validates rec's settings as the backend does when it is
// configured: for http, its addresses, methods and headers (always: no
// request is needed); with -backend-check, the settings of every backend
// tfdeps can contact, and its credentials.
func (r *initRun) backendCheck(rec *backend.SavedBackend, body hcl.Body) hcl.Diagnostics {
	r.backendBody = body
	if rec.Type == "http" {
		if d := r.httpAddressInput(rec); d != nil {
			return hcl.Diagnostics{d}
		}
	}
	if r.opts.backendCheck && backend.CanCheck(r.m.Flavour, rec.Type) {
		_, diags := r.openBackend(rec)
		return diags
	}
	if rec.Type == "http" {
		return backend.Validate(rec, r.backendCheckOptions())
	}
	return nil
}

// openBackend configures rec's backend for this run, once.
func (r *initRun) openBackend(rec *backend.SavedBackend) (*backend.Remote, hcl.Diagnostics) {
	if c := r.checkedBackend; c != nil && c.rec == rec {
		return c.remote, nil
	}
	ctx, cancel := contactContext()
	defer cancel()
	remote, diags := backend.Open(ctx, rec, r.backendCheckOptions())
	if diags.HasErrors() {
		return nil, r.interrupted(ctx, diags)
	}
	r.checkedBackend = &checkedBackend{rec: rec, remote: remote, warnings: diags}
	return remote, nil
}

// remoteWorkspaces lists the workspaces of rec's backend with
// -backend-check; skip is set when there is nothing to check (no
// -backend-check, a backend tfdeps cannot contact, or one without
// workspaces).
func (r *initRun) remoteWorkspaces(rec *backend.SavedBackend) (list []string, skip bool, diags hcl.Diagnostics) {
	if !r.opts.backendCheck || !backend.CanCheck(r.m.Flavour, rec.Type) {
		return nil, true, nil
	}
	remote, diags := r.openBackend(rec)
	if diags.HasErrors() {
		return nil, false, diags
	}
	ctx, cancel := contactContext()
	defer cancel()
	list, err := remote.Workspaces(ctx)
	switch {
	case errors.Is(err, backend.ErrWorkspacesNotSupported):
		return nil, true, nil
	case err != nil:
		return nil, false, r.interrupted(ctx, hcl.Diagnostics{errorDiag("Failed to get existing workspaces: "+err.Error(), "")})
	case len(list) == 0:
		return nil, false, hcl.Diagnostics{errorDiag(strings.TrimSpace(fmt.Sprintf(errBackendNoWorkspaces, r.m.Flavour.Command())), "")}
	}
	return list, false, nil
}

// errBackendNoWorkspaces is the products' error for a backend without
// any workspace.
const errBackendNoWorkspaces = `
No existing workspaces.

Use the "%s workspace" command to create and select a new workspace.
If the backend already contains existing workspaces, you may need to update
the backend configuration.
`

// remoteStateEmpty reports, with -backend-check, whether a remote
// backend holds nothing a migration would copy: the default workspace
// only, its state absent or without resources and outputs.
func (r *initRun) remoteStateEmpty(saved *backend.SavedBackend) bool {
	if !r.opts.backendCheck || !backend.CanCheck(r.m.Flavour, saved.Type) {
		return false
	}
	list, _, diags := r.remoteWorkspaces(saved)
	if diags.HasErrors() || len(list) > 1 {
		return false
	}
	remote, _ := r.openBackend(saved)
	ctx, cancel := contactContext()
	defer cancel()
	body, err := remote.ReadState(ctx, "default")
	return err == nil && (body == nil || !backend.StateHasContent(body))
}

// httpAddressInput handles an http backend configured without an
// address (none in the block, -backend-config or TF_HTTP_ADDRESS): as
// tofu init, it asks for one when input is enabled, recording the answer
// with the settings; otherwise (and always in the Terraform flavour,
// whose schema has the address optional) the backend's error.
func (r *initRun) httpAddressInput(rec *backend.SavedBackend) *hcl.Diagnostic {
	if !backend.HTTPAddressMissing(rec, r.backendCheckOptions()) {
		return nil
	}
	required := errorDiag(backend.HTTPAddressRequired(r.m.Flavour), "")
	dec := json.NewDecoder(bytes.NewReader(rec.Config))
	dec.UseNumber()
	var cfg map[string]any
	if err := dec.Decode(&cfg); err != nil || cfg == nil {
		return required
	}
	if r.opts.json || !inputEnabled(r.m, r.opts.input) || r.m.Flavour == flavour.Terraform {
		return required
	}
	answer, ok := r.m.promptBackendArgument("address", "The address of the REST endpoint")
	if !ok {
		return errorDiag(`Error asking for input to configure backend "http": address: input canceled`, "")
	}
	cfg["address"] = answer
	out, err := json.Marshal(cfg)
	if err != nil {
		return required
	}
	rec.Config = out
	return nil
}

// promptBackendArgument asks for a backend argument on standard input,
// as tofu init asks for a required one left unset.
func (m *Env) promptBackendArgument(name, description string) (string, bool) {
	text := fmt.Sprintf("[reset][bold]%s[reset]\n  %s\n\n  [bold]Enter a value:[reset] ", name, description)
	fmt.Fprint(m.Stdout, diagrender.Colorize(text, m.Color))
	line, err := bufio.NewReader(m.Stdin).ReadString('\n')
	if err != nil && line == "" {
		return "", false
	}
	fmt.Fprint(m.Stdout, "\n")
	return strings.TrimRight(line, "\r\n"), true
}

// openRemoteState opens workspace ws of a remote backend, as init does
// to read the providers its state records: the http backend has only
// the default workspace (checked without -backend-check too); with
// -backend-check the state is read (kept in r.remoteState for the
// provider requirements). The products report a failure to open the
// workspace as "Error loading state", to read its state as "Error
// refreshing state" (Terraform: as one summary).
func (r *initRun) openRemoteState(rec *backend.SavedBackend, ws string) hcl.Diagnostics {
	if rec.Type == "http" && ws != "default" {
		return hcl.Diagnostics{r.stateDiag("Error loading state", backend.ErrWorkspacesNotSupported)}
	}
	if !r.opts.backendCheck || !backend.CanCheck(r.m.Flavour, rec.Type) {
		return nil
	}
	remote, diags := r.openBackend(rec)
	if diags.HasErrors() {
		return diags
	}
	ctx, cancel := contactContext()
	defer cancel()
	body, err := remote.OpenState(ctx, ws)
	var se *backend.StateReadError
	switch {
	case errors.As(err, &se) && se.Opening:
		return r.interrupted(ctx, hcl.Diagnostics{r.stateDiag("Error loading state", se.Err)})
	case errors.As(err, &se):
		return r.interrupted(ctx, hcl.Diagnostics{r.stateDiag("Error refreshing state", se.Err)})
	case err != nil:
		return r.interrupted(ctx, hcl.Diagnostics{r.stateDiag("Error refreshing state", err)})
	}
	r.remoteState = body
	warnings := r.checkedBackend.warnings
	r.checkedBackend.warnings = nil
	return warnings
}

// stateDiag is the error of a workspace's state that cannot be opened or
// read.
func (r *initRun) stateDiag(summary string, err error) *hcl.Diagnostic {
	if r.m.Flavour == flavour.Terraform {
		return errorDiag(summary+": "+err.Error(), "")
	}
	return errorDiag(summary, err.Error())
}

// remoteStateFile writes a state read from a remote backend to a
// temporary file, for the provider requirements (which read a file); the
// returned function removes it.
func remoteStateFile(state []byte) (string, func(), error) {
	f, err := os.CreateTemp("", "tfdeps-remote-state-*.tfstate")
	if err != nil {
		return "", func() {}, err
	}
	name := f.Name()
	_, err = f.Write(state)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return name, func() { os.Remove(name) }, err
}
