package serve

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/opentofu/svchost"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// The publishing API, below /api/v1/, needs a publish token:
//
//	PUT  providers/NS/TYPE/VERSION/FILE   upload a release file: a package
//	     zip, the SHA256SUMS document or its detached signature
//	POST providers/NS/TYPE/VERSION        publish the uploaded release; body
//	     {"protocols": ["5.0"], "gpg_public_keys": [{"key_id", "ascii_armor"}]}
//	PUT  modules/NS/NAME/SYSTEM/VERSION   publish a module archive (tar.gz or zip)
//	PUT  mirror/HOST/NS/TYPE/FILE.zip     import a package into the mirror
//
// A release becomes visible only when the POST has checked every package
// exactly as init would (SHA256SUMS line, checksum, signature) and written
// release.json. Nothing published is ever replaced: a second publish of the
// same version answers 409.

// commitLimit bounds the POST body.
const commitLimit = 1 << 20

func (s *Server) servePublish(w http.ResponseWriter, r *http.Request, segs []string) {
	setRoute(w, "publish")
	if s.publish.open() {
		http.Error(w, "publishing is disabled: the server has no publish tokens", http.StatusForbidden)
		return
	}
	if !s.publish.matches(r) {
		s.refuse(w, r, s.publish)
		return
	}
	switch {
	case len(segs) == 5 && segs[0] == "providers" && r.Method == http.MethodPut:
		s.uploadReleaseFile(w, r, segs[1:])
	case len(segs) == 4 && segs[0] == "providers" && r.Method == http.MethodPost:
		s.commitRelease(w, r, segs[1:])
	case len(segs) == 5 && segs[0] == "modules" && r.Method == http.MethodPut:
		s.publishModule(w, r, segs[1:])
	case len(segs) == 5 && segs[0] == "mirror" && r.Method == http.MethodPut:
		s.importMirrorPackage(w, r, segs[1:])
	default:
		http.Error(w, "unknown publishing request", http.StatusNotFound)
	}
}

// releaseFileKind classifies an uploaded release file name.
func releaseFileKind(typ string, v versions.Version, name string) string {
	base := "terraform-provider-" + typ + "_" + v.String() + "_"
	switch {
	case name == base+"SHA256SUMS":
		return "sums"
	case name == base+"SHA256SUMS.sig":
		return "sig"
	}
	if fv, _, ok := parseArchiveName(typ, name); ok && fv == v {
		return "zip"
	}
	return ""
}

func (s *Server) releaseTarget(w http.ResponseWriter, r *http.Request, ns, typ, version string) (versions.Version, bool) {
	v, ok := parseVersion(version)
	if !ok || !addrs.IsProviderPartNormalized(ns) || !addrs.IsProviderPartNormalized(typ) {
		http.Error(w, "invalid provider address or version", http.StatusBadRequest)
		return v, false
	}
	if _, err := s.store.Stat(r.Context(), releaseKey(ns, typ, v)); err == nil {
		http.Error(w, fmt.Sprintf("%s/%s %s is already published", ns, typ, v), http.StatusConflict)
		return v, false
	}
	return v, true
}

func (s *Server) uploadReleaseFile(w http.ResponseWriter, r *http.Request, segs []string) {
	ns, typ, name := segs[0], segs[1], segs[3]
	v, ok := s.releaseTarget(w, r, ns, typ, segs[2])
	if !ok {
		return
	}
	if releaseFileKind(typ, v, name) == "" {
		http.Error(w, "file name is not part of this release: want terraform-provider-TYPE_VERSION_OS_ARCH.zip, _SHA256SUMS or _SHA256SUMS.sig", http.StatusBadRequest)
		return
	}
	s.storeBody(w, r, releaseDir(ns, typ, v)+name, false)
}

