package cliconfig

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/addrs"
)

// ProviderInstallation is a provider_installation block.
type ProviderInstallation struct {
	// Methods are the installation methods in the order written.
	Methods []*InstallationMethod
	// DevOverrides maps overridden providers to their local directories
	// (filepath.Clean'ed); nil when there are none.
	DevOverrides map[addrs.Provider]string
}

// MethodKind names an installation method block.
type MethodKind string

// The installation methods.
const (
	MethodDirect           MethodKind = "direct"
	MethodFilesystemMirror MethodKind = "filesystem_mirror"
	MethodNetworkMirror    MethodKind = "network_mirror"
	// MethodOCIMirror installs from OCI registries (OpenTofu only).
	MethodOCIMirror MethodKind = "oci_mirror"
)

// InstallationMethod is one method block inside provider_installation.
type InstallationMethod struct {
	Kind MethodKind
	// Location is the mirror path (filesystem_mirror, not expanded), the
	// mirror URL (network_mirror, not yet validated) or the repository
	// template (oci_mirror); empty for direct.
	Location string
	// Include and Exclude are the raw provider matching patterns.
	Include, Exclude []string
	// DownloadRetryCount is download_retry_count, nil when not set.
	DownloadRetryCount *int
	// TrustAllHashes is network_mirror's trust_all_hashes.
	TrustAllHashes bool

	ociTemplate *ociTemplate
}

// The bodies of the method blocks, decoded by the HCL 1 decoder; keys other
// than these are ignored, as in OpenTofu.
type directBody struct {
	Include         []string `hcl:"include"`
	Exclude         []string `hcl:"exclude"`
	DownloadRetries *int     `hcl:"download_retry_count"`
}

type filesystemMirrorBody struct {
	Path    string   `hcl:"path"`
	Include []string `hcl:"include"`
	Exclude []string `hcl:"exclude"`
}

type networkMirrorBody struct {
	URL             string   `hcl:"url"`
	Include         []string `hcl:"include"`
	Exclude         []string `hcl:"exclude"`
	DownloadRetries *int     `hcl:"download_retry_count"`
	TrustAllHashes  bool     `hcl:"trust_all_hashes"`
}

type ociMirrorBody struct {
	RepositoryTemplate string   `hcl:"repository_template"`
	Include            []string `hcl:"include"`
	Exclude            []string `hcl:"exclude"`
}

// decodeProviderInstallation decodes every provider_installation block of a
// file's root object list; terraform makes oci_mirror an unknown method.
func decodeProviderInstallation(root *ast.ObjectList, terraform bool) ([]*ProviderInstallation, hcl.Diagnostics) {
	var ret []*ProviderInstallation
	var diags hcl.Diagnostics
	for _, block := range root.Items {
		if itemName(block) != "provider_installation" {
			continue
		}
		isJSON := block.Keys[0].Token.JSON
		if block.Assign.Line != 0 && !isJSON {
			diags = append(diags, errorDiag("Invalid provider_installation block",
				fmt.Sprintf("The provider_installation block at %s must not be introduced with an equals sign.", block.Pos())))
			continue
		}
		if len(block.Keys) > 1 && !isJSON {
			diags = append(diags, errorDiag("Invalid provider_installation block",
				fmt.Sprintf("The provider_installation block at %s must not have any labels.", block.Pos())))
		}
		body, ok := block.Val.(*ast.ObjectType)
		if !ok || body.List == nil {
			diags = append(diags, errorDiag("Invalid provider_installation block",
				fmt.Sprintf("The provider_installation block at %s must not be introduced with an equals sign.", block.Pos())))
			continue
		}
		pi, moreDiags := decodeInstallationMethods(block, body.List, isJSON, terraform)
		diags = append(diags, moreDiags...)
		ret = append(ret, pi)
	}
	return ret, diags
}

func decodeInstallationMethods(block *ast.ObjectItem, list *ast.ObjectList, isJSON, terraform bool) (*ProviderInstallation, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	pi := &ProviderInstallation{}
	mustBeBlocks := fmt.Sprintf("The items inside the provider_installation block at %s must all be blocks.", block.Pos())
	for _, item := range list.Items {
		if item.Assign.Line != 0 && !isJSON {
			diags = append(diags, errorDiag("Invalid provider_installation method block", mustBeBlocks))
			continue
		}
		if len(item.Keys) > 1 && !isJSON {
			diags = append(diags, errorDiag("Invalid provider_installation method block",
				fmt.Sprintf("The blocks inside the provider_installation block at %s may not have any labels.", block.Pos())))
		}
		body, ok := item.Val.(*ast.ObjectType)
		if !ok || len(item.Keys) == 0 {
			diags = append(diags, errorDiag("Invalid provider_installation method block", mustBeBlocks))
			continue
		}
		kind := itemName(item)
		if kind == "dev_overrides" {
			diags = append(diags, decodeDevOverrides(pi, block, item, body)...)
			continue
		}
		m, moreDiags := decodeMethod(MethodKind(kind), block, item, body, terraform)
		diags = append(diags, moreDiags...)
		if m != nil {
			pi.Methods = append(pi.Methods, m)
		}
	}
	return pi, diags
}

