package cliconfig

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/hcl/ast"
	hcltoken "github.com/hashicorp/hcl/hcl/token"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	orasregistry "oras.land/oras-go/v2/registry"

	"github.com/tfdeps/tfdeps/addrs"
)

// OCIDefaultCredentials is an oci_default_credentials block: how credentials
// for OCI registries are found when no oci_credentials block matches.
type OCIDefaultCredentials struct {
	// DiscoverAmbientCredentials searches the Docker and Podman
	// configuration files (true unless the block says otherwise).
	DiscoverAmbientCredentials bool
	// DockerStyleConfigFiles, when not nil, replaces the searched
	// locations by these files (absolute paths).
	DockerStyleConfigFiles []string
	// DefaultDockerCredentialHelper names a docker-credential-NAME program
	// asked for every registry, "" for none.
	DefaultDockerCredentialHelper string
}

// OCICredentials is an oci_credentials block: credentials for the
// repositories whose address starts with RepositoryPrefix. Exactly one of
// the groups (Username+Password, AccessToken+RefreshToken,
// DockerCredentialHelper) is set.
type OCICredentials struct {
	RepositoryPrefix          string
	Username, Password        string
	AccessToken, RefreshToken string
	DockerCredentialHelper    string
}

// DefaultOCICredentials returns the settings in effect when the
// configuration has no oci_default_credentials block.
func DefaultOCICredentials() *OCIDefaultCredentials {
	return &OCIDefaultCredentials{DiscoverAmbientCredentials: true}
}

// OCIDefaults returns the oci_default_credentials block in effect (the
// defaults when there is none).
func (c *Config) OCIDefaults() *OCIDefaultCredentials {
	if c == nil || len(c.OCIDefaultCredentials) == 0 {
		return DefaultOCICredentials()
	}
	return c.OCIDefaultCredentials[0]
}

// ParseOCIRepositoryPrefix splits an OCI repository address prefix
// ("registry.example.com" or "registry.example.com/some/repo") into its
// registry domain (with any port) and repository path ("" for a domain
// alone). A tag or digest is refused.
func ParseOCIRepositoryPrefix(addr string) (domain, path string, err error) {
	if !strings.Contains(addr, "/") {
		ref := orasregistry.Reference{Registry: addr}
		return addr, "", ref.ValidateRegistry()
	}
	ref, err := orasregistry.ParseReference(addr)
	if err != nil {
		return "", "", err
	}
	if ref.Reference != "" {
		return "", "", fmt.Errorf("invalid reference: artifact tag or digest not allowed")
	}
	return ref.Registry, ref.Repository, nil
}

// decodeOCIDefaultCredentials decodes every oci_default_credentials block of
// a file; relative docker_style_config_files are resolved against the
// file's directory.
func decodeOCIDefaultCredentials(root *ast.ObjectList, path string) ([]*OCIDefaultCredentials, hcl.Diagnostics) {
	const summary = "Invalid oci_default_credentials block"
	var ret []*OCIDefaultCredentials
	var diags hcl.Diagnostics
	for _, block := range root.Items {
		if itemName(block) != "oci_default_credentials" {
			continue
		}
		isJSON := block.Keys[0].Token.JSON
		if block.Assign.Line != 0 && !isJSON {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_default_credentials block at %s must not be introduced with an equals sign.", block.Pos())))
			continue
		}
		if len(block.Keys) > 1 && !isJSON {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_default_credentials block at %s must not have any labels.", block.Pos())))
			continue
		}
		body, ok := block.Val.(*ast.ObjectType)
		if !ok {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_default_credentials block at %s must be represented by a JSON object.", block.Pos())))
			continue
		}
		var b struct {
			Discover *bool     `hcl:"discover_ambient_credentials"`
			Files    *[]string `hcl:"docker_style_config_files"`
			Helper   *string   `hcl:"docker_credentials_helper"`
		}
		if err := decodeHCL1(&b, body); err != nil {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("Invalid oci_default_credentials block at %s: %s.", body.Pos(), err)))
			continue
		}
		d := DefaultOCICredentials()
		if b.Discover != nil {
			d.DiscoverAmbientCredentials = *b.Discover
		}
		if b.Files != nil {
			d.DockerStyleConfigFiles = make([]string, len(*b.Files))
			for i, f := range *b.Files {
				if !filepath.IsAbs(f) {
					f = filepath.Join(filepath.Dir(path), f)
				}
				if abs, err := filepath.Abs(f); err == nil {
					f = abs
				}
				d.DockerStyleConfigFiles[i] = f
			}
		}
		if b.Helper != nil {
			d.DefaultDockerCredentialHelper = *b.Helper
			if !validHelperName(d.DefaultDockerCredentialHelper) {
				diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_default_credentials block at %s specifies the invalid Docker credential helper name %q. Must be a non-empty string that could be used as part of an executable filename.", body.Pos(), d.DefaultDockerCredentialHelper)))
			}
		}
		if !d.DiscoverAmbientCredentials && d.DockerStyleConfigFiles != nil {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_default_credentials block at %s disables discovery of ambient credentials, but also sets docker_style_config_files which is relevant only when ambient credentials discovery is enabled.", body.Pos())))
		}
		// OpenTofu keeps a block whose helper name or file settings are
		// invalid; the errors stop the command anyway.
		ret = append(ret, d)
	}
	return ret, diags
}