// storeBody stores the request body, bounded by MaxArchiveSize.
func (s *Server) storeBody(w http.ResponseWriter, r *http.Request, key string, ifNotExist bool) bool {
	body := http.MaxBytesReader(w, r.Body, s.opts.MaxArchiveSize)
	n, err := s.store.Put(r.Context(), key, body, storage.PutOptions{MaxSize: s.opts.MaxArchiveSize, IfNotExist: ifNotExist})
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig), errors.Is(err, storage.ErrTooLarge):
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return false
	case errors.Is(err, storage.ErrExists):
		http.Error(w, "already published", http.StatusConflict)
		return false
	case err != nil:
		s.storageFailure(w, r, err)
		return false
	}
	s.log.Info("stored upload", "key", key, "bytes", n)
	w.WriteHeader(http.StatusCreated)
	return true
}

type commitRequest struct {
	Protocols []string        `json:"protocols"`
	Keys      []signingKeyDoc `json:"gpg_public_keys"`
}

func (s *Server) commitRelease(w http.ResponseWriter, r *http.Request, segs []string) {
	ns, typ := segs[0], segs[1]
	v, ok := s.releaseTarget(w, r, ns, typ, segs[2])
	if !ok {
		return
	}
	var req commitRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, commitLimit)).Decode(&req); err != nil {
		http.Error(w, "invalid publish request: "+err.Error(), http.StatusBadRequest)
		return
	}
	if len(req.Keys) == 0 {
		http.Error(w, "a release needs gpg_public_keys: clients verify its SHA256SUMS signature", http.StatusBadRequest)
		return
	}
	if len(req.Protocols) == 0 {
		req.Protocols = []string{"5.0"}
	}
	doc, err := s.checkRelease(r.Context(), s.selfProvider(r, ns, typ), v, req)
	if err != nil {
		s.log.Warn("refused a release", "path", r.URL.EscapedPath(), "error", err)
		http.Error(w, publicError(err), http.StatusUnprocessableEntity)
		return
	}
	body, _ := json.Marshal(doc)
	err = s.store.PutBytes(r.Context(), releaseKey(ns, typ, v), body, storage.PutOptions{ContentType: "application/json", IfNotExist: true})
	if errors.Is(err, storage.ErrExists) {
		http.Error(w, "already published", http.StatusConflict)
		return
	}
	if err != nil {
		s.storageFailure(w, r, err)
		return
	}
	s.log.Info("published provider", "provider", ns+"/"+typ, "version", v.String(), "platforms", len(doc.Platforms))
	w.WriteHeader(http.StatusCreated)
}

// selfProvider is the published provider's address on this server, for
// messages only.
func (s *Server) selfProvider(r *http.Request, ns, typ string) addrs.Provider {
	host, err := svchost.ForComparison(r.Host)
	if err != nil {
		host = svchost.Hostname("localhost")
	}
	return addrs.NewProvider(host, ns, typ)
}

// checkRelease authenticates every uploaded package of a release with the
// registry client's own checks, as a client of this server will, and
// computes the hashes for the packages map.
func (s *Server) checkRelease(ctx context.Context, p addrs.Provider, v versions.Version, req commitRequest) (*releaseDoc, error) {
	dir := releaseDir(p.Namespace, p.Type, v)
	base := "terraform-provider-" + p.Type + "_" + v.String() + "_"
	sums, err := s.store.ReadAll(ctx, dir+base+"SHA256SUMS", 4<<20)
	if err != nil {
		return nil, fmt.Errorf("release has no SHA256SUMS: %w", err)
	}
	sig, err := s.store.ReadAll(ctx, dir+base+"SHA256SUMS.sig", 1<<20)
	if err != nil {
		return nil, fmt.Errorf("release has no SHA256SUMS.sig: %w", err)
	}
	keys, err := s.store.List(ctx, dir, 10000)
	if err != nil {
		return nil, err
	}
	doc := &releaseDoc{Protocols: req.Protocols, Keys: req.Keys, Platforms: map[string]releasePlatform{}, SumsFile: base + "SHA256SUMS", SigFile: base + "SHA256SUMS.sig"}
	meta := &registry.PackageMeta{Provider: p, Version: v, Protocols: req.Protocols, SHA256SUMS: sums, Signature: sig}
	for _, k := range req.Keys {
		meta.SigningKeys = append(meta.SigningKeys, registry.SigningKey{KeyID: k.KeyID, ASCIIArmor: k.ASCIIArmor})
	}
	for _, k := range keys {
		name := strings.TrimPrefix(k, dir)
		fv, pl, ok := parseArchiveName(p.Type, name)
		if !ok || fv != v {
			continue
		}
		entry, err := s.checkPackage(ctx, meta, pl, k, name)
		if err != nil {
			return nil, err
		}
		doc.Platforms[pl.String()] = *entry
	}
	if len(doc.Platforms) == 0 {
		return nil, errors.New("release has no package archives")
	}
	if missing := sumsWithoutArchive(sums, doc); missing != "" {
		return nil, fmt.Errorf("SHA256SUMS lists %s, which was not uploaded", missing)
	}
	return doc, nil
}

