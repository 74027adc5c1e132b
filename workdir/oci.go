package workdir

import (
	"context"
	"fmt"
	"sync"

	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/tfdeps/tfdeps/cliconfig"
	"github.com/tfdeps/tfdeps/internal/ociauth"
	"github.com/tfdeps/tfdeps/moduleinstall"
)

// ociCredentials is the credentials lookup of oci:// module packages:
// Options.OCICredentials, or the CLI configuration's oci_credentials and
// oci_default_credentials blocks and the Docker-style auth files they
// allow. The policy is built once, when the first package is fetched.
func (r *Run) ociCredentials() moduleinstall.OCICredentials {
	if r.opts.OCICredentials != nil {
		return r.opts.OCICredentials
	}
	return policyCredentials(r.opts.cliConfig())
}

func policyCredentials(cfg *cliconfig.Config) moduleinstall.OCICredentials {
	var once sync.Once
	var policy *ociauth.Policy
	var policyErr error
	return func(ctx context.Context, domain, repo string) (auth.CredentialFunc, error) {
		once.Do(func() { policy, policyErr = ociauth.New(cfg, ociauth.Env{}) })
		if policyErr != nil {
			return nil, fmt.Errorf("invalid credentials configuration for OCI registries: %w", policyErr)
		}
		if err := policy.Check(domain, repo); err != nil {
			return nil, err
		}
		return policy.RepositoryCredentialFunc(domain, repo), nil
	}
}