// decodeMethod decodes one method block other than dev_overrides. It returns
// nil when the block is invalid.
func decodeMethod(kind MethodKind, block, item *ast.ObjectItem, body *ast.ObjectType, terraform bool) (*InstallationMethod, hcl.Diagnostics) {
	const summary = "Invalid provider_installation method block"
	switch kind {
	case MethodDirect, MethodFilesystemMirror, MethodNetworkMirror:
	case MethodOCIMirror:
		if !terraform {
			return decodeOCIMirror(body)
		}
		fallthrough
	default:
		return nil, hcl.Diagnostics{errorDiag(summary,
			fmt.Sprintf("Unknown provider installation method %q at %s.", string(kind), item.Pos()))}
	}
	invalid := func(reason string) (*InstallationMethod, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{errorDiag(summary, fmt.Sprintf("Invalid %s block at %s: %s.", kind, block.Pos(), reason))}
	}
	switch kind {
	case MethodDirect:
		var b directBody
		if err := decodeHCL1(&b, body); err != nil {
			return invalid(err.Error())
		}
		return &InstallationMethod{Kind: kind, Include: b.Include, Exclude: b.Exclude, DownloadRetryCount: b.DownloadRetries}, nil
	case MethodFilesystemMirror:
		var b filesystemMirrorBody
		if err := decodeHCL1(&b, body); err != nil {
			return invalid(err.Error())
		}
		if b.Path == "" {
			return invalid(`"path" argument is required`)
		}
		return &InstallationMethod{Kind: kind, Location: b.Path, Include: b.Include, Exclude: b.Exclude}, nil
	default:
		var b networkMirrorBody
		if err := decodeHCL1(&b, body); err != nil {
			return invalid(err.Error())
		}
		if b.URL == "" {
			return invalid(`"url" argument is required`)
		}
		return &InstallationMethod{Kind: kind, Location: b.URL, Include: b.Include, Exclude: b.Exclude,
			DownloadRetryCount: b.DownloadRetries, TrustAllHashes: b.TrustAllHashes}, nil
	}
}

// decodeOCIMirror decodes an oci_mirror block and checks its template as
// OpenTofu does when it loads the configuration. The Terraform flavour
// never gets here: Terraform has no such method.
func decodeOCIMirror(body *ast.ObjectType) (*InstallationMethod, hcl.Diagnostics) {
	const summary = "Invalid provider_installation method block"
	var b ociMirrorBody
	if err := decodeHCL1(&b, body); err != nil {
		return nil, hcl.Diagnostics{errorDiag(summary, fmt.Sprintf("Invalid oci_mirror block at %s: %s.", body.Pos(), err))}
	}
	if b.RepositoryTemplate == "" {
		return nil, hcl.Diagnostics{errorDiag(summary, fmt.Sprintf("Invalid oci_mirror block at %s: \"repository_template\" argument is required.", body.Pos()))}
	}
	tmpl, diags := checkOCITemplate(b.RepositoryTemplate, b.Include, body.Pos())
	if diags.HasErrors() {
		return nil, diags
	}
	return &InstallationMethod{Kind: MethodOCIMirror, Location: b.RepositoryTemplate, Include: b.Include, Exclude: b.Exclude, ociTemplate: tmpl}, diags
}

// decodeDevOverrides adds the entries of a dev_overrides block to pi.
func decodeDevOverrides(pi *ProviderInstallation, block, item *ast.ObjectItem, body *ast.ObjectType) hcl.Diagnostics {
	const summary = "Invalid provider_installation method block"
	if len(pi.Methods) > 0 {
		return hcl.Diagnostics{errorDiag(summary, fmt.Sprintf("The dev_overrides block at at %s must appear before all other installation methods, because development overrides always have the highest priority.", item.Pos()))}
	}
	var raw map[string]string
	if err := decodeHCL1(&raw, body); err != nil {
		return hcl.Diagnostics{errorDiag(summary, fmt.Sprintf("Invalid dev_overrides block at %s: %s.", block.Pos(), err))}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var diags hcl.Diagnostics
	for _, k := range keys {
		addr, err := addrs.ParseProviderSource(k)
		if err != nil {
			diags = append(diags, errorDiag("Invalid provider installation dev overrides",
				fmt.Sprintf("The entry %q in %s is not a valid provider source string.\n\n%s", k, block.Pos(), err)))
			continue
		}
		if pi.DevOverrides == nil {
			pi.DevOverrides = make(map[addrs.Provider]string)
		}
		pi.DevOverrides[addr] = filepath.Clean(raw[k])
	}
	return diags
}

// itemName returns the first key of an object item, "" when it has none.
func itemName(item *ast.ObjectItem) string {
	if item == nil || len(item.Keys) == 0 || item.Keys[0] == nil {
		return ""
	}
	s, _ := item.Keys[0].Token.Value().(string)
	return s
}
