package registrytest

// The module registry protocol (modules.md §3) and module packages: the
// versions list, the download endpoint in each of its answer forms,
// archives built from in-test file maps, and an HTTP "page" answering
// terraform-get=1 with X-Terraform-Get.

import (
	"fmt"
	"net/http"
	"strings"
)

// Module is one module of the fake registry. Set Options.Modules.
// The JSON names let scripts describe modules in fake.json.
type Module struct {
	Namespace string          `json:"namespace"`
	Name      string          `json:"name"`
	System    string          `json:"system"`
	Versions  []ModuleVersion `json:"versions"`
}

// LocationKind selects how the download endpoint answers.
type LocationKind int

const (
	// HeaderLocation answers 204 with X-Terraform-Get (the default).
	HeaderLocation LocationKind = iota
	// JSONLocation answers 200 {"location": LOC}.
	JSONLocation
	// DirectLocation answers 200 {"location": URL,
	// "use_registry_credentials": ModuleVersion.UseCredentials}: an archive
	// hosted by the registry.
	DirectLocation
)

// ModuleVersion is one version of a Module.
type ModuleVersion struct {
	// Version as listed in the versions response (may be any string).
	Version string `json:"version"`
	// Files of the package: slash path → content. A path ending in "*" is
	// written executable (mode 0755) without the "*"; others 0644.
	Files map[string]string `json:"files"`
	// Format of the archive: "zip" (default), "tar.gz", "tgz", "tar.bz2"
	// (needs the bzip2 command), "tar.xz".
	Format string `json:"format"`
	// Prefix puts every file under this directory inside the archive and
	// adds "//Prefix" to the location (like GitHub tarballs).
	Prefix string `json:"prefix"`
	// Location selects the answer form.
	Location LocationKind `json:"location"`
	// RelativeLocation gives a location relative to the download URL
	// ("/modfiles/…") instead of an absolute URL.
	RelativeLocation bool `json:"relative_location"`
	// ViaPage makes the location the module's HTTP page (ModulePage),
	// which answers with X-Terraform-Get pointing at the archive.
	ViaPage bool `json:"via_page"`
	// RawLocation, when set, is returned as the location verbatim.
	RawLocation string `json:"raw_location"`
	// UseCredentials is use_registry_credentials for DirectLocation.
	UseCredentials bool `json:"use_credentials"`
}

// UnmarshalText reads "header", "json" or "direct" (fake.json).
func (k *LocationKind) UnmarshalText(b []byte) error {
	switch string(b) {
	case "header", "":
		*k = HeaderLocation
	case "json":
		*k = JSONLocation
	case "direct":
		*k = DirectLocation
	default:
		return fmt.Errorf("unknown location kind %q (want header, json or direct)", b)
	}
	return nil
}

// ModulesBaseURL is the modules.v1 base URL, ending in "/".
func (s *Server) ModulesBaseURL() string { return s.srv.URL + "/v1/modules/" }

// ModuleArchiveURL is the absolute URL of a module version's archive.
func (s *Server) ModuleArchiveURL(ns, name, system string, v ModuleVersion) string {
	return s.srv.URL + moduleArchivePath(ns, name, system, v)
}

func moduleArchivePath(ns, name, system string, v ModuleVersion) string {
	return fmt.Sprintf("/modfiles/%s/%s/%s/%s.%s", ns, name, system, v.Version, v.format())
}

func (v ModuleVersion) format() string {
	if v.Format == "" {
		return "zip"
	}
	return v.Format
}

// ModulesCLIConfig returns CLI configuration text with a host block per
// hostname pointing both providers.v1 and modules.v1 at this server.
func (s *Server) ModulesCLIConfig(hostnames ...string) string {
	if len(hostnames) == 0 {
		hostnames = DefaultHostnames()
	}
	var b strings.Builder
	for _, h := range hostnames {
		fmt.Fprintf(&b, "host %q {\n  services = {\n    \"providers.v1\" = %q\n    \"modules.v1\" = %q\n  }\n}\n\n", h, s.ProvidersBaseURL(), s.ModulesBaseURL())
	}
	return b.String()
}

// ModuleHostServices is HostServices with modules.v1 added.
func (s *Server) ModuleHostServices(hostnames ...string) map[string]map[string]any {
	out := s.HostServices(hostnames...)
	for _, svc := range out {
		svc["modules.v1"] = s.ModulesBaseURL()
	}
	return out
}

