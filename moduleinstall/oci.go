package moduleinstall

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"

	getter "github.com/hashicorp/go-getter"
	digest "github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	orasregistry "oras.land/oras-go/v2/registry"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/tfdeps/tfdeps/internal/ocimanifest"
)

// OCI module packages (oci://HOST/REPOSITORY?tag=T or ?digest=D) are
// image manifests of artifact type ociModuleArtifactType in an OCI
// distribution registry, whose one layer of a supported media type (only
// archive/zip) is the package's archive. The checks, their order and
// their messages are OpenTofu's: the registry is pinged first (so a
// registry that wants credentials fails there), the reference resolved to
// a descriptor that must name an image manifest, the manifest read
// (bounded) and checked against its digest, media type and artifact
// type, the layer chosen, downloaded to a temporary file and checked
// against its digest and size, and extracted as go-getter extracts zips.

const (
	ociModuleArtifactType = "application/vnd.opentofu.modulepkg"
	// ociDefaultTag is used when neither tag nor digest is given.
	ociDefaultTag = "latest"
)

// ociLayerFormats maps the layer media types of module packages to the
// decompressors that extract them, in order of preference.
var ociLayerFormats = []struct{ mediaType, format string }{
	{"archive/zip", "zip"},
}

// OCICredentials returns the credentials for the repository (a path such
// as "org/modules/net") on registry (HOST or HOST:PORT); a nil function
// means anonymous access. The function returned is only ever asked about
// that registry. An error stops the installation of the package.
type OCICredentials func(ctx context.Context, registry, repository string) (auth.CredentialFunc, error)

// ociGetter is the go-getter Getter of the oci scheme. go-getter hands it
// the package address without its subdirectory, and wraps its errors as
// for any getter.
type ociGetter struct {
	httpClient *http.Client
	creds      OCICredentials
	client     *getter.Client
}

var _ getter.Getter = (*ociGetter)(nil)

func (g *ociGetter) ctx() context.Context {
	if g.client != nil && g.client.Ctx != nil {
		return g.client.Ctx
	}
	return context.Background()
}

// SetClient implements getter.Getter.
func (g *ociGetter) SetClient(c *getter.Client) { g.client = c }

// ClientMode implements getter.Getter: packages are directories.
func (g *ociGetter) ClientMode(*url.URL) (getter.ClientMode, error) { return getter.ClientModeDir, nil }

// GetFile implements getter.Getter: go-getter asks for a file only when
// the address has an archive argument.
func (g *ociGetter) GetFile(string, *url.URL) error {
	return errors.New(`the "archive" argument is not allowed for OCI sources, because the archive format is detected automatically from the image manifest`)
}

// Get implements getter.Getter.
func (g *ociGetter) Get(dst string, u *url.URL) error {
	ctx := g.ctx()
	ref, err := ociRepositoryRef(u)
	if err != nil {
		return err
	}
	repo, err := g.repository(ctx, ref)
	if err != nil {
		return fmt.Errorf("configuring client for %s: %w", ref, err)
	}
	desc, err := ociResolve(ctx, repo, u.Query())
	if err != nil {
		return err
	}
	manifest, err := ocimanifest.Image(ctx, repo, desc)
	if err != nil {
		return err
	}
	layer, format, err := ociSelectLayer(manifest.Layers)
	if err != nil {
		return err
	}
	tmp, err := ociFetchBlob(ctx, repo, layer)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	var umask os.FileMode
	if g.client != nil {
		umask = g.client.Umask
	}
	if err := decompressors()[format].Decompress(dst, tmp, true, umask); err != nil {
		return fmt.Errorf("decompressing package into %s: %w", dst, err)
	}
	return nil
}

