package registry

import (
	"errors"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Terraform v1.15's service discovery (its svchost disco package): each
// attempt is bounded by 5 seconds, at most 3 redirects are followed, and a
// failed request is retried 3 times (4 attempts) with go-retryablehttp's
// default policy and exponential backoff from 100 ms up to 1 s (a
// Retry-After header on 429 and 503 answers is honoured as it is). No
// environment variable or CLI configuration changes these:
// TF_REGISTRY_DISCOVERY_RETRY and TF_REGISTRY_CLIENT_TIMEOUT apply to the
// registry's own endpoints only. When the retries are exhausted, the error
// is go-retryablehttp's own ("GET URL giving up after 4 attempt(s): …"),
// which the caller wraps in "failed to request discovery document: ".
const (
	terraformDiscoveryRetries      = 3
	terraformDiscoveryWaitMin      = 100 * time.Millisecond
	terraformDiscoveryWaitMax      = 1 * time.Second
	terraformDiscoveryTimeout      = 5 * time.Second
	terraformDiscoveryMaxRedirects = 3
)

// errTooManyRedirects is Terraform's redirect-loop error. Unlike Go's own
// ("stopped after 10 redirects"), go-retryablehttp does not recognise it,
// so a redirect loop is retried too, as in Terraform.
var errTooManyRedirects = errors.New("too many redirects")

// newTerraformDiscoveryClient returns the retrying discovery client of the
// Terraform flavour. Settings.Backoff, when set, replaces the waits (tests
// shorten them); the policy and counts stay Terraform's.
func newTerraformDiscoveryClient(s Settings) *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.Logger = nil
	c.RetryMax = terraformDiscoveryRetries
	c.RetryWaitMin = terraformDiscoveryWaitMin
	c.RetryWaitMax = terraformDiscoveryWaitMax
	if s.Backoff != nil {
		c.Backoff = s.Backoff
	}
	c.HTTPClient = &http.Client{
		Transport: s.transport(),
		Timeout:   terraformDiscoveryTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > terraformDiscoveryMaxRedirects {
				return errTooManyRedirects
			}
			return nil
		},
	}
	return c
}
