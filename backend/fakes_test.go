package backend

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// startFake starts the server a case's file "fake" names ("http"; "s3
// BUCKET"; "closed", a URL nothing listens on; or nothing) and returns its
// URL ("" without one) and the environment the reference binary needs to
// use it.
func startFake(t *testing.T, c goldenCase) (string, []string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(c.dir, "fake"))
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		t.Fatal(err)
	}
	kind, arg, _ := strings.Cut(strings.TrimSpace(string(src)), " ")
	switch kind {
	case "http":
		srv := httptest.NewServer(&fakeHTTPState{})
		t.Cleanup(srv.Close)
		return srv.URL, nil
	case "s3":
		store := s3mem.New()
		if err := store.CreateBucket(arg); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(gofakes3.New(store).Server())
		t.Cleanup(srv.Close)
		return srv.URL, []string{"AWS_ACCESS_KEY_ID=fake", "AWS_SECRET_ACCESS_KEY=fake"}
	case "closed":
		// A URL nothing listens on: the binary fails to reach it.
		srv := httptest.NewServer(http.NotFoundHandler())
		srv.Close()
		return srv.URL, nil
	}
	t.Fatalf("%s: unknown fake %q (%s)", c.name, kind, arg)
	return "", nil
}

// fakeHTTPState is a state server for the http backend: it keeps one
// state per path and accepts every lock.
type fakeHTTPState struct {
	mu     sync.Mutex
	states map[string][]byte
}

func (f *fakeHTTPState) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.states == nil {
		f.states = map[string][]byte{}
	}
	switch r.Method {
	case http.MethodGet:
		s, ok := f.states[r.URL.Path]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Write(s)
	case http.MethodPost, http.MethodPut:
		body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		f.states[r.URL.Path] = body
	case http.MethodDelete:
		delete(f.states, r.URL.Path)
	}
}
