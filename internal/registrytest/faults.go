package registrytest

import (
	"net/http"
	"strings"
	"time"
)

// Endpoint classifies the requests the fake serves.
type Endpoint int

const (
	Unknown        Endpoint = iota
	Discovery               // /.well-known/terraform.json
	Versions                // /v1/providers/NS/TYPE/versions
	PackageMeta             // /v1/providers/NS/TYPE/VERSION/download/OS/ARCH
	Archive                 // /files/NS/TYPE/VERSION/*.zip
	SHA256SUMS              // /files/NS/TYPE/VERSION/*_SHA256SUMS
	Signature               // /files/NS/TYPE/VERSION/*_SHA256SUMS.sig
	MirrorIndex             // /mirror/HOST/NS/TYPE/index.json
	MirrorVersion           // /mirror/HOST/NS/TYPE/VERSION.json
	MirrorArchive           // /mirror/HOST/NS/TYPE/*.zip
	ModuleVersions          // /v1/modules/NS/NAME/SYSTEM/versions
	ModuleDownload          // /v1/modules/NS/NAME/SYSTEM/VERSION/download
	ModuleArchive           // /modfiles/NS/NAME/SYSTEM/VERSION.EXT
	ModulePage              // /modpage/NS/NAME/SYSTEM/VERSION (answers ?terraform-get=1)
)

// FaultKind is a kind of injected failure.
type FaultKind int

const (
	// Status answers with Fault.Status (default 500) and Fault.Header.
	Status FaultKind = iota + 1
	// Drop closes the connection without answering.
	Drop
	// Truncate sends the headers (with the full Content-Length) and half of
	// the body, then closes the connection.
	Truncate
	// Hang sends nothing until the client goes away or the server closes.
	Hang
	// Slow sends the body in small pieces, pausing Fault.Delay between them.
	Slow
	// Tamper flips one byte of an archive (size unchanged) or changes the
	// archive checksum in SHA256SUMS.
	Tamper
	// BadSignature serves a signature made over different content.
	BadSignature
	// WrongContentType serves JSON as "text/html".
	WrongContentType
	// Oversized serves a JSON body larger than any client limit: 2 MiB with
	// Content-Length for discovery, 64 MiB streamed for the others.
	Oversized
)

// Fault is an injected failure for one endpoint.
type Fault struct {
	Kind FaultKind
	// Times is how many requests it affects; 0 means all.
	Times int
	// Status is the HTTP status for Kind Status (default 500).
	Status int
	// Header is added to the response for Kind Status, e.g. Retry-After.
	Header http.Header
	// Delay is the pause between pieces for Kind Slow (default 10ms).
	Delay time.Duration

	used int
}

// Inject adds a fault to endpoint e. Faults apply in the order added; a fault
// whose Times is used up no longer applies.
func (s *Server) Inject(e Endpoint, f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ff := f
	s.faults[e] = append(s.faults[e], &ff)
}

// ClearFaults removes every injected fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = map[Endpoint][]*Fault{}
}

// takeFault returns the fault to apply to this request of e, if any.
func (s *Server) takeFault(e Endpoint) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.faults[e] {
		if f.Times == 0 || f.used < f.Times {
			f.used++
			c := *f
			return &c
		}
	}
	return nil
}

// applyEarlyFault handles the faults that replace the response entirely and
// reports whether the request is done.
func (s *Server) applyEarlyFault(w http.ResponseWriter, r *http.Request, f *Fault) bool {
	switch f.Kind {
	case Status:
		code := f.Status
		if code == 0 {
			code = http.StatusInternalServerError
		}
		for k, vs := range f.Header {
			for _, v := range vs {
				w.Header().Add(k, v)
			}
		}
		http.Error(w, http.StatusText(code), code)
		return true
	case Drop:
		dropConnection(w)
		return true
	case Hang:
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return true
	case Oversized:
		s.writeOversized(w, r)
		return true
	}
	return false
}

func dropConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		conn.Close()
	}
}

func (s *Server) writeOversized(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	size := int64(64 << 20)
	if strings.HasPrefix(r.URL.Path, "/.well-known/") {
		size = 2 << 20
		w.Header().Set("Content-Length", itoa(size))
	}
	pad := make([]byte, 32<<10)
	for i := range pad {
		pad[i] = ' '
	}
	w.Write([]byte("{"))
	for written := int64(2); written < size; {
		n := int64(len(pad))
		if size-written < n {
			n = size - written
		}
		if _, err := w.Write(pad[:n]); err != nil {
			return
		}
		written += n
	}
	w.Write([]byte("}"))
}