func (s *Server) checkPackage(ctx context.Context, meta *registry.PackageMeta, pl addrs.Platform, key, name string) (*releasePlatform, error) {
	a, err := s.copyToTemp(ctx, key)
	if err != nil {
		return nil, err
	}
	defer a.Remove()
	m := *meta
	m.Platform, m.Filename, m.SHA256 = pl, name, a.SHA256
	if _, err := registry.Authenticate(&m, a, s.up.getenv); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	h1, err := hashes.HashZipFile(a.Path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &releasePlatform{
		Filename: name,
		SHA256:   hex.EncodeToString(a.SHA256[:]),
		Size:     a.Size,
		Hashes:   hashes.Strings(hashes.SortedUnique([]hashes.Hash{h1, a.ZH()})),
	}, nil
}

// copyToTemp copies an object into a temporary file, hashing it.
func (s *Server) copyToTemp(ctx context.Context, key string) (*registry.Archive, error) {
	obj, err := s.store.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer obj.Close()
	f, err := os.CreateTemp(s.tempDir, "tfdeps-serve-*.zip")
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), obj)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return nil, err
	}
	a := &registry.Archive{Path: f.Name(), Size: n}
	copy(a.SHA256[:], h.Sum(nil))
	return a, nil
}

// sumsWithoutArchive returns the first zip named in SHA256SUMS that the
// release lacks.
func sumsWithoutArchive(sums []byte, doc *releaseDoc) string {
	have := map[string]bool{}
	for _, p := range doc.Platforms {
		have[p.Filename] = true
	}
	sc := bufio.NewScanner(strings.NewReader(string(sums)))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 2 && strings.HasSuffix(fields[1], ".zip") && !have[fields[1]] {
			return fields[1]
		}
	}
	return ""
}

func (s *Server) publishModule(w http.ResponseWriter, r *http.Request, segs []string) {
	if !validModule(segs) {
		http.Error(w, "invalid module address", http.StatusBadRequest)
		return
	}
	v, ok := parseVersion(segs[3])
	if !ok {
		http.Error(w, "invalid module version", http.StatusBadRequest)
		return
	}
	ns, name, system := segs[0], segs[1], segs[2]
	if found, err := s.moduleVersions(r.Context(), ns, name, system); err == nil && found[v] != "" {
		http.Error(w, "already published", http.StatusConflict)
		return
	}
	br := bufio.NewReader(r.Body)
	magic, _ := br.Peek(4)
	file := ""
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		file = "module.tar.gz"
	case len(magic) == 4 && string(magic) == "PK\x03\x04":
		file = "module.zip"
	default:
		http.Error(w, "module archive must be a gzip-compressed tar or a zip", http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(br)
	s.storeBody(w, r, modulePrefix(ns, name, system)+v.String()+"/"+file, true)
}