// classifyModule recognises the module endpoints.
func classifyModule(parts []string) (route, bool) {
	switch {
	case len(parts) == 6 && parts[0] == "v1" && parts[1] == "modules" && parts[5] == "versions":
		return route{endpoint: ModuleVersions, ns: parts[2], typ: parts[3], system: parts[4]}, true
	case len(parts) == 7 && parts[0] == "v1" && parts[1] == "modules" && parts[6] == "download":
		return route{endpoint: ModuleDownload, ns: parts[2], typ: parts[3], system: parts[4], version: parts[5]}, true
	case len(parts) == 5 && parts[0] == "modfiles":
		return route{endpoint: ModuleArchive, ns: parts[1], typ: parts[2], system: parts[3], file: parts[4]}, true
	case len(parts) == 5 && parts[0] == "modpage":
		return route{endpoint: ModulePage, ns: parts[1], typ: parts[2], system: parts[3], version: parts[4]}, true
	}
	return route{}, false
}

// findModule returns the module of a route.
func (s *Server) findModule(rt route) (Module, bool) {
	for _, m := range s.opts.Modules {
		if m.Namespace == rt.ns && m.Name == rt.typ && m.System == rt.system {
			return m, true
		}
	}
	return Module{}, false
}

func (m Module) version(v string) (ModuleVersion, bool) {
	for _, mv := range m.Versions {
		if mv.Version == v {
			return mv, true
		}
	}
	return ModuleVersion{}, false
}

func (s *Server) serveModules(w http.ResponseWriter, r *http.Request, rt route, f *Fault) {
	mod, ok := s.findModule(rt)
	if !ok {
		http.NotFound(w, r)
		return
	}
	switch rt.endpoint {
	case ModuleVersions:
		s.serveModuleVersions(w, r, mod, f)
	case ModuleDownload:
		s.serveModuleDownload(w, r, mod, rt, f)
	case ModulePage:
		s.serveModulePage(w, r, mod, rt)
	case ModuleArchive:
		s.serveModuleArchive(w, r, mod, rt, f)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) serveModuleVersions(w http.ResponseWriter, r *http.Request, mod Module, f *Fault) {
	type ver struct {
		Version string `json:"version"`
	}
	vs := make([]ver, 0, len(mod.Versions))
	for _, v := range mod.Versions {
		vs = append(vs, ver{v.Version})
	}
	s.writeJSON(w, r, f, map[string]any{"modules": []any{map[string]any{
		"source": mod.Namespace + "/" + mod.Name + "/" + mod.System, "versions": vs,
	}}})
}

// location is the address the download endpoint returns for v.
func (s *Server) location(mod Module, v ModuleVersion) string {
	if v.RawLocation != "" {
		return v.RawLocation
	}
	var loc string
	switch {
	case v.ViaPage:
		loc = fmt.Sprintf("/modpage/%s/%s/%s/%s", mod.Namespace, mod.Name, mod.System, v.Version)
	default:
		loc = moduleArchivePath(mod.Namespace, mod.Name, mod.System, v)
	}
	if !v.RelativeLocation {
		loc = s.srv.URL + loc
	}
	if v.Prefix != "" && v.Location != DirectLocation {
		loc += "//" + v.Prefix
	}
	return loc
}

func (s *Server) serveModuleDownload(w http.ResponseWriter, r *http.Request, mod Module, rt route, f *Fault) {
	v, ok := mod.version(rt.version)
	if !ok {
		http.NotFound(w, r)
		return
	}
	loc := s.location(mod, v)
	switch v.Location {
	case JSONLocation:
		s.writeJSON(w, r, f, map[string]any{"location": loc})
	case DirectLocation:
		s.writeJSON(w, r, f, map[string]any{"location": loc, "use_registry_credentials": v.UseCredentials})
	default:
		w.Header().Set("X-Terraform-Get", loc)
		w.WriteHeader(http.StatusNoContent)
	}
}

// serveModulePage answers a go-getter HTTP page request: with
// terraform-get=1 it returns X-Terraform-Get pointing at the archive
// (absolute, with the Prefix subdirectory).
func (s *Server) serveModulePage(w http.ResponseWriter, r *http.Request, mod Module, rt route) {
	v, ok := mod.version(rt.version)
	if !ok || r.URL.Query().Get("terraform-get") != "1" {
		http.NotFound(w, r)
		return
	}
	loc := s.ModuleArchiveURL(mod.Namespace, mod.Name, mod.System, v)
	if v.Prefix != "" {
		loc += "//" + v.Prefix
	}
	w.Header().Set("X-Terraform-Get", loc)
	w.WriteHeader(http.StatusOK)
}

func (s *Server) serveModuleArchive(w http.ResponseWriter, r *http.Request, mod Module, rt route, f *Fault) {
	for _, v := range mod.Versions {
		if rt.file != v.Version+"."+v.format() {
			continue
		}
		body, err := BuildModuleArchive(v.format(), v.Prefix, v.Files)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if f != nil && f.Kind == Tamper && len(body) > 0 {
			body = append([]byte(nil), body...)
			body[len(body)/2] ^= 0xff
		}
		ct := "application/zip"
		if v.format() != "zip" {
			ct = "application/x-tar"
		}
		s.writeBody(w, r, f, ct, int64(len(body)), bytesGen(body))
		return
	}
	http.NotFound(w, r)
}
