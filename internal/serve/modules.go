package serve

import (
	"context"
	"net/http"
	"regexp"
	"strings"

	"github.com/tfdeps/tfdeps/versions"
)

// Published modules live under
// "registry/modules/NAMESPACE/NAME/SYSTEM/VERSION/module.tar.gz" (or
// module.zip); the archive is the only object of a version, written
// atomically, so a version exists exactly when its archive does.

var (
	moduleNamePart   = regexp.MustCompile(`^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$`)
	moduleSystemPart = regexp.MustCompile(`^[0-9a-z]{1,64}$`)
)

// moduleArchiveNames are the stored archive names, by format.
var moduleArchiveNames = []string{"module.tar.gz", "module.zip"}

func modulePrefix(ns, name, system string) string {
	return "registry/modules/" + ns + "/" + name + "/" + system + "/"
}

func validModule(segs []string) bool {
	return len(segs) >= 3 && moduleNamePart.MatchString(segs[0]) && moduleNamePart.MatchString(segs[1]) && moduleSystemPart.MatchString(segs[2])
}

// serveModuleRegistry answers the module registry protocol below
// /v1/modules/ for published modules.
func (s *Server) serveModuleRegistry(w http.ResponseWriter, r *http.Request, segs []string) {
	setRoute(w, "registry_module")
	if !validModule(segs) {
		http.NotFound(w, r)
		return
	}
	ns, name, system := segs[0], segs[1], segs[2]
	if len(segs) == 4 && segs[3] == "versions" {
		setRoute(w, "registry_module_versions")
		s.serveModuleVersions(w, r, ns, name, system)
		return
	}
	if len(segs) != 5 {
		http.NotFound(w, r)
		return
	}
	v, ok := parseVersion(segs[3])
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch {
	case segs[4] == "download":
		setRoute(w, "registry_module_download")
		s.serveModuleDownload(w, r, ns, name, system, v)
	case segs[4] == "archive.tar.gz" || segs[4] == "archive.zip":
		setRoute(w, "registry_module_archive")
		key := modulePrefix(ns, name, system) + v.String() + "/module" + strings.TrimPrefix(segs[4], "archive")
		ct := "application/gzip"
		if strings.HasSuffix(key, ".zip") {
			ct = "application/zip"
		}
		s.serveObject(w, r, key, ct)
	default:
		http.NotFound(w, r)
	}
}

// moduleVersions lists published versions with their archive names.
func (s *Server) moduleVersions(ctx context.Context, ns, name, system string) (map[versions.Version]string, error) {
	prefix := modulePrefix(ns, name, system)
	keys, err := s.store.List(ctx, prefix, 100000)
	if err != nil {
		return nil, err
	}
	out := map[versions.Version]string{}
	for _, k := range keys {
		vs, file, ok := strings.Cut(strings.TrimPrefix(k, prefix), "/")
		if !ok {
			continue
		}
		v, ok := parseVersion(vs)
		if ok && (file == moduleArchiveNames[0] || file == moduleArchiveNames[1]) {
			out[v] = file
		}
	}
	return out, nil
}

func (s *Server) serveModuleVersions(w http.ResponseWriter, r *http.Request, ns, name, system string) {
	found, err := s.moduleVersions(r.Context(), ns, name, system)
	if err != nil {
		s.storageFailure(w, r, err)
		return
	}
	if len(found) == 0 {
		http.NotFound(w, r)
		return
	}
	list := make(versions.List, 0, len(found))
	for v := range found {
		list = append(list, v)
	}
	list.Sort()
	type version struct {
		Version string `json:"version"`
	}
	type module struct {
		Source   string    `json:"source"`
		Versions []version `json:"versions"`
	}
	m := module{Source: ns + "/" + name + "/" + system}
	for _, v := range list {
		m.Versions = append(m.Versions, version{Version: v.String()})
	}
	writeJSON(w, r, map[string]any{"modules": []module{m}})
}

// serveModuleDownload answers 204 with X-Terraform-Get naming the archive
// relative to the download URL ("./archive.tar.gz"), which every client
// resolves and fetches as a remote package.
func (s *Server) serveModuleDownload(w http.ResponseWriter, r *http.Request, ns, name, system string, v versions.Version) {
	ctx := r.Context()
	found, err := s.moduleVersions(ctx, ns, name, system)
	if err != nil {
		s.storageFailure(w, r, err)
		return
	}
	file, ok := found[v]
	if !ok {
		http.NotFound(w, r)
		return
	}
	archive := "archive" + strings.TrimPrefix(file, "module")
	q, err := s.fileQuery(ctx, "/v1/modules/"+ns+"/"+name+"/"+system+"/"+v.String()+"/"+archive)
	if err != nil {
		s.storageFailure(w, r, err)
		return
	}
	w.Header().Set("X-Terraform-Get", "./"+archive+q)
	w.WriteHeader(http.StatusNoContent)
}
