package registrytest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// route is a classified request path.
type route struct {
	endpoint Endpoint
	host     string // mirror only
	ns, typ  string
	version  string
	platform string
	file     string
	system   string // module registry only
}

func classify(path string) route {
	if path == "/.well-known/terraform.json" {
		return route{endpoint: Discovery}
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if rt, ok := classifyModule(parts); ok {
		return rt
	}
	switch {
	case len(parts) == 5 && parts[0] == "v1" && parts[1] == "providers" && parts[4] == "versions":
		return route{endpoint: Versions, ns: parts[2], typ: parts[3]}
	case len(parts) == 8 && parts[0] == "v1" && parts[1] == "providers" && parts[5] == "download":
		return route{endpoint: PackageMeta, ns: parts[2], typ: parts[3], version: parts[4], platform: parts[6] + "_" + parts[7]}
	case len(parts) == 5 && parts[0] == "files":
		rt := route{ns: parts[1], typ: parts[2], version: parts[3], file: parts[4]}
		switch {
		case strings.HasSuffix(rt.file, "_SHA256SUMS"):
			rt.endpoint = SHA256SUMS
		case strings.HasSuffix(rt.file, "_SHA256SUMS.sig"):
			rt.endpoint = Signature
		case strings.HasSuffix(rt.file, ".zip"):
			rt.endpoint = Archive
		}
		return rt
	case len(parts) == 5 && parts[0] == "mirror":
		rt := route{host: parts[1], ns: parts[2], typ: parts[3], file: parts[4]}
		switch {
		case rt.file == "index.json":
			rt.endpoint = MirrorIndex
		case strings.HasSuffix(rt.file, ".json"):
			rt.endpoint, rt.version = MirrorVersion, strings.TrimSuffix(rt.file, ".json")
		case strings.HasSuffix(rt.file, ".zip"):
			rt.endpoint = MirrorArchive
		}
		return rt
	}
	return route{}
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	rt := classify(r.URL.Path)
	if override := s.record(rt.endpoint, r); override != nil {
		override(w, r)
		return
	}
	f := s.takeFault(rt.endpoint)
	if f != nil && s.applyEarlyFault(w, r, f) {
		return
	}
	if !s.authorized(w, r, rt.endpoint) {
		return
	}
	switch rt.endpoint {
	case Discovery:
		s.writeJSON(w, r, f, map[string]any{"providers.v1": "/v1/providers/", "modules.v1": "/v1/modules/"})
	case Versions:
		s.serveVersions(w, r, rt, f)
	case PackageMeta:
		s.servePackageMeta(w, r, rt, f)
	case SHA256SUMS, Signature:
		s.serveSums(w, r, rt, f)
	case Archive:
		s.serveArchive(w, r, rt, rt.file, f)
	case MirrorIndex:
		s.serveMirrorIndex(w, r, rt, f)
	case MirrorVersion:
		s.serveMirrorVersion(w, r, rt, f)
	case MirrorArchive:
		s.serveArchive(w, r, rt, rt.file, f)
	default:
		s.serveModules(w, r, rt, f)
	}
}

// authorized enforces Options.Tokens on the metadata endpoints.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request, e Endpoint) bool {
	if len(s.opts.Tokens) == 0 {
		return true
	}
	switch e {
	case Versions, PackageMeta, MirrorIndex, MirrorVersion, ModuleVersions, ModuleDownload:
	default:
		return true
	}
	got := r.Header.Get("Authorization")
	if got == "" {
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return false
	}
	for _, t := range s.opts.Tokens {
		if got == "Bearer "+t {
			return true
		}
	}
	http.Error(w, "forbidden", http.StatusForbidden)
	return false
}

func (s *Server) writeJSON(w http.ResponseWriter, r *http.Request, f *Fault, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	ct := "application/json"
	if f != nil && f.Kind == WrongContentType {
		ct = "text/html; charset=utf-8"
	}
	s.writeBody(w, r, f, ct, int64(len(body)), func(w io.Writer) error {
		_, err := w.Write(body)
		return err
	})
}

// writeBody sends a body of the given size produced by gen, applying the
// body-level faults (Truncate, Slow).
func (s *Server) writeBody(w http.ResponseWriter, r *http.Request, f *Fault, contentType string, size int64, gen func(io.Writer) error) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Length", strconv.FormatInt(size, 10))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	var out io.Writer = w
	if f != nil {
		switch f.Kind {
		case Truncate:
			out = &limitWriter{w: w, n: size / 2}
		case Slow:
			if fl, ok := w.(http.Flusher); ok {
				fl.Flush() // headers now, body later
			}
			out = &slowWriter{w: w, delay: f.Delay, closing: s.closing, done: r.Context().Done()}
		}
	}
	_ = gen(out)
}

// limitWriter passes n bytes, then fails.
type limitWriter struct {
	w io.Writer
	n int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, io.ErrShortWrite
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.w.Write(p)
	l.n -= int64(n)
	if err == nil && l.n <= 0 {
		if fl, ok := l.w.(http.Flusher); ok {
			fl.Flush()
		}
		return n, io.ErrShortWrite
	}
	return n, err
}

// slowWriter writes in 1 KiB pieces with a pause before each.
type slowWriter struct {
	w       io.Writer
	delay   time.Duration
	closing <-chan struct{}
	done    <-chan struct{}
}

func (s *slowWriter) Write(p []byte) (int, error) {
	delay := s.delay
	if delay <= 0 {
		delay = 10 * time.Millisecond
	}
	written := 0
	for len(p) > 0 {
		select {
		case <-time.After(delay):
		case <-s.closing:
			return written, io.ErrClosedPipe
		case <-s.done:
			return written, io.ErrClosedPipe
		}
		n := min(len(p), 1024)
		m, err := s.w.Write(p[:n])
		written += m
		if err != nil {
			return written, err
		}
		if fl, ok := s.w.(http.Flusher); ok {
			fl.Flush()
		}
		p = p[n:]
	}
	return written, nil
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// bytesGen returns a generator writing b.
func bytesGen(b []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.Copy(w, bytes.NewReader(b))
		return err
	}
}