// decodeOCICredentials decodes every oci_credentials block of a file.
func decodeOCICredentials(root *ast.ObjectList) ([]*OCICredentials, hcl.Diagnostics) {
	const summary = "Invalid oci_credentials block"
	var ret []*OCICredentials
	var diags hcl.Diagnostics
	for _, block := range root.Items {
		if itemName(block) != "oci_credentials" {
			continue
		}
		foldJSONKeys(block, 2)
		if len(block.Keys) != 2 {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_credentials block at %s must have one label, giving an OCI repository address prefix.", block.Pos())))
			continue
		}
		if block.Assign.Line != 0 && !block.Keys[0].Token.JSON {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_credentials block at %s must not be introduced with an equals sign.", block.Pos())))
			continue
		}
		body, ok := block.Val.(*ast.ObjectType)
		if !ok {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_credentials block at %s must be represented by a JSON object.", block.Pos())))
			continue
		}
		label, _ := block.Keys[1].Token.Value().(string)
		c, moreDiags := decodeOCICredentialsBody(label, body)
		diags = append(diags, moreDiags...)
		if c != nil {
			ret = append(ret, c)
		}
	}
	return ret, diags
}

func decodeOCICredentialsBody(label string, body *ast.ObjectType) (*OCICredentials, hcl.Diagnostics) {
	const summary = "Invalid oci_credentials block"
	fail := func(format string, args ...any) (*OCICredentials, hcl.Diagnostics) {
		return nil, hcl.Diagnostics{errorDiag(summary, fmt.Sprintf(format, args...))}
	}
	_, repoPath, err := ParseOCIRepositoryPrefix(label)
	if err != nil {
		return fail("The oci_credentials block at %s has an invalid block label: %s.", body.Pos(), err)
	}
	var b struct {
		Username     *string `hcl:"username"`
		Password     *string `hcl:"password"`
		AccessToken  *string `hcl:"access_token"`
		RefreshToken *string `hcl:"refresh_token"`
		Helper       *string `hcl:"docker_credentials_helper"`
	}
	if err := decodeHCL1(&b, body); err != nil {
		return fail("Invalid oci_credentials block at %s: %s.", body.Pos(), err)
	}
	basic := b.Username != nil || b.Password != nil
	oauth := b.AccessToken != nil || b.RefreshToken != nil
	helper := b.Helper != nil
	styles := 0
	for _, set := range []bool{basic, oauth, helper} {
		if set {
			styles++
		}
	}
	switch {
	case styles == 0:
		return fail("The oci_credentials block at %s must set either username+password, access_token+refresh_token, or docker_credentials_helper.", body.Pos())
	case styles > 1:
		return fail("The oci_credentials block at %s must set only one group out of username+password, access_token+refresh_token, or docker_credentials_helper.", body.Pos())
	}
	c := &OCICredentials{RepositoryPrefix: label}
	switch {
	case basic:
		if b.Username == nil || b.Password == nil {
			return fail("The oci_credentials block at %s must set both username and password together when using static credentials.", body.Pos())
		}
		c.Username, c.Password = *b.Username, *b.Password
	case oauth:
		if b.AccessToken == nil || b.RefreshToken == nil {
			return fail("The oci_credentials block at %s must set both access_token and refresh_token together when using OAuth-style credentials.", body.Pos())
		}
		c.AccessToken, c.RefreshToken = *b.AccessToken, *b.RefreshToken
	default:
		c.DockerCredentialHelper = *b.Helper
		var diags hcl.Diagnostics
		if repoPath != "" {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_credentials block at %s cannot set docker_credentials_helper with a repository path: credential helpers only support credentials for whole domains.", body.Pos())))
		}
		if !validHelperName(c.DockerCredentialHelper) {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("The oci_credentials block at %s specifies the invalid Docker credential helper name %q. Must be a non-empty string that could be used as part of an executable filename.", body.Pos(), c.DockerCredentialHelper)))
		}
		if diags.HasErrors() {
			return nil, diags
		}
	}
	return c, nil
}

