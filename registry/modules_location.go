package registry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/moduleaddr"
)

// ModulePackageLocation is where a registry module version's package is,
// as the download endpoint answered (§3.4). Exactly one of Indirect and
// Direct is set.
type ModulePackageLocation struct {
	// Indirect is a remote (go-getter) address, its subdirectory already
	// joined with the call's subdirectory (no glob expansion, as OpenTofu
	// 1.12.6).
	Indirect *moduleaddr.Remote
	// Direct is an archive hosted by the registry (use_registry_credentials
	// present in the answer), fetched with DownloadModulePackage.
	Direct *DirectModuleLocation
}

// DirectModuleLocation is a registry-hosted archive (§3.5).
type DirectModuleLocation struct {
	// Package is the registry package (no subdirectory).
	Package moduleaddr.Registry
	// Subdir is the call's subdirectory inside the archive ("" for none).
	Subdir string
	// URL is the absolute http(s) URL of the archive.
	URL *url.URL
	// UseRegistryCredentials says whether the package host's credentials
	// are sent with the download.
	UseRegistryCredentials bool
}

// Label is how M5 names the location: OpenTofu prints the location value
// with %s, a Go struct. Indirect: {"ADDR"} with ADDR the remote String().
// Direct (tfdeps' documented deviation from the Go runtime's url.URL dump):
// {{"HOST" "NS" "NAME" "SYSTEM"} "SUBDIR" "URL" B}.
func (l ModulePackageLocation) Label() string {
	switch {
	case l.Indirect != nil:
		return fmt.Sprintf("{%q}", l.Indirect.String())
	case l.Direct != nil:
		d := l.Direct
		return fmt.Sprintf("{{%q %q %q %q} %q %q %t}", d.Package.Host.String(), d.Package.Namespace, d.Package.Name, d.Package.System, d.Subdir, d.URL.String(), d.UseRegistryCredentials)
	}
	return "{}"
}

// ModuleLocation asks the registry where version of src's package is
// (GET BASE/NS/NAME/SYSTEM/VERSION/download) and joins src.Subdir onto the
// answer. Errors carry OpenTofu's texts (all end in M15):
// "module %q version %q not found", "error getting download location for
// %q: %s resp:%s", "module %q version %q failed to deserialize response body
// %s: %s", "registry did not return a location for this package",
// "registry returned invalid package location %q: ...", "registry returned
// invalid package URL %q: ...", plus service, retry and cancel errors.
func (c *Client) ModuleLocation(ctx context.Context, src moduleaddr.Registry, version string) (ModulePackageLocation, error) {
	pkg := src.Package()
	base, err := c.modulesBase(ctx, pkg.Host)
	if err != nil {
		return ModulePackageLocation{}, err
	}
	u, err := moduleEndpoint(base, pkg, version, "download")
	if err != nil {
		return ModulePackageLocation{}, err
	}
	resp, err := c.moduleRequest(ctx, pkg.Host, u, true, nil)
	if err != nil {
		return ModulePackageLocation{}, err
	}
	defer resp.Body.Close()
	body, err := readLimited(resp.Body, metadataLimit)
	if err != nil {
		return ModulePackageLocation{}, fmt.Errorf("error reading response body from registry: %w", err)
	}
	// An indirect location in BitBucket shorthand asks BitBucket's API, as
	// OpenTofu's does, through the default HTTP client.
	if c.settings.Flavour == flavour.Terraform {
		return decodeTerraformModuleLocation(resp.StatusCode, resp.Status, resp.Header, body, src, version, u, moduleaddr.Parser{})
	}
	return decodeModuleLocation(resp.StatusCode, resp.Status, resp.Header, body, src, version, u, moduleaddr.Parser{})
}

// decodeTerraformModuleLocation is Terraform's reading of the download
// answer: 200 and 204 alike, the location only in the X-Terraform-Get
// header (a body's "location", which OpenTofu reads, is ignored), relative
// locations resolved against the download URL.
func decodeTerraformModuleLocation(status int, statusText string, h http.Header, body []byte, src moduleaddr.Registry, version string, u *url.URL, p moduleaddr.Parser) (ModulePackageLocation, error) {
	pkg := src.Package()
	switch status {
	case http.StatusOK, http.StatusNoContent:
	case http.StatusNotFound:
		return ModulePackageLocation{}, fmt.Errorf("module %q version %q not found", pkg.String(), version)
	default:
		return ModulePackageLocation{}, fmt.Errorf("error getting download location for %q: %s resp:%s", pkg.String(), statusText, body)
	}
	raw := h.Get("X-Terraform-Get")
	if raw == "" {
		return ModulePackageLocation{}, fmt.Errorf("failed to get download URL for %q: %s resp:%s", pkg.String(), statusText, body)
	}
	if strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, "../") {
		ref, err := url.Parse(raw)
		if err != nil {
			return ModulePackageLocation{}, fmt.Errorf("invalid relative URL for %q: %s", pkg.String(), err)
		}
		raw = u.ResolveReference(ref).String()
	}
	return indirectLocation(raw, src.Subdir, u, p)
}

