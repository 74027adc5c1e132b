package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// serveMirror answers HOST/NAMESPACE/TYPE/FILE of the network mirror
// protocol; HOST is one of the upstreams.
func (s *Server) serveMirror(w http.ResponseWriter, r *http.Request, segs []string) {
	p, ok := parseProvider(segs[0], segs[1], segs[2])
	if !ok {
		setRoute(w, "mirror_invalid")
		http.NotFound(w, r)
		return
	}
	file := segs[3]
	switch {
	case file == "index.json":
		setRoute(w, "mirror_index")
		s.serveMirrorIndex(w, r, p)
	case strings.HasSuffix(file, ".json"):
		setRoute(w, "mirror_version")
		v, ok := parseVersion(strings.TrimSuffix(file, ".json"))
		if !ok {
			http.NotFound(w, r)
			return
		}
		s.serveMirrorVersion(w, r, p, v)
	case strings.HasSuffix(file, ".zip"):
		setRoute(w, "mirror_archive")
		v, pl, ok := parseArchiveName(p.Type, file)
		if !ok {
			http.NotFound(w, r)
			return
		}
		s.serveMirrorArchive(w, r, p, v, pl)
	default:
		setRoute(w, "mirror_invalid")
		http.NotFound(w, r)
	}
}

type mirrorIndexDoc struct {
	Versions map[string]struct{} `json:"versions"`
}

func (s *Server) serveMirrorIndex(w http.ResponseWriter, r *http.Request, p addrs.Provider) {
	doc, err := s.upstreamVersions(r.Context(), p)
	if err != nil {
		s.upstreamFailure(w, r, "versions", err)
		return
	}
	out := mirrorIndexDoc{Versions: map[string]struct{}{}}
	for v := range doc.Versions {
		out.Versions[v] = struct{}{}
	}
	writeJSON(w, r, out)
}

// upstreamVersions returns the cached version list, refreshing it when
// older than IndexTTL; when the refresh fails (other than by the upstream
// saying the provider does not exist), the expired list is served, counted
// as a "stale" cache answer and logged.
func (s *Server) upstreamVersions(ctx context.Context, p addrs.Provider) (*versionsDoc, error) {
	if m, ok := s.versionsMem.Load(versionsKey(p)); ok && s.fresh(m.(*versionsDoc)) {
		s.metrics.cache.WithLabelValues("versions", "hit").Inc()
		return m.(*versionsDoc), nil
	}
	var cached versionsDoc
	err := readDoc(ctx, s.store, versionsKey(p), &cached)
	haveCached := err == nil
	if haveCached && s.fresh(&cached) {
		s.metrics.cache.WithLabelValues("versions", "hit").Inc()
		s.versionsMem.Store(versionsKey(p), &cached)
		return &cached, nil
	}
	s.metrics.cache.WithLabelValues("versions", "miss").Inc()
	v, err, _ := s.flight.Do("versions:"+versionsKey(p), func() (any, error) {
		ctx, cancel := s.detached()
		defer cancel()
		return s.refreshVersions(ctx, p)
	})
	if err != nil {
		if haveCached && !isDefinitive(err) {
			s.metrics.cache.WithLabelValues("versions", "stale").Inc()
			s.log.Warn("serving an expired version list: the upstream failed", "provider", p.String(),
				"fetched", cached.Fetched, "error", err)
			return &cached, nil
		}
		return nil, err
	}
	return v.(*versionsDoc), nil
}

// fresh reports whether a cached version list is younger than IndexTTL.
func (s *Server) fresh(d *versionsDoc) bool { return s.opts.Now().Sub(d.Fetched) < s.opts.IndexTTL }

func (s *Server) refreshVersions(ctx context.Context, p addrs.Provider) (*versionsDoc, error) {
	list, err := s.up.versions(ctx, p)
	if err != nil {
		return nil, err
	}
	doc := &versionsDoc{Fetched: s.opts.Now().UTC(), Versions: map[string][]string{}, Warnings: list.Warnings}
	for _, v := range list.Versions {
		var pls []string
		for _, pl := range list.Platforms[v] {
			pls = append(pls, pl.String())
		}
		slices.Sort(pls)
		doc.Versions[v.String()] = slices.Compact(pls)
	}
	if err := writeDoc(ctx, s.store, versionsKey(p), doc); err != nil {
		s.log.Error("storing version list", "provider", p.String(), "error", err)
	}
	s.versionsMem.Store(versionsKey(p), doc)
	return doc, nil
}

// isDefinitive reports upstream answers that a cached list must not hide.
func isDefinitive(err error) bool {
	var unknown *registry.ProviderUnknownError
	return errors.As(err, &unknown)
}

type mirrorVersionDoc struct {
	Archives map[string]mirrorArchiveDoc `json:"archives"`
}

type mirrorArchiveDoc struct {
	Hashes []string `json:"hashes"`
	URL    string   `json:"url"`
}

func (s *Server) serveMirrorVersion(w http.ResponseWriter, r *http.Request, p addrs.Provider, v versions.Version) {
	ctx := r.Context()
	known, err := s.versionHashes(ctx, p, v)
	if err != nil {
		s.upstreamFailure(w, r, "platforms", err)
		return
	}
	listed, err := s.completeHashes(ctx, p, v, known)
	if err != nil {
		s.upstreamFailure(w, r, "archive", err)
		return
	}
	out := mirrorVersionDoc{Archives: map[string]mirrorArchiveDoc{}}
	for plName, hs := range listed {
		pl, _ := addrs.ParsePlatform(plName)
		name := archiveName(p.Type, v, pl)
		q, err := s.fileQuery(ctx, "/"+string(p.Hostname)+"/"+p.Namespace+"/"+p.Type+"/"+name)
		if err != nil {
			s.storageFailure(w, r, err)
			return
		}
		out.Archives[plName] = mirrorArchiveDoc{Hashes: hs, URL: name + q}
	}
	writeIndentedJSON(w, r, out)
}