// validHelperName reports whether n can name a docker-credential-n program.
func validHelperName(n string) bool {
	return n != "" && !strings.Contains(filepath.ToSlash(n), "/")
}

// foldJSONKeys turns the extra keys of a JSON object item (the JSON form of
// a labelled block, {"oci_credentials": {"label": {...}}}, arrives as one
// item with several keys) into nested objects, keeping depth keys.
func foldJSONKeys(item *ast.ObjectItem, depth int) {
	if len(item.Keys) <= depth || !item.Keys[0].Token.JSON {
		return
	}
	for len(item.Keys) > depth {
		last := item.Keys[len(item.Keys)-1]
		item.Keys = item.Keys[:len(item.Keys)-1]
		item.Val = &ast.ObjectType{List: &ast.ObjectList{Items: []*ast.ObjectItem{{Keys: []*ast.ObjectKey{last}, Val: item.Val}}}}
	}
}

// validateOCICredentials reports the checks OpenTofu makes on the merged
// configuration.
func (c *Config) validateOCICredentials() hcl.Diagnostics {
	var diags hcl.Diagnostics
	if len(c.OCIDefaultCredentials) > 1 {
		diags = append(diags, errorDiag("No more than one oci_default_credentials block may be specified", ""))
	}
	seen := map[string]bool{}
	for _, cr := range c.OCICredentials {
		if seen[cr.RepositoryPrefix] {
			diags = append(diags, errorDiag(fmt.Sprintf("Duplicate oci_credentials block for %q", cr.RepositoryPrefix), ""))
			continue
		}
		seen[cr.RepositoryPrefix] = true
	}
	return diags
}

// ociTemplate is a checked oci_mirror repository_template.
type ociTemplate struct {
	expr hclsyntax.Expression
	pos  hcltoken.Pos
}

// OCIRepository maps a provider to the registry domain and repository name
// of an oci_mirror method's template. It fails for other methods.
func (m *InstallationMethod) OCIRepository(p addrs.Provider) (domain, repo string, err error) {
	if m.ociTemplate == nil {
		return "", "", fmt.Errorf("not an oci_mirror method")
	}
	raw, diags := m.ociTemplate.eval(p.Hostname.String(), p.Namespace, p.Type)
	if diags.HasErrors() {
		return "", "", diagsError(diags)
	}
	return ParseOCIRepositoryPrefix(raw)
}

func diagsError(diags hcl.Diagnostics) error {
	var msgs []string
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		if d.Detail != "" {
			msgs = append(msgs, d.Summary+": "+d.Detail)
		} else {
			msgs = append(msgs, d.Summary)
		}
	}
	return fmt.Errorf("%s", strings.Join(msgs, "; "))
}

