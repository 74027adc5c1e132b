// Package ociauth finds the credentials for an OCI registry repository as
// OpenTofu does: oci_credentials blocks of the CLI configuration, the
// docker_credentials_helper of oci_default_credentials, then the Docker and
// Podman style auth files ("ambient" credentials: auths, credHelpers,
// credsStore). Among every candidate the most specific one wins (a longer
// repository path prefix over a shorter one, a repository over a whole
// domain, a domain over a global helper); on a tie the first found wins.
//
// Credential helpers are docker-credential-NAME programs run through
// oras-go's native store. Secrets are never logged or put in errors.
//
// The lookup is exposed as oras-go credential functions, so any oras-go
// client (provider mirrors, module sources) can use the same policy.
package ociauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/credentials"

	"github.com/tfdeps/tfdeps/cliconfig"
)

// maxAuthFile bounds the size of an auth file read.
const maxAuthFile = 4 << 20

// Env is what the policy reads from the machine; zero fields use the
// process's own environment.
type Env struct {
	// Getenv reads XDG_RUNTIME_DIR, XDG_CONFIG_HOME and HOME.
	Getenv func(string) string
	// GOOS chooses the searched locations (runtime.GOOS when empty).
	GOOS string
	// ReadFile reads an auth file.
	ReadFile func(path string) ([]byte, error)
	// Helper runs docker-credential-NAME get for serverURL and returns
	// the username and secret (oras-go's native store when nil).
	Helper func(ctx context.Context, name, serverURL string) (username, secret string, err error)
}

func (e Env) getenv(k string) string {
	if e.Getenv != nil {
		return e.Getenv(k)
	}
	return os.Getenv(k)
}

func (e Env) goos() string {
	if e.GOOS != "" {
		return e.GOOS
	}
	return runtime.GOOS
}

func (e Env) home() string {
	if e.goos() == "windows" {
		if h := e.getenv("USERPROFILE"); h != "" {
			return h
		}
		if h, err := os.UserHomeDir(); err == nil {
			return h
		}
		return "nul:"
	}
	if h := e.getenv("HOME"); h != "" {
		return h
	}
	if u, err := user.Current(); err == nil {
		return u.HomeDir
	}
	return "/"
}

func (e Env) readFile(path string) ([]byte, error) {
	if e.ReadFile != nil {
		return e.ReadFile(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxAuthFile+1))
	if err != nil {
		return nil, err
	}
	if len(src) > maxAuthFile {
		return nil, fmt.Errorf("file is larger than %d bytes", maxAuthFile)
	}
	return src, nil
}

// Policy selects credentials per repository.
type Policy struct {
	env     Env
	configs []config
}

// Specificity orders candidate credentials: 0 does not apply, 1 is a
// global helper, 2 a whole domain, 2+N a repository prefix of N segments.
type Specificity uint

const (
	noMatch      Specificity = 0
	globalMatch  Specificity = 1
	domainMatch  Specificity = 2
	segmentsBase             = uint(domainMatch)
)

// candidate is one possible source of credentials.
type candidate struct {
	spec Specificity
	// static credentials, or helper to run for serverURL.
	cred      auth.Credential
	helper    string
	serverURL string
}

// config is one place credentials come from (a block, a file).
type config interface {
	location() string
	candidates(domain, repo string) ([]candidate, error)
}

// New builds the policy of a CLI configuration (nil: the defaults). It
// reads the auth files now; an explicitly listed file that cannot be read
// or parsed is an error, while problems with the searched locations make
// OpenTofu (and tfdeps) ignore every searched file.
func New(cfg *cliconfig.Config, env Env) (*Policy, error) {
	p := &Policy{env: env}
	if cfg != nil {
		for _, b := range cfg.OCICredentials {
			p.configs = append(p.configs, blockConfig{b})
		}
	}
	d := cfg.OCIDefaults()
	if d.DefaultDockerCredentialHelper != "" {
		p.configs = append(p.configs, globalHelper{d.DefaultDockerCredentialHelper})
	}
	if !d.DiscoverAmbientCredentials {
		return p, nil
	}
	if d.DockerStyleConfigFiles != nil {
		var errs error
		for _, path := range d.DockerStyleConfigFiles {
			src, err := env.readFile(path)
			if err != nil {
				errs = errors.Join(errs, fmt.Errorf("reading %s: %w", path, err))
				continue
			}
			f, err := parseAuthFile(src, path)
			if err != nil {
				errs = errors.Join(errs, fmt.Errorf("parsing %s: %w", path, err))
				continue
			}
			p.configs = append(p.configs, f)
		}
		if errs != nil {
			return nil, fmt.Errorf("discovering ambient OCI registry credentials: failed to read Docker-style config files: %w", errs)
		}
		return p, nil
	}
	var found []config
	var failed bool
	prev := ""
	for _, path := range SearchLocations(env) {
		if path == prev {
			continue
		}
		prev = path
		src, err := env.readFile(path)
		if err != nil {
			if !os.IsNotExist(err) {
				failed = true
			}
			continue
		}
		f, err := parseAuthFile(src, path)
		if err != nil {
			failed = true
			continue
		}
		found = append(found, f)
	}
	if !failed {
		p.configs = append(p.configs, found...)
	}
	return p, nil
}

