package providersource

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"
	"oras.land/oras-go/v2/registry/remote/errcode"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/ocimanifest"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// The artifact and media types of OpenTofu's provider layout in an OCI
// repository: a tag (the version, "+" written "_") names an index manifest
// of artifact type ociProviderArtifact listing one image manifest per
// platform (artifact type ociTargetArtifact, with a platform), each with one
// layer of media type ociZipMediaType: the provider's zip archive, whose
// sha256 digest is the package's "zh:" hash.
const (
	ociProviderArtifact = "application/vnd.opentofu.provider"
	ociTargetArtifact   = "application/vnd.opentofu.provider-target"
	ociModuleArtifact   = "application/vnd.opentofu.modulepkg"
	ociZipMediaType     = "archive/zip"
)

// OCIRepositoryFunc maps a provider to its registry domain (host[:port])
// and repository name; a *NotFoundError means the method does not serve
// the provider at all.
type OCIRepositoryFunc func(addrs.Provider) (domain, repository string, err error)

// OCIClientFunc returns the HTTP client (with credentials) to use for one
// repository; it is called once per repository, when first needed.
type OCIClientFunc func(ctx context.Context, domain, repository string) (remote.Client, error)

// OCIMirror installs providers from OCI registries (oci_mirror): versions
// from the repository's tags, packages from OpenTofu's layout (see the
// constants above). Every repository is first contacted at /v2/ to check
// the registry and the credentials, as OpenTofu does.
type OCIMirror struct {
	repoFor   OCIRepositoryFunc
	clientFor OCIClientFunc
	// PlainHTTP talks http instead of https (tests only).
	PlainHTTP bool
	// Idle bounds waiting: a metadata request (ping, tags, manifests) must
	// finish, and a package download must receive bytes, within it
	// (registry.DefaultDownloadIdleTimeout when zero).
	Idle time.Duration

	mu    sync.Mutex
	repos map[string]*ociRepo
}

type ociRepo struct {
	once         sync.Once
	repo         *remote.Repository
	err          error
	domain, name string
}

var _ Source = (*OCIMirror)(nil)

// NewOCIMirror returns an oci_mirror source.
func NewOCIMirror(repoFor OCIRepositoryFunc, clientFor OCIClientFunc) *OCIMirror {
	return &OCIMirror{repoFor: repoFor, clientFor: clientFor, repos: map[string]*ociRepo{}}
}

// OCIClient returns an oras-go client using the transport and User-Agent of
// settings and cred for credentials, with a token cache.
func OCIClient(settings registry.Settings, cred auth.CredentialFunc) *auth.Client {
	c := &auth.Client{Client: &http.Client{Transport: settings.Transport}, Credential: cred, Cache: auth.NewCache()}
	if settings.Transport == nil {
		c.Client = http.DefaultClient
	}
	if settings.UserAgent != "" {
		c.Header = http.Header{"User-Agent": {settings.UserAgent}}
	}
	return c
}

func (m *OCIMirror) idle() time.Duration {
	if m.Idle > 0 {
		return m.Idle
	}
	return registry.DefaultDownloadIdleTimeout
}

// bounded limits a metadata exchange to the idle time, so that a registry
// that stops answering fails the command instead of hanging it.
func (m *OCIMirror) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	d := m.idle()
	return context.WithTimeoutCause(ctx, d, &errStalled{fmt.Sprintf("no answer from the OCI registry within %s (the limit %s sets)", d, registry.EnvDownloadIdleTimeout)})
}

// errStalled marks the cause of a bounded exchange that ran out of time.
type errStalled struct{ msg string }

func (e *errStalled) Error() string { return e.msg }

// stalledCause replaces err by the idle limit's explanation when that limit
// (not the caller) ended the exchange.
func stalledCause(ctx context.Context, err error) error {
	var s *errStalled
	if err != nil && errors.As(context.Cause(ctx), &s) {
		return s
	}
	return err
}

// ForDisplay is OpenTofu's fixed name for these sources.
func (m *OCIMirror) ForDisplay(addrs.Provider) string { return "OCI registry provider mirror" }

