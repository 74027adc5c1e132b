package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// httpStateServer is a minimal remote state server for the http
// backend: GET answers the state stored at the path (404 when none),
// POST stores the body, DELETE removes it, LOCK and UNLOCK succeed. It
// logs each request's method and path.
type httpStateServer struct {
	mu     sync.Mutex
	states map[string][]byte
	log    []string
}

func (s *httpStateServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, r.Method+" "+r.URL.Path)
	switch r.Method {
	case http.MethodGet:
		b, ok := s.states[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	case http.MethodPost:
		b, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.states[r.URL.Path] = b
	case http.MethodDelete:
		delete(s.states, r.URL.Path)
	case "LOCK", "UNLOCK":
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// cmdHTTPState drives an http state server for a script:
//
//	httpstate start        start it; $HTTPSTATE is its URL
//	httpstate requests     print the requests received so far, one a line, and forget them
//	httpstate put PATH FILE  store FILE's content as the state at PATH
//	httpstate get PATH     print the state stored at PATH
func cmdHTTPState(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! httpstate")
	}
	if len(args) == 0 {
		ts.Fatalf("usage: httpstate start|requests|put PATH FILE|get PATH")
	}
	key := "httpstate:" + ts.Getenv("WORK")
	switch args[0] {
	case "start":
		s := &httpStateServer{states: map[string][]byte{}}
		srv := httptest.NewServer(s)
		ts.Defer(srv.Close)
		httpStateServers.Store(key, s)
		ts.Setenv("HTTPSTATE", srv.URL)
		return
	}
	v, ok := httpStateServers.Load(key)
	if !ok {
		ts.Fatalf("httpstate: not started")
	}
	s := v.(*httpStateServer)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case args[0] == "requests" && len(args) == 1:
		fmt.Fprint(ts.Stdout(), strings.Join(append(s.log, ""), "\n"))
		s.log = nil
	case args[0] == "put" && len(args) == 3:
		b, err := os.ReadFile(ts.MkAbs(args[2]))
		ts.Check(err)
		s.states[args[1]] = b
	case args[0] == "get" && len(args) == 2:
		b, ok := s.states[args[1]]
		if !ok {
			ts.Fatalf("httpstate: no state at %s", args[1])
		}
		ts.Stdout().Write(b)
	default:
		ts.Fatalf("usage: httpstate start|requests|put PATH FILE|get PATH")
	}
}

// httpStateServers are the running servers, by script work directory.
var httpStateServers sync.Map
