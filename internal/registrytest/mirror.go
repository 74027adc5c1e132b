package registrytest

import (
	"net/http"
)

// The network mirror serves every configured provider under any hostname:
// BASE/HOST/NS/TYPE/index.json, BASE/HOST/NS/TYPE/VERSION.json and the
// archives beside them (relative URLs).

func (s *Server) serveMirrorIndex(w http.ResponseWriter, r *http.Request, rt route, f *Fault) {
	p, _ := s.findVersion(rt.ns, rt.typ, "")
	if p == nil {
		http.NotFound(w, r)
		return
	}
	versions := map[string]any{}
	for _, v := range p.Versions {
		versions[v.Version] = map[string]any{}
	}
	s.writeJSON(w, r, f, map[string]any{"versions": versions})
}

func (s *Server) serveMirrorVersion(w http.ResponseWriter, r *http.Request, rt route, f *Fault) {
	_, v := s.findVersion(rt.ns, rt.typ, rt.version)
	if v == nil {
		http.NotFound(w, r)
		return
	}
	archives := map[string]any{}
	for _, pl := range platformsOf(v) {
		info, err := s.Package(rt.ns, rt.typ, rt.version, pl)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		archives[pl] = map[string]any{
			"url":    info.Filename,
			"hashes": []string{info.H1, info.ZH()},
		}
	}
	s.writeJSON(w, r, f, map[string]any{"archives": archives})
}
