package cliconfig

import (
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/v2"
)

// Defaults and environment variables of the registry protocol settings.
const (
	DefaultRegistryRetryCount     = 1
	DefaultRegistryRequestTimeout = 10 * time.Second

	EnvRegistryDiscoveryRetry = "TF_REGISTRY_DISCOVERY_RETRY"
	EnvRegistryClientTimeout  = "TF_REGISTRY_CLIENT_TIMEOUT"
)

// RegistryProtocols are the effective settings for registry metadata
// requests.
type RegistryProtocols struct {
	// RetryCount is the number of extra attempts after a retryable failure.
	RetryCount int
	// RequestTimeout bounds a whole request, body included.
	RequestTimeout time.Duration
}

// registryProtocolsBlock is one source of settings; nil fields are unset.
type registryProtocolsBlock struct {
	RetryCount     *int `hcl:"retry_count"`
	RequestTimeout *int `hcl:"request_timeout_seconds"`
}

// mergeUnder returns b's settings, with other's filling those b leaves unset.
func (b *registryProtocolsBlock) mergeUnder(other *registryProtocolsBlock) *registryProtocolsBlock {
	if b == nil {
		return other
	}
	if other == nil {
		return b
	}
	out := *b
	if out.RetryCount == nil {
		out.RetryCount = other.RetryCount
	}
	if out.RequestTimeout == nil {
		out.RequestTimeout = other.RequestTimeout
	}
	return &out
}

// effective applies the defaults.
func (b *registryProtocolsBlock) effective() RegistryProtocols {
	out := RegistryProtocols{RetryCount: DefaultRegistryRetryCount, RequestTimeout: DefaultRegistryRequestTimeout}
	if b == nil {
		return out
	}
	if b.RetryCount != nil {
		out.RetryCount = *b.RetryCount
	}
	if b.RequestTimeout != nil {
		out.RequestTimeout = time.Duration(*b.RequestTimeout) * time.Second
	}
	return out
}

// registryProtocolsFromEnv reads the environment's settings; invalid or
// non-positive values are ignored.
func registryProtocolsFromEnv(o Options) *registryProtocolsBlock {
	var b registryProtocolsBlock
	if n, err := strconv.Atoi(o.getenv(EnvRegistryDiscoveryRetry)); err == nil && n > 0 {
		b.RetryCount = &n
	}
	if n, err := strconv.Atoi(o.getenv(EnvRegistryClientTimeout)); err == nil && n > 0 {
		b.RequestTimeout = &n
	}
	if b.RetryCount == nil && b.RequestTimeout == nil {
		return nil
	}
	return &b
}

// decodeRegistryProtocols decodes the registry_protocols blocks of one file.
// A second block in the same file is an error and ignored.
func decodeRegistryProtocols(root *ast.ObjectList) (*registryProtocolsBlock, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var ret *registryProtocolsBlock
	var retItem *ast.ObjectItem
	for _, item := range root.Items {
		if itemName(item) != "registry_protocols" {
			continue
		}
		if retItem != nil {
			diags = append(diags, errorDiag("Duplicate registry_protocols block",
				fmt.Sprintf("The registry protocol settings were already defined at %s.", retItem.Pos())))
			continue
		}
		body, ok := item.Val.(*ast.ObjectType)
		if !ok {
			diags = append(diags, errorDiag("Invalid registry_protocols block",
				fmt.Sprintf("The registry_protocols item at %s must have an open brace after the block type.", item.Pos())))
			continue
		}
		var b registryProtocolsBlock
		if err := decodeHCL1(&b, body); err != nil {
			diags = append(diags, errorDiag("Invalid registry_protocols block",
				fmt.Sprintf("Invalid registry protocol settings at %s: %s.", body.Pos(), err)))
			b = registryProtocolsBlock{}
		}
		ret, retItem = &b, item
	}
	return ret, diags
}
