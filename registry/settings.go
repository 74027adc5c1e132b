package registry

import (
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/tfdeps/tfdeps/flavour"
)

// DefaultEmulatedVersion is the OpenTofu version tfdeps behaves as.
const DefaultEmulatedVersion = "1.12.6"

// Default HTTP settings of OpenTofu's registry client.
const (
	DefaultRetryCount     = 1
	DefaultRequestTimeout = 10 * time.Second
	DefaultDownloadRetry  = 2
)

// Settings are the effects and knobs a Client uses. The zero value works:
// real network, real environment, OpenTofu's defaults.
type Settings struct {
	// Transport carries every request; nil means a clone of
	// http.DefaultTransport (proxy from the environment, system roots).
	Transport http.RoundTripper
	// Getenv reads one environment variable; nil means os.Getenv.
	Getenv func(string) string
	// Environ lists the environment as KEY=VALUE; nil means os.Environ. It
	// is only used to find TF_TOKEN_… variables.
	Environ func() []string
	// EmulatedVersion is sent as X-Terraform-Version (default 1.12.6).
	EmulatedVersion string
	// UserAgent is the product part of User-Agent, e.g. "tfdeps/0.1.0" or
	// "OpenTofu/1.12.6" (default "tfdeps/dev"); TF_APPEND_USER_AGENT is
	// appended to it.
	UserAgent string
	// RetryCount and RequestTimeout come from the CLI configuration's
	// registry_protocols block (nil/zero: not set). The environment
	// variables TF_REGISTRY_DISCOVERY_RETRY and TF_REGISTRY_CLIENT_TIMEOUT
	// take precedence.
	RetryCount     *int
	RequestTimeout time.Duration
	// HostServices are the CLI configuration's host blocks: hostname (as
	// written) to services map. Invalid hostnames are ignored.
	HostServices map[string]map[string]any
	// Credentials are the CLI configuration's credentials blocks: hostname
	// (as written) to token. Invalid hostnames are ignored.
	Credentials map[string]string
	// CredentialsHelper, when non-empty, names a configured credentials
	// helper, which tfdeps does not support: hosts without a token then
	// fail with a credentials error.
	CredentialsHelper string
	// Backoff computes the pause between retries; nil means
	// retryablehttp.DefaultBackoff (1 s × 2^attempt up to 30 s, honouring
	// Retry-After on 429 and 503). Tests shorten it.
	Backoff retryablehttp.Backoff
	// Flavour is the product whose rules the client follows when it
	// decodes a download response and authenticates a package (see
	// PackageMeta.Flavour).
	Flavour flavour.Flavour
	// TerraformKeys replaces the HashiCorp keys the Terraform flavour
	// trusts; nil means HashiCorp's real keys. Only tests set it.
	TerraformKeys *TerraformKeys
}

func (s Settings) getenv(k string) string {
	if s.Getenv == nil {
		return os.Getenv(k)
	}
	return s.Getenv(k)
}

func (s Settings) environ() []string {
	if s.Environ == nil {
		return os.Environ()
	}
	return s.Environ()
}

func (s Settings) transport() http.RoundTripper {
	if s.Transport != nil {
		return s.Transport
	}
	return NewTransport()
}

// NewTransport is the transport tfdeps uses when none is given: Go's default
// (proxy from the environment, system roots) keeping enough idle connections
// per host for the installer's parallel requests, so that they reuse TLS
// connections instead of making new ones.
func NewTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	return t
}

func (s Settings) emulatedVersion() string {
	if s.EmulatedVersion == "" {
		return DefaultEmulatedVersion
	}
	return s.EmulatedVersion
}

// userAgent is the User-Agent header value.
func (s Settings) userAgent() string {
	ua := s.UserAgent
	if ua == "" {
		ua = "tfdeps/dev"
	}
	if extra := strings.TrimSpace(s.getenv("TF_APPEND_USER_AGENT")); extra != "" {
		ua += " " + extra
	}
	return ua
}

// positiveEnv returns the integer value of k when it is > 0.
func (s Settings) positiveEnv(k string) (int, bool) {
	n, err := strconv.Atoi(s.getenv(k))
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}

// MetadataRetries is the number of extra attempts for metadata requests
// (TF_REGISTRY_DISCOVERY_RETRY, else the CLI configuration's, else
// DefaultRetryCount): Terraform's network mirror client retries as many
// times.
func (s Settings) MetadataRetries() int { return s.retryCount() }

// retryCount is the number of extra attempts for metadata requests.
func (s Settings) retryCount() int {
	if n, ok := s.positiveEnv("TF_REGISTRY_DISCOVERY_RETRY"); ok {
		return n
	}
	if s.RetryCount != nil {
		return *s.RetryCount
	}
	return DefaultRetryCount
}

// requestTimeout bounds a whole metadata request, body included.
func (s Settings) requestTimeout() time.Duration {
	if n, ok := s.positiveEnv("TF_REGISTRY_CLIENT_TIMEOUT"); ok {
		return time.Duration(n) * time.Second
	}
	if s.RequestTimeout > 0 {
		return s.RequestTimeout
	}
	return DefaultRequestTimeout
}

// DownloadRetries is the number of extra attempts for a package download:
// the installation method's download_retry_count when set (methodCount not
// nil), else TF_PROVIDER_DOWNLOAD_RETRY when a positive integer, else 2.
func (s Settings) DownloadRetries(methodCount *int) int {
	if methodCount != nil {
		return *methodCount
	}
	if n, ok := s.positiveEnv("TF_PROVIDER_DOWNLOAD_RETRY"); ok {
		return n
	}
	return DefaultDownloadRetry
}

// EffectiveRequestTimeout is the effective metadata request timeout (network mirror
// clients use it too).
func (s Settings) EffectiveRequestTimeout() time.Duration { return s.requestTimeout() }

// Headers returns User-Agent and, when withVersion, X-Terraform-Version, for
// callers that build their own requests (network mirror metadata).
func (s Settings) Headers(withVersion bool) http.Header {
	h := http.Header{}
	h.Set("User-Agent", s.userAgent())
	if withVersion {
		h.Set("X-Terraform-Version", s.emulatedVersion())
	}
	return h
}