// SearchLocations lists the auth files searched when the configuration
// names none, in order: Podman's (XDG_RUNTIME_DIR on Linux,
// ~/.config on macOS and Windows, then XDG_CONFIG_HOME or ~/.config), then
// Docker's ~/.docker/config.json and legacy ~/.dockercfg.
func SearchLocations(env Env) []string {
	home := env.home()
	var out []string
	switch env.goos() {
	case "linux":
		if d := env.getenv("XDG_RUNTIME_DIR"); d != "" {
			out = append(out, filepath.Join(d, "containers", "auth.json"))
		}
	case "darwin", "windows":
		out = append(out, filepath.Join(home, ".config", "containers", "auth.json"))
	}
	xdg := env.getenv("XDG_CONFIG_HOME")
	if xdg == "" {
		xdg = filepath.Join(home, ".config")
	}
	return append(out,
		filepath.Join(xdg, "containers", "auth.json"),
		filepath.Join(home, ".docker", "config.json"),
		filepath.Join(home, ".dockercfg"))
}

// Sources returns, for diagnostics, the places the policy considers, in
// order (block labels and file names, never secrets).
func (p *Policy) Sources() []string {
	out := make([]string, len(p.configs))
	for i, c := range p.configs {
		out[i] = c.location()
	}
	return out
}

// ErrNotFound is returned (wrapped) when no credentials apply.
var ErrNotFound = errors.New("no credentials configured")

// Lookup returns the credentials for repository repo ("" for the registry
// as a whole) on domain (host[:port]). It returns ErrNotFound when nothing
// applies; errors of candidate configurations are returned joined.
func (p *Policy) Lookup(ctx context.Context, domain, repo string) (auth.Credential, error) {
	best, err := p.choose(domain, repo)
	if err != nil {
		return auth.EmptyCredential, err
	}
	return p.credential(ctx, best)
}

// Check reports the errors Lookup would meet while choosing the source of
// the credentials, without running any helper; ErrNotFound is no error.
func (p *Policy) Check(domain, repo string) error {
	if p == nil {
		return nil
	}
	if _, err := p.choose(domain, repo); err != nil && !errors.Is(err, ErrNotFound) {
		return err
	}
	return nil
}

func (p *Policy) choose(domain, repo string) (*candidate, error) {
	var best *candidate
	var errs error
	for _, c := range p.configs {
		cands, err := c.candidates(domain, repo)
		if err != nil {
			errs = errors.Join(errs, fmt.Errorf("from %s: %w", c.location(), err))
		}
		for i := range cands {
			if best == nil || cands[i].spec > best.spec {
				best = &cands[i]
			}
		}
	}
	if errs != nil {
		return nil, errs
	}
	if best == nil {
		return nil, fmt.Errorf("%w for %s/%s", ErrNotFound, domain, repo)
	}
	return best, nil
}

func (p *Policy) credential(ctx context.Context, c *candidate) (auth.Credential, error) {
	if c.helper == "" {
		return c.cred, nil
	}
	user, secret, err := p.runHelper(ctx, c.helper, c.serverURL)
	if err != nil {
		return auth.EmptyCredential, fmt.Errorf("from %q credential helper: %w", c.helper, err)
	}
	return auth.Credential{Username: user, Password: secret}, nil
}

func (p *Policy) runHelper(ctx context.Context, name, serverURL string) (string, string, error) {
	if p.env.Helper != nil {
		return p.env.Helper(ctx, name, serverURL)
	}
	c, err := credentials.NewNativeStore(name).Get(ctx, serverURL)
	if err != nil {
		return "", "", fmt.Errorf("%q credential helper failed: %w", name, err)
	}
	if c.AccessToken != "" || c.RefreshToken != "" {
		return "", "", fmt.Errorf("%q credential helper returned OAuth-style credentials, but only username/password-style is allowed from a credential helper", name)
	}
	return c.Username, c.Password, nil
}

// RepositoryCredentialFunc returns an oras-go credential function for one
// repository: it answers with that repository's credentials for its own
// registry and with none for any other host (credentials are never sent
// elsewhere, e.g. to a redirect target). Lookup errors other than "not
// found" are returned.
func (p *Policy) RepositoryCredentialFunc(domain, repo string) auth.CredentialFunc {
	return func(ctx context.Context, hostport string) (auth.Credential, error) {
		if p == nil || hostport != domain {
			return auth.EmptyCredential, nil
		}
		c, err := p.Lookup(ctx, domain, repo)
		if errors.Is(err, ErrNotFound) {
			return auth.EmptyCredential, nil
		}
		return c, err
	}
}