func (m *OCIMirror) repository(ctx context.Context, provider addrs.Provider) (*ociRepo, error) {
	domain, name, err := m.repoFor(provider)
	if err != nil {
		var nf *NotFoundError
		if errors.As(err, &nf) {
			return nil, err
		}
		return nil, fmt.Errorf("selecting OCI repository address: %w", err)
	}
	key := domain + "/" + name
	m.mu.Lock()
	r := m.repos[key]
	if r == nil {
		r = &ociRepo{domain: domain, name: name}
		m.repos[key] = r
	}
	m.mu.Unlock()
	r.once.Do(func() { r.repo, r.err = m.open(ctx, domain, name) })
	if r.err != nil {
		if errors.Is(r.err, errdef.ErrNotFound) {
			return nil, &NotFoundError{Provider: provider, Sources: []string{m.ForDisplay(provider)}}
		}
		return nil, fmt.Errorf("accessing OCI registry at %s: %w", domain, r.err)
	}
	return r, nil
}

func (m *OCIMirror) open(ctx context.Context, domain, name string) (*remote.Repository, error) {
	client, err := m.clientFor(ctx, domain, name)
	if err != nil {
		return nil, err
	}
	reg, err := remote.NewRegistry(domain)
	if err != nil {
		return nil, err
	}
	reg.Client, reg.PlainHTTP = client, m.PlainHTTP
	if err := reg.Ping(ctx); err != nil {
		return nil, fmt.Errorf("failed to contact OCI registry at %q: %w", domain, err)
	}
	repo, err := reg.Repository(ctx, name)
	if err != nil {
		return nil, err
	}
	return repo.(*remote.Repository), nil
}

// AvailableVersions lists the tags that are versions ("_" standing for
// "+"); others are ignored. A repository that does not exist means the
// mirror does not have the provider.
func (m *OCIMirror) AvailableVersions(ctx context.Context, provider addrs.Provider) (_ versions.List, _ Warnings, err error) {
	ctx, cancel := m.bounded(ctx)
	defer cancel()
	defer func() { err = stalledCause(ctx, err) }()
	r, err := m.repository(ctx, provider)
	if err != nil {
		return nil, nil, err
	}
	var list versions.List
	err = r.repo.Tags(ctx, "", func(tags []string) error {
		for _, tag := range tags {
			if v, err := versions.ParseVersion(strings.ReplaceAll(tag, "_", "+")); err == nil {
				list = append(list, v)
			}
		}
		return nil
	})
	if err != nil {
		if ociRepoMissing(err) {
			return nil, nil, &NotFoundError{Provider: provider, Sources: []string{m.ForDisplay(provider)}}
		}
		return nil, nil, fmt.Errorf("listing tags from OCI repository: %w", err)
	}
	list.Sort()
	return list, nil, nil
}

// ociRepoMissing reports the ways a registry says a repository does not
// exist when its tags are listed: NAME_UNKNOWN or NAME_INVALID, or a bare
// 404 without details. Authentication failures are not among them.
func ociRepoMissing(err error) bool {
	if errors.Is(err, errdef.ErrNotFound) {
		return true
	}
	var resp *errcode.ErrorResponse
	if !errors.As(err, &resp) {
		return false
	}
	if len(resp.Errors) == 0 {
		return resp.StatusCode == http.StatusNotFound
	}
	for _, e := range resp.Errors {
		if e.Code == errcode.ErrorCodeNameUnknown || e.Code == errcode.ErrorCodeNameInvalid {
			return true
		}
	}
	return false
}

// PackageMeta resolves the version's tag, reads the index manifest, picks
// the target platform's manifest and its zip layer.
func (m *OCIMirror) PackageMeta(ctx context.Context, provider addrs.Provider, version versions.Version, target addrs.Platform) (_ PackageMeta, err error) {
	ctx, cancel := m.bounded(ctx)
	defer cancel()
	defer func() { err = stalledCause(ctx, err) }()
	r, err := m.repository(ctx, provider)
	if err != nil {
		return PackageMeta{}, err
	}
	indexDesc, err := ociResolveVersion(ctx, r.repo, version)
	if err != nil {
		return PackageMeta{}, err
	}
	index, err := ocimanifest.Index(ctx, r.repo, indexDesc)
	if err != nil {
		return PackageMeta{}, err
	}
	imageDesc, err := ociSelectPlatform(index.Manifests, provider, version, target)
	if err != nil {
		return PackageMeta{}, err
	}
	image, err := ocimanifest.Image(ctx, r.repo, imageDesc)
	if err != nil {
		return PackageMeta{}, err
	}
	layer, err := ociSelectLayer(image.Layers)
	if err != nil {
		return PackageMeta{}, err
	}
	zh, err := ociZipHash(layer)
	if err != nil {
		return PackageMeta{}, err
	}
	return PackageMeta{
		Provider:       provider,
		Version:        version,
		TargetPlatform: target,
		Filename:       fmt.Sprintf("terraform-provider-%s_%s_%s_%s.zip", provider.Type, version, target.OS, target.Arch),
		Location:       OCIBlob{repo: r.repo, Domain: r.domain, Repository: r.name, desc: layer, idle: m.idle()},
		Authentication: &MirrorAuthentication{Platform: target, Hashes: []hashes.Hash{zh}, Flavour: flavour.OpenTofu},
	}, nil
}