// ociRepositoryRef is the registry and repository of an oci:// address.
func ociRepositoryRef(u *url.URL) (orasregistry.Reference, error) {
	if !u.IsAbs() {
		return orasregistry.Reference{}, errors.New("oci source type requires an absolute URL")
	}
	if u.Scheme != "oci" {
		// oci::https://… forces the getter onto another scheme.
		return orasregistry.Reference{}, errors.New("oci source type only supports oci URL scheme")
	}
	ref := orasregistry.Reference{Registry: u.Host, Repository: strings.TrimPrefix(u.Path, "/")}
	return ref, ref.Validate()
}

// repository connects to ref's repository: the registry must answer a
// ping (with the credentials, if any).
func (g *ociGetter) repository(ctx context.Context, ref orasregistry.Reference) (*remote.Repository, error) {
	var cred auth.CredentialFunc
	if g.creds != nil {
		c, err := g.creds(ctx, ref.Registry, ref.Repository)
		if err != nil {
			return nil, fmt.Errorf("finding credentials for %q: %w", ref.Registry, err)
		}
		if c != nil {
			cred = func(ctx context.Context, hostport string) (auth.Credential, error) {
				// Never send them to another registry (a redirect).
				if hostport != ref.Registry {
					return auth.EmptyCredential, nil
				}
				return c(ctx, hostport)
			}
		}
	}
	hc := g.httpClient
	if hc == nil {
		hc = http.DefaultClient
	}
	client := &auth.Client{Client: hc, Credential: cred, Cache: auth.NewCache()}
	reg, err := remote.NewRegistry(ref.Registry)
	if err != nil {
		return nil, err
	}
	reg.Client = client
	if err := reg.Ping(ctx); err != nil {
		return nil, fmt.Errorf("failed to contact OCI registry at %q: %w", ref.Registry, err)
	}
	r, err := reg.Repository(ctx, ref.Repository)
	if err != nil {
		return nil, err
	}
	repo, ok := r.(*remote.Repository)
	if !ok {
		return nil, fmt.Errorf("unexpected repository client %T", r)
	}
	return repo, nil
}

// ociReference is the tag or digest the query asks for (the default tag
// when it names neither).
func ociReference(ref orasregistry.Reference, query url.Values) (tag string, d digest.Digest, err error) {
	names := make([]string, 0, len(query))
	for n := range query {
		names = append(names, n)
	}
	sort.Strings(names)
	var unsupported []string
	for _, name := range names {
		values := query[name]
		if len(values) > 1 {
			return "", "", fmt.Errorf("too many %q arguments", name)
		}
		value := values[0]
		switch name {
		case "tag":
			if value == "" {
				return "", "", errors.New("tag argument must not be empty")
			}
			r := ref
			r.Reference = value
			if err := r.ValidateReferenceAsTag(); err != nil {
				return "", "", err
			}
			tag = value
		case "digest":
			if value == "" {
				return "", "", errors.New("digest argument must not be empty")
			}
			if d, err = digest.Parse(value); err != nil {
				return "", "", fmt.Errorf("invalid digest: %s", err)
			}
		default:
			unsupported = append(unsupported, name)
		}
	}
	switch {
	case len(unsupported) == 1:
		return "", "", fmt.Errorf("unsupported argument %q", unsupported[0])
	case len(unsupported) > 1:
		return "", "", fmt.Errorf("unsupported arguments: %s", strings.Join(unsupported, ", "))
	case tag != "" && d != "":
		return "", "", errors.New(`cannot set both "tag" and "digest" arguments`)
	case tag == "" && d == "":
		tag = ociDefaultTag
	}
	return tag, d, nil
}

// ociResolve resolves the query's tag or digest to the descriptor of an
// image manifest.
func ociResolve(ctx context.Context, repo *remote.Repository, query url.Values) (ocispec.Descriptor, error) {
	tag, d, err := ociReference(repo.Reference, query)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	var desc ocispec.Descriptor
	if tag != "" {
		if desc, err = repo.Resolve(ctx, tag); err != nil {
			return ocispec.Descriptor{}, fmt.Errorf("resolving tag: %w", err)
		}
	} else if desc, err = repo.Resolve(ctx, d.String()); err != nil {
		return ocispec.Descriptor{}, fmt.Errorf("resolving digest: %w", err)
	}
	if desc.MediaType != ocispec.MediaTypeImageManifest {
		return ocispec.Descriptor{}, errors.New("selected object is not an OCI image manifest")
	}
	desc.ArtifactType = ociModuleArtifactType
	return desc, nil
}

