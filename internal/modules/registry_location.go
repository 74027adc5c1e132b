package modules

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	tfaddr "github.com/opentofu/registry-address/v2"
)

// ModuleLocation implements Registry (modules.md §3.4).
func (r *HTTPRegistry) ModuleLocation(ctx context.Context, pkg tfaddr.ModulePackage, v string) (Location, error) {
	u, err := r.packageURL(ctx, pkg, v+"/download")
	if err != nil {
		return Location{}, err
	}
	resp, body, err := r.get(ctx, pkg.Host, u)
	if err != nil {
		return Location{}, err
	}
	var loc string
	direct, useCreds := false, false
	switch resp.StatusCode {
	case http.StatusNoContent:
		loc = resp.Header.Get("X-Terraform-Get")
	case http.StatusOK:
		var doc struct {
			Location       string          `json:"location"`
			UseCredentials json.RawMessage `json:"use_registry_credentials"`
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			return Location{}, fmt.Errorf("module %q version %q failed to deserialize response body %s: %s", pkg.String(), v, body, err)
		}
		if len(doc.UseCredentials) > 0 {
			if err := json.Unmarshal(doc.UseCredentials, &useCreds); err != nil {
				return Location{}, fmt.Errorf("module %q version %q failed to deserialize response body %s: %s", pkg.String(), v, body, err)
			}
			direct = true
		}
		loc = doc.Location
		if loc == "" {
			loc = resp.Header.Get("X-Terraform-Get")
		}
	case http.StatusNotFound:
		return Location{}, fmt.Errorf("module %q version %q not found", pkg.String(), v)
	default:
		return Location{}, fmt.Errorf("error getting download location for %q: %s resp:%s", pkg.String(), resp.Status, body)
	}
	if loc == "" {
		return Location{}, fmt.Errorf("registry did not return a location for this package")
	}
	if direct {
		return directLocation(pkg, v, u, loc, useCreds)
	}
	if strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "./") || strings.HasPrefix(loc, "../") {
		ref, err := url.Parse(loc)
		if err != nil {
			return Location{}, fmt.Errorf("registry returned invalid package location %q: %s", loc, err)
		}
		loc = u.ResolveReference(ref).String()
	}
	src, err := ParseSource(loc, false)
	if err != nil {
		return Location{}, fmt.Errorf("registry returned invalid package location %q: %s", loc, err)
	}
	if src.Kind != KindRemote {
		return Location{}, fmt.Errorf("registry returned invalid package location %q: must be a direct remote package address", loc)
	}
	return Location{Package: src.Package, Subdir: src.Subdir, Module: pkg, Version: v}, nil
}

func directLocation(pkg tfaddr.ModulePackage, v string, base *url.URL, loc string, useCreds bool) (Location, error) {
	ref, err := url.Parse(loc)
	if err != nil || (ref.Scheme != "" && ref.Scheme != "http" && ref.Scheme != "https") {
		return Location{}, fmt.Errorf("registry returned invalid package URL %q: must be http or https URL", loc)
	}
	if ref.Fragment != "" {
		return Location{}, fmt.Errorf("registry returned invalid package URL %q: must not include fragment part", loc)
	}
	return Location{Direct: true, Package: base.ResolveReference(ref).String(), UseCredentials: useCreds, Module: pkg, Version: v}, nil
}