// CredentialFunc returns an oras-go credential function that knows only
// the registry host (as oras-go's clients ask): it uses the credentials
// given for the whole domain or by a helper, not those limited to a
// repository path; use RepositoryCredentialFunc when the repository is
// known.
func (p *Policy) CredentialFunc() auth.CredentialFunc {
	return func(ctx context.Context, hostport string) (auth.Credential, error) {
		return p.RepositoryCredentialFunc(hostport, "")(ctx, hostport)
	}
}

// match returns how specifically the prefix (an oci_credentials label or
// an auths key: a domain, or a domain and repository path) applies to
// repository repo on domain.
func match(prefix, domain, repo string) Specificity {
	if prefix == "" {
		return noMatch
	}
	gotDomain, gotPath := prefix, ""
	if strings.Contains(prefix, "/") {
		var err error
		gotDomain, gotPath, err = cliconfig.ParseOCIRepositoryPrefix(prefix)
		if err != nil {
			return noMatch
		}
	}
	if gotDomain != domain {
		return noMatch
	}
	if gotPath == "" {
		return domainMatch
	}
	want := strings.Split(repo, "/")
	got := strings.Split(gotPath, "/")
	if len(got) > len(want) {
		return noMatch
	}
	for i := range got {
		if got[i] != want[i] {
			return noMatch
		}
	}
	return Specificity(uint(len(got)) + segmentsBase)
}

type blockConfig struct{ b *cliconfig.OCICredentials }

func (c blockConfig) location() string {
	return fmt.Sprintf("explicit oci_credentials %q block", c.b.RepositoryPrefix)
}

func (c blockConfig) candidates(domain, repo string) ([]candidate, error) {
	spec := match(c.b.RepositoryPrefix, domain, repo)
	if spec == noMatch {
		return nil, nil
	}
	switch {
	case c.b.Username != "":
		return []candidate{{spec: spec, cred: auth.Credential{Username: c.b.Username, Password: c.b.Password}}}, nil
	case c.b.AccessToken != "":
		return []candidate{{spec: spec, cred: auth.Credential{AccessToken: c.b.AccessToken, RefreshToken: c.b.RefreshToken}}}, nil
	case c.b.DockerCredentialHelper != "":
		return []candidate{{spec: spec, helper: c.b.DockerCredentialHelper, serverURL: "https://" + domain}}, nil
	}
	return nil, fmt.Errorf("%s has no supported credentials arguments", c.location())
}

type globalHelper struct{ name string }

func (g globalHelper) location() string { return "oci_default_credentials block" }

func (g globalHelper) candidates(domain, _ string) ([]candidate, error) {
	return []candidate{{spec: globalMatch, helper: g.name, serverURL: "https://" + domain}}, nil
}

// authFile is a Docker CLI config.json, Podman auth.json or legacy
// .dockercfg (only the credential parts).
type authFile struct {
	path        string
	Auths       map[string]*struct{ Auth []byte } `json:"auths"`
	CredHelpers map[string]string                 `json:"credHelpers"`
	CredsStore  string                            `json:"credsStore"`
}

func parseAuthFile(src []byte, path string) (*authFile, error) {
	f := &authFile{path: path}
	if err := json.Unmarshal(src, f); err != nil {
		return nil, fmt.Errorf("invalid JSON syntax: %w", err)
	}
	return f, nil
}

func (f *authFile) location() string { return f.path }

func (f *authFile) candidates(domain, repo string) ([]candidate, error) {
	var out []candidate
	var errs error
	keys := make([]string, 0, len(f.Auths))
	for k := range f.Auths {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		a := f.Auths[key]
		if a == nil || len(a.Auth) == 0 {
			continue
		}
		spec := match(key, domain, repo)
		if spec == noMatch {
			continue
		}
		user, pass, ok := strings.Cut(string(a.Auth), ":")
		if !ok {
			errs = errors.Join(errs, fmt.Errorf("auth object for %q in %s does not have base64-encoded username:password pair", key, f.path))
			continue
		}
		out = append(out, candidate{spec: spec, cred: auth.Credential{Username: user, Password: pass}})
	}
	if h := f.CredHelpers[domain]; h != "" {
		out = append(out, candidate{spec: domainMatch, helper: h, serverURL: "https://" + domain})
	}
	if f.CredsStore != "" {
		out = append(out, candidate{spec: globalMatch, helper: f.CredsStore, serverURL: "https://" + domain})
	}
	return out, errs
}