// ociSelectLayer picks the package's layer: layers of unknown media types
// are skipped (a newer format), two of one known type are refused.
func ociSelectLayer(layers []ocispec.Descriptor) (ocispec.Descriptor, string, error) {
	found := map[string]ocispec.Descriptor{}
	others := 0
	for _, l := range layers {
		known := false
		for _, f := range ociLayerFormats {
			known = known || f.mediaType == l.MediaType
		}
		if !known {
			others++
			continue
		}
		if _, dup := found[l.MediaType]; dup {
			return ocispec.Descriptor{}, "", fmt.Errorf("multiple layers with media type %q", l.MediaType)
		}
		found[l.MediaType] = l
	}
	for _, f := range ociLayerFormats {
		if l, ok := found[f.mediaType]; ok {
			return l, f.format, nil
		}
	}
	const msg = "image manifest contains no layers of types supported as module packages by OpenTofu"
	if others > 0 {
		return ocispec.Descriptor{}, "", errors.New(msg + ", but has other unsupported formats; this OCI artifact might be intended for a different version of OpenTofu")
	}
	return ocispec.Descriptor{}, "", errors.New(msg)
}

// ociFetchBlob downloads the blob desc names into a temporary file,
// reading no more than its size and checking its digest, and returns the
// file's path (the caller removes it).
func ociFetchBlob(ctx context.Context, repo *remote.Repository, desc ocispec.Descriptor) (path string, err error) {
	f, err := os.CreateTemp("", "tfdeps-module")
	if err != nil {
		return "", fmt.Errorf("failed to open temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	defer f.Close()
	rc, err := repo.Fetch(ctx, desc)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	v := content.NewVerifyReader(rc, desc)
	if _, err := getter.Copy(ctx, f, v); err != nil {
		return "", err
	}
	if err := v.Verify(); err != nil {
		return "", fmt.Errorf("invalid blob returned from registry: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return f.Name(), nil
}

// ociCacheKey names an oci:// package in the shared cache by its
// repository and the digest of its manifest, "oci HOST/REPOSITORY@DIGEST":
// a digest pins the content, and a tag is resolved to one (contacting the
// registry). "" means not cached: a forced getter, an address the getter
// will refuse, or a tag that does not resolve to an image manifest now
// (the fetch then reports why).
func (f *fetcher) ociCacheKey(ctx context.Context, pkg string) string {
	if !strings.HasPrefix(pkg, "oci://") {
		return ""
	}
	u, err := url.Parse(pkg)
	if err != nil {
		return ""
	}
	ref, err := ociRepositoryRef(u)
	if err != nil {
		return ""
	}
	tag, d, err := ociReference(ref, u.Query())
	if err != nil {
		return ""
	}
	if tag != "" {
		g := &ociGetter{httpClient: f.opts.HTTPClient, creds: f.opts.OCICredentials}
		repo, err := g.repository(ctx, ref)
		if err != nil {
			return ""
		}
		desc, err := repo.Resolve(ctx, tag)
		if err != nil || desc.MediaType != ocispec.MediaTypeImageManifest || desc.Digest.Validate() != nil {
			return ""
		}
		d = desc.Digest
	}
	return "oci " + ref.Registry + "/" + ref.Repository + "@" + d.String()
}

// ociDigestAddress is the oci:// address of the package an OCI cache key
// names, by digest.
func ociDigestAddress(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "oci ")
	if !ok {
		return "", false
	}
	repo, d, ok := strings.Cut(rest, "@")
	if !ok {
		return "", false
	}
	return "oci://" + repo + "?digest=" + url.QueryEscape(d), true
}
