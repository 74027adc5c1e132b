package config

import (
	"fmt"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/gohcl"
)

// The shape of terraform { encryption {} } as OpenTofu decodes it (its
// encryption/config package); decoding with gohcl gives its diagnostics.
type encryptionConfig struct {
	KeyProviders []encryptionKeyProvider      `hcl:"key_provider,block"`
	Methods      []encryptionMethod           `hcl:"method,block"`
	State        *encryptionEnforcedTarget    `hcl:"state,block"`
	Plan         *encryptionEnforcedTarget    `hcl:"plan,block"`
	Remote       *encryptionRemoteDataSources `hcl:"remote_state_data_sources,block"`
}

type encryptionKeyProvider struct {
	EncryptedMetadataAlias string   `hcl:"encrypted_metadata_alias,optional"`
	Type                   string   `hcl:"type,label"`
	Name                   string   `hcl:"name,label"`
	Body                   hcl.Body `hcl:",remain"`
}

type encryptionMethod struct {
	Type string   `hcl:"type,label"`
	Name string   `hcl:"name,label"`
	Body hcl.Body `hcl:",remain"`
}

type encryptionRemoteDataSources struct {
	Default *encryptionTarget       `hcl:"default,block"`
	Targets []encryptionNamedTarget `hcl:"remote_state_data_source,block"`
}

type encryptionTarget struct {
	Method   hcl.Expression    `hcl:"method,optional"`
	Fallback *encryptionTarget `hcl:"fallback,block"`
}

type encryptionEnforcedTarget struct {
	Enforced bool              `hcl:"enforced,optional"`
	Method   hcl.Expression    `hcl:"method,optional"`
	Fallback *encryptionTarget `hcl:"fallback,block"`
}

type encryptionNamedTarget struct {
	Name     string            `hcl:"name,label"`
	Method   hcl.Expression    `hcl:"method,optional"`
	Fallback *encryptionTarget `hcl:"fallback,block"`
}

// decodeEncryptionBlock checks an encryption block as OpenTofu does while
// loading; an invalid block gives no result.
func decodeEncryptionBlock(block *hcl.Block) (*Encryption, hcl.Diagnostics) {
	var cfg encryptionConfig
	diags := gohcl.DecodeBody(block.Body, nil, &cfg)
	if diags.HasErrors() {
		return nil, diags
	}
	rng := block.DefRange
	for i, kp := range cfg.KeyProviders {
		for j, other := range cfg.KeyProviders {
			if i != j && kp.Type == other.Type && kp.Name == other.Name {
				diags = append(diags, errorDiag("Duplicate key_provider", fmt.Sprintf("Found multiple instances of key_provider.%s.%s", kp.Type, kp.Name), &rng))
				break
			}
		}
		diags = append(diags, encryptionAddrDiags("key provider", kp.Type, kp.Name)...)
	}
	for i, m := range cfg.Methods {
		for j, other := range cfg.Methods {
			if i != j && m.Type == other.Type && m.Name == other.Name {
				diags = append(diags, errorDiag("Duplicate method", fmt.Sprintf("Found multiple instances of method.%s.%s", m.Type, m.Name), &rng))
				break
			}
		}
		diags = append(diags, encryptionAddrDiags("encryption method", m.Type, m.Name)...)
	}
	if cfg.Remote != nil {
		for i, t := range cfg.Remote.Targets {
			for j, other := range cfg.Remote.Targets {
				if i != j && t.Name == other.Name {
					diags = append(diags, errorDiag("Duplicate remote_data_source", fmt.Sprintf("Found multiple instances of remote_data_source.%s", t.Name), &rng))
					break
				}
			}
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return &Encryption{DeclRange: block.DefRange, Syntax: newSyntaxBlock(block, encryptionShape)}, diags
}

const encryptionNamePattern = "^([a-zA-Z_0-9-]+)$"

// encryptionAddrDiags checks a key provider's or method's type and name
// (OpenTofu gives these errors no source range).
func encryptionAddrDiags(what, typ, name string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, part := range []struct{ kind, value string }{{"type", typ}, {"name", name}} {
		if !validEncryptionName(part.value) {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  fmt.Sprintf("The provided %s %s is invalid", what, part.kind),
				Detail:   fmt.Sprintf("The supplied %s %s (%s) does not match the required form of %s.", what, part.kind, part.value, encryptionNamePattern),
			})
		}
	}
	return diags
}

func validEncryptionName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}