func ociResolveVersion(ctx context.Context, repo *remote.Repository, version versions.Version) (ocispec.Descriptor, error) {
	tag := strings.ReplaceAll(version.String(), "+", "_")
	desc, err := repo.Resolve(ctx, tag)
	if err != nil {
		return desc, fmt.Errorf("resolving tag %q: %w", tag, err)
	}
	if desc.ArtifactType != "" && desc.ArtifactType != ociProviderArtifact {
		switch desc.ArtifactType {
		case ociTargetArtifact:
			return desc, errors.New("tag refers directly to image manifest, but OpenTofu providers require an index manifest for multi-platform support")
		case ociModuleArtifact:
			return desc, errors.New("selected OCI artifact is an OpenTofu module package, not a provider package")
		}
		return desc, fmt.Errorf("unsupported OCI artifact type %q", desc.ArtifactType)
	}
	switch desc.MediaType {
	case ocispec.MediaTypeImageIndex:
	case ocispec.MediaTypeImageManifest:
		return desc, errors.New("selected an OCI image manifest directly, but providers must be selected through a multi-platform index manifest")
	case ocispec.MediaTypeDescriptor:
		return desc, errors.New("found OCI descriptor but expected multi-platform index manifest")
	default:
		return desc, fmt.Errorf("unsupported media type %q for OCI index manifest", desc.MediaType)
	}
	desc.ArtifactType = ociProviderArtifact
	return desc, nil
}

func ociSelectPlatform(descs []ocispec.Descriptor, provider addrs.Provider, version versions.Version, target addrs.Platform) (ocispec.Descriptor, error) {
	var selected ocispec.Descriptor
	found, wrongPlatform := 0, 0
	wrongType := ""
	for _, d := range descs {
		if d.ArtifactType != ociTargetArtifact {
			if d.ArtifactType != "" {
				wrongType = d.ArtifactType
			}
			continue
		}
		if d.MediaType != ocispec.MediaTypeImageManifest {
			return selected, fmt.Errorf("provider image manifest has unsupported media type %q", d.MediaType)
		}
		if d.Platform == nil {
			return selected, errors.New("provider image manifest lacks the required platform constraints")
		}
		if d.Platform.OSVersion != "" || d.Platform.OS != target.OS || d.Platform.Architecture != target.Arch {
			wrongPlatform++
			continue
		}
		found++
		selected = d
	}
	switch {
	case found > 1:
		return selected, fmt.Errorf("ambiguous manifest has multiple descriptors for platform %s", target)
	case found == 1:
		return selected, nil
	case wrongPlatform > 0:
		return selected, &registry.PlatformUnsupportedError{Provider: provider, Version: version, Platform: target}
	case wrongType != "":
		return selected, fmt.Errorf("provider image manifest has unsupported artifact type %q", wrongType)
	}
	return selected, errors.New("provider image manifest has unsupported artifact type; is this a container image, rather than an OpenTofu provider?")
}

func ociSelectLayer(descs []ocispec.Descriptor) (ocispec.Descriptor, error) {
	var selected ocispec.Descriptor
	found, other := 0, 0
	for _, d := range descs {
		if d.MediaType != ociZipMediaType {
			other++
			continue
		}
		found++
		selected = d
	}
	switch {
	case found > 1:
		return selected, errors.New("ambiguous manifest declares multiple eligible provider packages")
	case found == 1:
		return selected, nil
	case other > 0:
		return selected, fmt.Errorf("image manifest contains no layers of type %q, but has other unsupported formats; this OCI artifact might be intended for a different version of OpenTofu", ociZipMediaType)
	}
	return selected, fmt.Errorf("image manifest contains no layers of type %q", ociZipMediaType)
}

// ociZipHash turns a sha256 layer digest into the package's "zh:" hash.
func ociZipHash(desc ocispec.Descriptor) (hashes.Hash, error) {
	if err := desc.Digest.Validate(); err != nil {
		return "", fmt.Errorf("invalid digest %q: %w", desc.Digest.String(), err)
	}
	if algo := desc.Digest.Algorithm(); algo != "sha256" {
		return "", fmt.Errorf("unsupported digest algorithm %q", algo.String())
	}
	return hashes.Hash("zh:" + desc.Digest.Encoded()), nil
}
