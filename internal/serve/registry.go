package serve

import (
	"context"
	"net/http"
	"slices"
	"strings"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// Published providers live under "registry/providers/NAMESPACE/TYPE/VERSION/":
// the release files as uploaded (zips, SHA256SUMS, its signature) and
// release.json, written last, once the release was checked; a version
// without release.json does not exist.

func releasePrefix(ns, typ string) string { return "registry/providers/" + ns + "/" + typ + "/" }

func releaseDir(ns, typ string, v versions.Version) string {
	return releasePrefix(ns, typ) + v.String() + "/"
}

func releaseKey(ns, typ string, v versions.Version) string {
	return releaseDir(ns, typ, v) + "release.json"
}

// releaseDoc describes a published provider version.
type releaseDoc struct {
	Protocols []string                   `json:"protocols"`
	Keys      []signingKeyDoc            `json:"gpg_public_keys"`
	Platforms map[string]releasePlatform `json:"platforms"`
	SumsFile  string                     `json:"shasums"`
	SigFile   string                     `json:"shasums_signature"`
}

type signingKeyDoc struct {
	KeyID      string `json:"key_id"`
	ASCIIArmor string `json:"ascii_armor"`
}

type releasePlatform struct {
	Filename string   `json:"filename"`
	SHA256   string   `json:"shasum"`
	Size     int64    `json:"size"`
	Hashes   []string `json:"hashes"`
}

// serveProviderRegistry answers the provider registry protocol below
// /v1/providers/ for published providers.
func (s *Server) serveProviderRegistry(w http.ResponseWriter, r *http.Request, segs []string) {
	setRoute(w, "registry_provider")
	if len(segs) < 3 || !addrs.IsProviderPartNormalized(segs[0]) || !addrs.IsProviderPartNormalized(segs[1]) {
		http.NotFound(w, r)
		return
	}
	ns, typ := segs[0], segs[1]
	if len(segs) == 3 && segs[2] == "versions" {
		setRoute(w, "registry_provider_versions")
		s.serveProviderVersions(w, r, ns, typ)
		return
	}
	v, ok := parseVersion(segs[2])
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch {
	case len(segs) == 6 && segs[3] == "download":
		setRoute(w, "registry_provider_download")
		s.serveProviderPackage(w, r, ns, typ, v, segs[4]+"_"+segs[5])
	case len(segs) == 5 && segs[3] == "files":
		setRoute(w, "registry_provider_file")
		s.serveReleaseFile(w, r, ns, typ, v, segs[4])
	default:
		http.NotFound(w, r)
	}
}

// publishedVersions reads every release of a provider.
func (s *Server) publishedVersions(ctx context.Context, ns, typ string) (map[versions.Version]*releaseDoc, error) {
	keys, err := s.store.List(ctx, releasePrefix(ns, typ), 100000)
	if err != nil {
		return nil, err
	}
	out := map[versions.Version]*releaseDoc{}
	for _, k := range keys {
		rest := strings.TrimPrefix(k, releasePrefix(ns, typ))
		vs, file, ok := strings.Cut(rest, "/")
		if !ok || file != "release.json" {
			continue
		}
		v, ok := parseVersion(vs)
		if !ok {
			continue
		}
		var doc releaseDoc
		if err := s.readImmutable(ctx, k, &doc); err != nil {
			return nil, err
		}
		out[v] = &doc
	}
	return out, nil
}

func (s *Server) serveProviderVersions(w http.ResponseWriter, r *http.Request, ns, typ string) {
	rels, err := s.publishedVersions(r.Context(), ns, typ)
	if err != nil {
		s.storageFailure(w, r, err)
		return
	}
	if len(rels) == 0 {
		http.NotFound(w, r)
		return
	}
	type platform struct {
		OS   string `json:"os"`
		Arch string `json:"arch"`
	}
	type version struct {
		Version   string     `json:"version"`
		Protocols []string   `json:"protocols"`
		Platforms []platform `json:"platforms"`
	}
	list := make(versions.List, 0, len(rels))
	for v := range rels {
		list = append(list, v)
	}
	list.Sort()
	out := struct {
		Versions []version `json:"versions"`
	}{Versions: []version{}}
	for _, v := range list {
		doc := rels[v]
		ver := version{Version: v.String(), Protocols: doc.Protocols, Platforms: []platform{}}
		for _, name := range sortedKeys(doc.Platforms) {
			pl, _ := addrs.ParsePlatform(name)
			ver.Platforms = append(ver.Platforms, platform{OS: pl.OS, Arch: pl.Arch})
		}
		out.Versions = append(out.Versions, ver)
	}
	writeJSON(w, r, out)
}

func (s *Server) serveProviderPackage(w http.ResponseWriter, r *http.Request, ns, typ string, v versions.Version, platform string) {
	ctx := r.Context()
	var doc releaseDoc
	if err := s.readImmutable(ctx, releaseKey(ns, typ, v), &doc); err != nil {
		s.storageFailure(w, r, err)
		return
	}
	entry, ok := doc.Platforms[platform]
	if !ok {
		http.NotFound(w, r)
		return
	}
	pl, _ := addrs.ParsePlatform(platform)
	fileURL := func(name string) (string, error) {
		path := "/v1/providers/" + ns + "/" + typ + "/" + v.String() + "/files/" + name
		q, err := s.fileQuery(ctx, path)
		return path + q, err
	}
	download, err1 := fileURL(entry.Filename)
	sums, err2 := fileURL(doc.SumsFile)
	sig, err3 := fileURL(doc.SigFile)
	if err := firstErr(err1, err2, err3); err != nil {
		s.storageFailure(w, r, err)
		return
	}
	type pkg struct {
		Hashes      []string `json:"hashes"`
		PackageSize int64    `json:"package_size"`
	}
	packages := map[string]pkg{}
	for name, p := range doc.Platforms {
		packages[name] = pkg{Hashes: p.Hashes, PackageSize: p.Size}
	}
	writeJSON(w, r, map[string]any{
		"protocols":             doc.Protocols,
		"os":                    pl.OS,
		"arch":                  pl.Arch,
		"filename":              entry.Filename,
		"download_url":          download,
		"shasums_url":           sums,
		"shasums_signature_url": sig,
		"shasum":                entry.SHA256,
		"signing_keys":          map[string]any{"gpg_public_keys": doc.Keys},
		"packages":              packages,
	})
}

// serveReleaseFile serves one file of a published release.
func (s *Server) serveReleaseFile(w http.ResponseWriter, r *http.Request, ns, typ string, v versions.Version, name string) {
	var doc releaseDoc
	if err := s.readImmutable(r.Context(), releaseKey(ns, typ, v), &doc); err != nil {
		s.storageFailure(w, r, err)
		return
	}
	contentType := "application/zip"
	switch name {
	case doc.SumsFile:
		contentType = "text/plain; charset=utf-8"
	case doc.SigFile:
		contentType = "application/octet-stream"
	default:
		found := false
		for _, p := range doc.Platforms {
			found = found || p.Filename == name
		}
		if !found {
			http.NotFound(w, r)
			return
		}
	}
	s.serveObject(w, r, releaseDir(ns, typ, v)+name, contentType)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