// decodeModuleLocation applies the §3.4 answer table.
func decodeModuleLocation(status int, statusText string, h http.Header, body []byte, src moduleaddr.Registry, version string, u *url.URL, p moduleaddr.Parser) (ModulePackageLocation, error) {
	pkg := src.Package()
	switch status {
	case http.StatusOK:
		var v struct {
			Location               string `json:"location"`
			UseRegistryCredentials *bool  `json:"use_registry_credentials"`
		}
		if err := json.Unmarshal(body, &v); err != nil {
			return ModulePackageLocation{}, fmt.Errorf("module %q version %q failed to deserialize response body %s: %w", pkg.String(), version, body, err)
		}
		if v.UseRegistryCredentials != nil {
			return directLocation(v.Location, pkg, src.Subdir, u, *v.UseRegistryCredentials)
		}
		if v.Location == "" {
			return indirectLocation(h.Get("X-Terraform-Get"), src.Subdir, u, p)
		}
		return indirectLocation(v.Location, src.Subdir, u, p)
	case http.StatusNoContent:
		return indirectLocation(h.Get("X-Terraform-Get"), src.Subdir, u, p)
	case http.StatusNotFound:
		return ModulePackageLocation{}, fmt.Errorf("module %q version %q not found", pkg.String(), version)
	}
	return ModulePackageLocation{}, fmt.Errorf("error getting download location for %q: %s resp:%s", pkg.String(), statusText, body)
}

// indirectLocation resolves a relative location against the download URL
// and requires a remote address.
func indirectLocation(raw, subdir string, base *url.URL, p moduleaddr.Parser) (ModulePackageLocation, error) {
	if raw == "" {
		return ModulePackageLocation{}, fmt.Errorf("registry did not return a location for this package")
	}
	if strings.HasPrefix(raw, "/") || strings.HasPrefix(raw, "./") || strings.HasPrefix(raw, "../") {
		ref, err := url.Parse(raw)
		if err != nil {
			return ModulePackageLocation{}, fmt.Errorf("invalid relative URL %q: %w", raw, err)
		}
		raw = base.ResolveReference(ref).String()
	}
	addr, err := p.Parse(raw)
	if err != nil {
		return ModulePackageLocation{}, &InvalidLocationError{Location: raw, Err: err}
	}
	rem, ok := addr.(moduleaddr.Remote)
	if !ok {
		return ModulePackageLocation{}, &InvalidLocationError{Location: raw, Err: errors.New("must be a direct remote package address")}
	}
	if subdir != "" {
		if rem.Subdir != "" {
			rem.Subdir = path.Join(rem.Subdir, subdir)
		} else {
			rem.Subdir = subdir
		}
	}
	return ModulePackageLocation{Indirect: &rem}, nil
}

// directLocation checks a registry-hosted archive URL.
func directLocation(raw string, pkg moduleaddr.Registry, subdir string, base *url.URL, useCreds bool) (ModulePackageLocation, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return ModulePackageLocation{}, fmt.Errorf("registry returned an invalid package URL: %w", err)
	}
	if !u.IsAbs() {
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return ModulePackageLocation{}, fmt.Errorf("registry returned invalid package URL %q: must be http or https URL", raw)
	}
	if u.Fragment != "" {
		return ModulePackageLocation{}, fmt.Errorf("registry returned invalid package URL %q: must not include fragment part", raw)
	}
	return ModulePackageLocation{Direct: &DirectModuleLocation{Package: pkg, Subdir: subdir, URL: u, UseRegistryCredentials: useCreds}}, nil
}

// InvalidLocationError is a download location that is not a remote package
// address: one that does not parse, or a local or registry address.
// OpenTofu reports it as a failure to get the download URL, Terraform with
// its own summary ("Invalid package location from module registry").
type InvalidLocationError struct {
	Location string
	Err      error
}

func (e *InvalidLocationError) Error() string {
	return fmt.Sprintf("registry returned invalid package location %q: %s", e.Location, e.Err)
}

func (e *InvalidLocationError) Unwrap() error { return e.Err }