// maxHashPulls bounds the archives of one version that completeHashes
// fetches at a time.
const maxHashPulls = 4

// completeHashes returns, for every platform of known, the hashes a
// faithful mirror lists: the archive's h1: and zh:. A stored archive's
// record gives them (computed from its bytes); else the hashes vouched for
// from the registry's signed metadata (known) when they hold both kinds;
// else the platform's archive is pulled (downloaded, authenticated,
// hashed and stored once, as an archive request would) and its record
// read. So VERSION.json is the same whether the store is cold, warm or
// shared with a restarted replica, and whether or not the upstream sends
// a "packages" map; only the first answer of a version may wait for the
// downloads. A platform whose archive cannot be had fails the answer: a
// partial list would make a lock differ from one made later.
func (s *Server) completeHashes(ctx context.Context, p addrs.Provider, v versions.Version, known map[string][]string) (map[string][]string, error) {
	out := map[string][]string{}
	var missing []addrs.Platform
	for plName, hs := range known {
		pl, err := addrs.ParsePlatform(plName)
		if err != nil {
			continue
		}
		var rec packageRecord
		if err := s.readImmutable(ctx, recordKey(p, v, pl), &rec); err == nil {
			out[plName] = hashes.Strings(parseHashList(rec.Hashes))
			continue
		} else if !isNotFound(err) {
			return nil, err
		}
		if listed := parseHashList(hs); hasBothKinds(listed) {
			out[plName] = hashes.Strings(listed)
			continue
		}
		missing = append(missing, pl)
	}
	if len(missing) == 0 {
		return out, nil
	}
	s.metrics.cache.WithLabelValues("version_hashes", "miss").Add(float64(len(missing)))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(maxHashPulls)
	for _, pl := range missing {
		g.Go(func() error {
			return s.pull(gctx, recordKey(p, v, pl), func(ctx context.Context) error { return s.pullArchive(ctx, p, v, pl) })
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	for _, pl := range missing {
		var rec packageRecord
		if err := s.readImmutable(ctx, recordKey(p, v, pl), &rec); err != nil {
			return nil, fmt.Errorf("reading the record of %s %s %s: %w", p, v, pl, err)
		}
		out[pl.String()] = hashes.Strings(parseHashList(rec.Hashes))
	}
	return out, nil
}

// hasBothKinds reports whether hs holds an h1: and a zh: hash.
func hasBothKinds(hs []hashes.Hash) bool {
	return slices.ContainsFunc(hs, func(h hashes.Hash) bool { return h.Scheme() == hashes.SchemeH1 }) &&
		slices.ContainsFunc(hs, func(h hashes.Hash) bool { return h.Scheme() == hashes.SchemeZip })
}

// versionHashes returns, for every platform of v, the hashes the registry
// stated (checked against its signed SHA256SUMS), fetched once and kept.
func (s *Server) versionHashes(ctx context.Context, p addrs.Provider, v versions.Version) (map[string][]string, error) {
	var doc platformsDoc
	err := s.readImmutable(ctx, platformsKey(p, v), &doc)
	if err == nil {
		s.metrics.cache.WithLabelValues("platforms", "hit").Inc()
		return doc.Platforms, nil
	}
	if !isNotFound(err) {
		return nil, err
	}
	s.metrics.cache.WithLabelValues("platforms", "miss").Inc()
	res, err, _ := s.flight.Do("platforms:"+platformsKey(p, v), func() (any, error) {
		ctx, cancel := s.detached()
		defer cancel()
		return s.fetchVersionHashes(ctx, p, v)
	})
	if err != nil {
		return nil, err
	}
	return res.(map[string][]string), nil
}

func (s *Server) fetchVersionHashes(ctx context.Context, p addrs.Provider, v versions.Version) (map[string][]string, error) {
	list, err := s.upstreamVersions(ctx, p)
	if err != nil {
		return nil, err
	}
	names, ok := list.Versions[v.String()]
	if !ok {
		return nil, &registry.PlatformUnsupportedError{Provider: p, Version: v}
	}
	var platforms []addrs.Platform
	for _, n := range names {
		if pl, err := addrs.ParsePlatform(n); err == nil {
			platforms = append(platforms, pl)
		}
	}
	found, err := s.up.platformHashes(ctx, p, v, platforms)
	if err != nil {
		return nil, err
	}
	doc := platformsDoc{Fetched: s.opts.Now().UTC(), Platforms: map[string][]string{}}
	for pl, hs := range found {
		doc.Platforms[pl.String()] = hashes.Strings(hs)
	}
	if err := writeDoc(ctx, s.store, platformsKey(p, v), doc); err != nil {
		s.log.Error("storing platform hashes", "provider", p.String(), "version", v.String(), "error", err)
	}
	return doc.Platforms, nil
}

// writeJSON writes v as compact JSON.
func writeJSON(w http.ResponseWriter, r *http.Request, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSONBytes(w, r, b)
}

// writeIndentedJSON writes v as "providers mirror" writes its index files.
func writeIndentedJSON(w http.ResponseWriter, r *http.Request, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSONBytes(w, r, b)
}

func writeJSONBytes(w http.ResponseWriter, r *http.Request, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", itoa(int64(len(b))))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(b)
	}
}
