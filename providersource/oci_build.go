package providersource

import (
	"context"
	"fmt"
	"sync"

	"oras.land/oras-go/v2/registry/remote"

	"github.com/tfdeps/tfdeps/internal/ociauth"
	"github.com/tfdeps/tfdeps/registry"
)

// ociClients returns the client maker of the oci_mirror methods of a
// configuration. The credentials policy (which reads auth files) is built
// once, the first time a repository is contacted, as OpenTofu does.
func ociClients(opts BuildOptions) OCIClientFunc {
	var once sync.Once
	var policy *ociauth.Policy
	var policyErr error
	var settings registry.Settings
	if opts.Registry != nil {
		settings = opts.Registry.Settings()
	}
	return func(ctx context.Context, domain, repo string) (remote.Client, error) {
		once.Do(func() {
			policy, policyErr = ociauth.New(opts.Config, ociauth.Env{Getenv: opts.Getenv})
		})
		if policyErr != nil {
			return nil, fmt.Errorf("invalid credentials configuration for OCI registries: %w", policyErr)
		}
		if err := policy.Check(domain, repo); err != nil {
			return nil, fmt.Errorf("finding credentials for %q: %w", domain, err)
		}
		return OCIClient(settings, policy.RepositoryCredentialFunc(domain, repo)), nil
	}
}
