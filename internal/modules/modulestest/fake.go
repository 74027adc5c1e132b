// Package modulestest serves the module registry protocol for tests and
// benchmarks, on top of a registrytest.Server (its TLS, request log and
// fault-free overrides): versions, download locations (indirect through
// X-Terraform-Get, or a registry-hosted archive) and tar.gz/zip archives
// built from in-memory files. It is test support only.
package modulestest

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// Module is one version of a module the fake serves.
type Module struct {
	Namespace, Name, System, Version string
	// Files maps slash paths to contents; names ending in ".sh" get mode
	// 0755, others 0644.
	Files map[string]string
	// Direct serves the download location as a registry-hosted archive
	// (JSON with use_registry_credentials) instead of X-Terraform-Get.
	Direct bool
	// Zip serves a zip archive instead of a tar.gz.
	Zip bool
	// Location, when set, is returned as X-Terraform-Get as it is.
	Location string
}

func (m Module) pkgPath() string { return m.Namespace + "/" + m.Name + "/" + m.System }

// ArchivePath is the URL path of m's archive.
func (m Module) ArchivePath() string {
	ext := ".tar.gz"
	if m.Zip {
		ext = ".zip"
	}
	return "/modfiles/" + m.pkgPath() + "/" + m.Version + ext
}

// Fake is a module registry on a registrytest.Server.
type Fake struct {
	srv   *registrytest.Server
	delay time.Duration
}

// ModulesBasePath is the URL path of the modules.v1 service.
const ModulesBasePath = "/v1/modules/"

// Serve registers mods on s. Every response waits delay first (a
// network's round trip, for benchmarks; 0 in tests).
func Serve(s *registrytest.Server, mods []Module, delay time.Duration) (*Fake, error) {
	f := &Fake{srv: s, delay: delay}
	byPkg := map[string][]Module{}
	for _, m := range mods {
		byPkg[m.pkgPath()] = append(byPkg[m.pkgPath()], m)
	}
	for pkg, list := range byPkg {
		s.Override(ModulesBasePath+pkg+"/versions", f.wait(versionsHandler(list)))
		for _, m := range list {
			archive, err := buildArchive(m)
			if err != nil {
				return nil, err
			}
			s.Override(ModulesBasePath+pkg+"/"+m.Version+"/download", f.wait(downloadHandler(m)))
			s.Override(m.ArchivePath(), f.wait(archiveHandler(archive, m.Zip)))
		}
	}
	return f, nil
}

func (f *Fake) wait(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if f.delay > 0 {
			time.Sleep(f.delay)
		}
		h(w, r)
	}
}

// ArchiveRequests counts the GET requests for archives (package downloads).
func (f *Fake) ArchiveRequests() int {
	n := 0
	for _, r := range f.srv.Requests() {
		if r.Method == http.MethodGet && strings.HasPrefix(r.Path, "/modfiles/") {
			n++
		}
	}
	return n
}

// CLIConfig is CLI configuration text with a host block per hostname
// pointing providers.v1 and modules.v1 at the server.
func (f *Fake) CLIConfig(hostnames ...string) string {
	var b strings.Builder
	for _, h := range hostnames {
		fmt.Fprintf(&b, "host %q {\n  services = {\n    \"providers.v1\" = %q\n    \"modules.v1\" = %q\n  }\n}\n\n", h, f.srv.ProvidersBaseURL(), f.srv.URL()+ModulesBasePath)
	}
	return b.String()
}

func versionsHandler(list []Module) http.HandlerFunc {
	type ver struct {
		Version string `json:"version"`
	}
	var vs []ver
	for _, m := range list {
		vs = append(vs, ver{m.Version})
	}
	body, _ := json.Marshal(map[string]any{"modules": []any{map[string]any{"versions": vs}}})
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}
}

func downloadHandler(m Module) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch {
		case m.Location != "":
			w.Header().Set("X-Terraform-Get", m.Location)
			w.WriteHeader(http.StatusNoContent)
		case m.Direct:
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"location": m.ArchivePath(), "use_registry_credentials": false})
		default:
			w.Header().Set("X-Terraform-Get", m.ArchivePath())
			w.WriteHeader(http.StatusNoContent)
		}
	}
}

func archiveHandler(archive []byte, isZip bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if isZip {
			w.Header().Set("Content-Type", "application/zip")
		} else {
			w.Header().Set("Content-Type", "application/x-gzip")
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(archive)))
		if r.Method == http.MethodHead {
			return
		}
		w.Write(archive)
	}
}

func buildArchive(m Module) ([]byte, error) {
	names := make([]string, 0, len(m.Files))
	for n := range m.Files {
		names = append(names, n)
	}
	sort.Strings(names)
	if m.Zip {
		return buildZip(names, m.Files)
	}
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, n := range names {
		hdr := &tar.Header{Name: n, Mode: fileMode(n), Size: int64(len(m.Files[n])), Typeflag: tar.TypeReg, ModTime: time.Unix(1700000000, 0)}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(m.Files[n])); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func buildZip(names []string, files map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate}
		h.SetMode(0o644)
		if strings.HasSuffix(n, ".sh") {
			h.SetMode(0o755)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(files[n])); err != nil {
			return nil, err
		}
	}
	err := zw.Close()
	return buf.Bytes(), err
}

func fileMode(name string) int64 {
	if strings.HasSuffix(name, ".sh") {
		return 0o755
	}
	return 0o644
}

// ServePage serves path as an HTML page whose X-Terraform-Get header
// (and terraform-get meta tag) is location: go-getter's "page" form of
// an http source.
func (f *Fake) ServePage(path, location string) {
	f.srv.Override(path, f.wait(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Terraform-Get", location)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><head><meta name=\"terraform-get\" content=%q></head></html>\n", location)
	}))
}
