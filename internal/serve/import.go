package serve

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"net/http"
	"os"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// importMirrorPackage takes a package archive for the mirror (from a
// "providers mirror" directory, say) and keeps it only when it passes the
// upstream registry's authentication, exactly as a pulled package must: an
// import saves the download, not the checks.
func (s *Server) importMirrorPackage(w http.ResponseWriter, r *http.Request, segs []string) {
	if !s.isUpstream(segs[0]) {
		http.Error(w, "not a mirrored upstream host", http.StatusNotFound)
		return
	}
	p, ok := parseProvider(segs[0], segs[1], segs[2])
	if !ok {
		http.Error(w, "invalid provider address", http.StatusBadRequest)
		return
	}
	v, pl, ok := parseArchiveName(p.Type, segs[3])
	if !ok {
		http.Error(w, "invalid archive name", http.StatusBadRequest)
		return
	}
	if _, err := s.store.Stat(r.Context(), archiveKey(p, v, pl)); err == nil {
		w.WriteHeader(http.StatusOK) // already there; never replaced
		return
	}
	a, err := s.bodyToTemp(w, r)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "the archive exceeds the size limit", http.StatusRequestEntityTooLarge)
			return
		}
		s.log.Error("receiving an imported archive", "path", r.URL.EscapedPath(), "error", err)
		http.Error(w, "receiving the archive failed", http.StatusBadRequest)
		return
	}
	defer a.Remove()
	f, err := s.authenticateImport(r.Context(), p, v, pl, a)
	if err != nil {
		var auth *AuthenticationError
		if errors.As(err, &auth) {
			s.log.Warn("refused an imported archive", "path", r.URL.EscapedPath(), "error", err)
			http.Error(w, publicError(err), http.StatusUnprocessableEntity)
			return
		}
		s.upstreamFailure(w, r, "import", err)
		return
	}
	err = s.pull(r.Context(), recordKey(p, v, pl), func(ctx context.Context) error {
		_, err := s.storePackage(ctx, p, v, pl, f, "import")
		return err
	})
	if err != nil {
		s.storageFailure(w, r, err)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

func (s *Server) authenticateImport(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform, a *registry.Archive) (*fetched, error) {
	meta, _, err := s.up.registryMeta(ctx, p, v, pl)
	if err != nil {
		return nil, err
	}
	auth, err := meta.Authentication.AuthenticateArchive(a)
	if err != nil {
		return nil, &AuthenticationError{Provider: p, Version: v, Platform: pl, Err: err}
	}
	h1, err := hashes.HashZipFile(a.Path)
	if err != nil {
		return nil, &AuthenticationError{Provider: p, Version: v, Platform: pl, Err: err}
	}
	return &fetched{archive: a, auth: auth, h1: h1}, nil
}

// bodyToTemp saves the request body, bounded, into a temporary file.
func (s *Server) bodyToTemp(w http.ResponseWriter, r *http.Request) (*registry.Archive, error) {
	f, err := os.CreateTemp(s.tempDir, "tfdeps-serve-*.zip")
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), http.MaxBytesReader(w, r.Body, s.opts.MaxArchiveSize))
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