// checkOCITemplate parses and checks a repository_template as OpenTofu does
// when it loads the configuration: only hostname, namespace and type may be
// used, each must be used unless include pins it to one value, and the
// result for an example provider must be a repository address.
func checkOCITemplate(src string, include []string, pos hcltoken.Pos) (*ociTemplate, hcl.Diagnostics) {
	const summary = "Invalid oci_mirror repository template"
	expr, diags := hclsyntax.ParseTemplate([]byte(src), "<oci_mirror repository_template>", hcl.InitialPos)
	if diags.HasErrors() {
		return nil, diags
	}
	uses := map[string]bool{}
	for _, tr := range expr.Variables() {
		switch name := tr.RootName(); name {
		case "hostname", "namespace", "type":
			uses[name] = true
		default:
			diags = append(diags, errorDiag(summary, fmt.Sprintf("Invalid oci_mirror block at %s: the symbol %q is not available for an OCI mirror repository address template. Only \"hostname\", \"namespace\", and \"type\" are available.", pos, name)))
		}
	}
	pinned, ok := pinnedByInclude(include)
	if !ok {
		// Invalid patterns are reported when the source is built; the
		// template is not checked further.
		return &ociTemplate{expr: expr, pos: pos}, diags
	}
	for _, c := range []struct{ name, what string }{
		{"hostname", "exactly one registry hostname"},
		{"namespace", "exactly one provider namespace"},
		{"type", "exactly one provider"},
	} {
		if pinned[c.name] != 1 && !uses[c.name] {
			diags = append(diags, errorDiag(summary, fmt.Sprintf("Invalid oci_mirror block at %s: template must refer to the %q symbol unless the \"include\" argument selects %s.", pos, c.name, c.what)))
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	unknown := &hcl.EvalContext{Variables: map[string]cty.Value{
		"hostname": cty.UnknownVal(cty.String), "namespace": cty.UnknownVal(cty.String), "type": cty.UnknownVal(cty.String),
	}}
	if _, more := expr.Value(unknown); more.HasErrors() {
		return nil, append(diags, more...)
	}
	t := &ociTemplate{expr: expr, pos: pos}
	example, more := t.eval("example.com", "example-namespace", "example-type")
	diags = append(diags, more...)
	if more.HasErrors() {
		return nil, diags
	}
	if _, _, err := ParseOCIRepositoryPrefix(example); err != nil {
		return nil, append(diags, errorDiag(summary, fmt.Sprintf("Invalid oci_mirror block at %s: template must generate a valid OCI repository address, including a registry hostname followed by a slash and then a repository name.", pos)))
	}
	return t, diags
}

func (t *ociTemplate) eval(hostname, namespace, typ string) (string, hcl.Diagnostics) {
	const summary = "Invalid oci_mirror repository template"
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{
		"hostname": cty.StringVal(hostname), "namespace": cty.StringVal(namespace), "type": cty.StringVal(typ),
	}}
	v, diags := t.expr.Value(ctx)
	if diags.HasErrors() {
		return "", diags
	}
	v, err := convert.Convert(v, cty.String)
	if err != nil {
		return "", append(diags, errorDiag(summary, fmt.Sprintf("Invalid oci_mirror block at %s: template must produce a string value.", t.pos)))
	}
	if v.IsNull() {
		return "", append(diags, errorDiag(summary, fmt.Sprintf("Invalid oci_mirror block at %s: template must not produce a null value.", t.pos)))
	}
	return v.AsString(), diags
}

// pinnedByInclude counts, per address part, the distinct non-wildcard
// values of the include patterns; ok is false when a pattern is invalid.
func pinnedByInclude(include []string) (map[string]int, bool) {
	sets := map[string]map[string]bool{"hostname": {}, "namespace": {}, "type": {}}
	for _, raw := range include {
		host, ns, typ, ok := splitProviderPattern(raw)
		if !ok {
			return nil, false
		}
		for part, v := range map[string]string{"hostname": host, "namespace": ns, "type": typ} {
			if v != "*" {
				sets[part][v] = true
			}
		}
	}
	out := map[string]int{}
	for part, s := range sets {
		out[part] = len(s)
	}
	return out, true
}

// splitProviderPattern splits an include pattern ([HOST/]NAMESPACE/TYPE,
// any part "*") into normalized parts, as the installer's patterns do.
func splitProviderPattern(raw string) (host, ns, typ string, ok bool) {
	parts := strings.Split(raw, "/")
	switch len(parts) {
	case 2:
		parts = append([]string{addrs.DefaultProviderRegistryHost.String()}, parts...)
	case 3:
	default:
		return "", "", "", false
	}
	host = parts[0]
	if host != "*" {
		h, err := addrs.ParseHostname(host)
		if err != nil {
			return "", "", "", false
		}
		host = h.String()
	}
	ns, typ = strings.ToLower(parts[1]), strings.ToLower(parts[2])
	if ns == "" || typ == "" {
		return "", "", "", false
	}
	return host, ns, typ, true
}

// OCIMirrorTemplate checks a repository template given outside a CLI
// configuration file (e.g. on the command line, named by what) as an
// oci_mirror block's repository_template without include patterns is
// checked: it must use ${hostname}, ${namespace} and ${type} and produce a
// repository address. The result is an oci_mirror method whose
// OCIRepository maps providers through the template.
func OCIMirrorTemplate(what, src string) (*InstallationMethod, hcl.Diagnostics) {
	pos := hcltoken.Pos{Filename: what, Line: 1, Column: 1}
	tmpl, diags := checkOCITemplate(src, nil, pos)
	prefix := fmt.Sprintf("Invalid oci_mirror block at %s: ", pos)
	for _, d := range diags {
		if rest, ok := strings.CutPrefix(d.Detail, prefix); ok {
			d.Detail = fmt.Sprintf("The repository template %q of %s is not valid: %s", src, what, rest)
		}
	}
	if tmpl == nil || diags.HasErrors() {
		return nil, diags
	}
	return &InstallationMethod{Kind: MethodOCIMirror, Location: src, ociTemplate: tmpl}, diags
}
