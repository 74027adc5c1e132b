package requirements

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/regfile"
)

// StateResource is one resource of a state file, reduced to what
// requirements need.
type StateResource struct {
	// Address is the resource address, e.g. module.a.data.aws_ami.x.
	Address string
	// Module is the module path part of the address ("" for the root).
	Module   string
	Provider addrs.Provider
}

// ReadStateFile reads the resources of a state file (format version 4, as
// written by OpenTofu and Terraform since 0.12). A missing file gives no
// resources and no diagnostics. readFile nil means regfile.ReadFile (a named
// pipe or device is refused, not waited on).
func ReadStateFile(name string, readFile func(string) ([]byte, error), f flavour.Flavour) ([]StateResource, hcl.Diagnostics) {
	if readFile == nil {
		readFile = regfile.ReadFile
	}
	src, err := readFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, stateError(name, err.Error())
	}
	return ParseState(name, src, f)
}

// ParseState reads the resources of state file contents; name is used in
// messages only.
func ParseState(name string, src []byte, f flavour.Flavour) ([]StateResource, hcl.Diagnostics) {
	var st struct {
		Version   *int `json:"version"`
		Resources []struct {
			Module   string `json:"module"`
			Mode     string `json:"mode"`
			Type     string `json:"type"`
			Name     string `json:"name"`
			Provider string `json:"provider"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(src, &st); err != nil {
		return nil, stateError(name, "the file is not valid JSON: "+err.Error())
	}
	if st.Version == nil || *st.Version != 4 {
		return nil, stateError(name, fmt.Sprintf("tfdeps reads only state format version 4 (OpenTofu, and Terraform since v0.12); run \"%s refresh\" with %s release to upgrade it", f.Command(), releaseOf(f)))
	}
	var out []StateResource
	var diags hcl.Diagnostics
	for _, r := range st.Resources {
		addr := r.Type + "." + r.Name
		if r.Mode == "data" {
			addr = "data." + addr
		}
		if r.Module != "" {
			addr = r.Module + "." + addr
		}
		p, err := parseStateProvider(r.Provider)
		if err != nil {
			diags = append(diags, stateError(name, fmt.Sprintf("resource %s has an invalid provider address %q: %s", addr, r.Provider, err))...)
			continue
		}
		out = append(out, StateResource{Address: addr, Module: r.Module, Provider: p})
	}
	return out, diags
}

// parseStateProvider reads a provider configuration address as stored in
// state: [module.NAME[KEY]...]provider["HOST/NAMESPACE/TYPE"][.ALIAS], or
// the legacy form provider.TYPE[.ALIAS].
func parseStateProvider(s string) (addrs.Provider, error) {
	i := strings.Index(s, "provider[\"")
	if i >= 0 {
		rest := s[i+len("provider[\""):]
		end := strings.Index(rest, "\"]")
		if end < 0 {
			return addrs.Provider{}, errors.New("missing closing bracket")
		}
		p, err := addrs.ParseProviderSource(rest[:end])
		if err != nil {
			return addrs.Provider{}, err
		}
		return p, nil
	}
	i = strings.LastIndex(s, "provider.")
	if i >= 0 && (i == 0 || s[i-1] == '.') {
		typ, _, _ := strings.Cut(s[i+len("provider."):], ".")
		if n, err := addrs.ParseProviderPart(typ); err == nil {
			return addrs.NewLegacyProvider(n), nil
		}
	}
	return addrs.Provider{}, errors.New(`expected provider["HOSTNAME/NAMESPACE/TYPE"]`)
}

func stateError(name, detail string) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Failed to read state",
		Detail:   fmt.Sprintf("Cannot read the providers used by the state in %s: %s", name, detail),
	}}
}

// AddState adds the providers of state resources, unconstrained.
func (r *Result) AddState(resources []StateResource) {
	for _, sr := range resources {
		if sr.Provider.IsZero() {
			continue
		}
		if _, ok := r.Providers[sr.Provider]; !ok {
			r.Providers[sr.Provider] = nil
		}
		r.Sources[sr.Provider] = append(r.Sources[sr.Provider], Source{Module: sr.Module, Kind: FromState, Name: sr.Address})
		if !slices.Contains(r.State, sr.Provider) {
			r.State = append(r.State, sr.Provider)
		}
	}
	slices.SortFunc(r.State, addrs.Provider.Compare)
}

// releaseOf names a release of flavour f's product, with its article.
func releaseOf(f flavour.Flavour) string {
	if f == flavour.Terraform {
		return "a Terraform"
	}
	return "an OpenTofu"
}
