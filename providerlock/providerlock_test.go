package providerlock

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

func TestContainsAll(t *testing.T) {
	tests := []struct {
		name       string
		have, want []hashes.Hash
		ok         bool
	}{
		{"empty want", []hashes.Hash{"h1:a"}, nil, true},
		{"subset", []hashes.Hash{"h1:a", "h1:b", "zh:c"}, []hashes.Hash{"h1:a", "zh:c"}, true},
		{"missing", []hashes.Hash{"h1:a"}, []hashes.Hash{"h1:a", "zh:c"}, false},
		{"unsorted old entry is not a subset walk", []hashes.Hash{"zh:c", "h1:a"}, []hashes.Hash{"h1:a", "zh:c"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := containsAll(tt.have, tt.want); got != tt.ok {
				t.Errorf("containsAll = %v, want %v", got, tt.ok)
			}
		})
	}
}

func TestHashCacheRoundTrip(t *testing.T) {
	c := NewHashCache(t.TempDir())
	p := addrs.NewDefaultProvider("null")
	v := versions.Version{Major: 3, Minor: 2, Patch: 1}
	pl := addrs.Platform{OS: "linux", Arch: "amd64"}
	if got := c.Get(p, v, pl); got != nil {
		t.Fatalf("Get on an empty cache = %+v, want nil", got)
	}
	want := CacheEntry{ZH: "zh:" + hashes.Hash(sixtyFour('a')), H1: "h1:x", Size: 42}
	if err := c.Put(p, v, pl, want); err != nil {
		t.Fatal(err)
	}
	got := c.Get(p, v, pl)
	if got == nil {
		t.Fatal("Get after Put = nil")
	}
	if diff := cmp.Diff(want, *got); diff != "" {
		t.Errorf("entry mismatch (-want +got):\n%s", diff)
	}
	if err := c.Put(p, v, pl, CacheEntry{H1: "h1:x"}); err == nil {
		t.Error("Put of an incomplete entry succeeded")
	}
	os.WriteFile(c.path(p, v, pl), []byte("{broken"), 0o644)
	if got := c.Get(p, v, pl); got != nil {
		t.Errorf("Get of a broken entry = %+v, want nil", got)
	}
}

func sixtyFour(c byte) string {
	b := make([]byte, 64)
	for i := range b {
		b[i] = c
	}
	return string(b)
}

func TestLimitHostsBoundsConcurrency(t *testing.T) {
	var inFlight, peak atomic.Int32
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for {
			old := peak.Load()
			if n <= old || peak.CompareAndSwap(old, n) {
				break
			}
		}
		<-release
		inFlight.Add(-1)
	}))
	defer srv.Close()
	client := &http.Client{Transport: LimitHosts(http.DefaultTransport, 2)}
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := client.Get(srv.URL)
			if err == nil {
				resp.Body.Close()
			}
		}()
	}
	for inFlight.Load() < 2 {
		runtime.Gosched() // wait until the limit is reached
	}
	close(release)
	wg.Wait()
	if got := peak.Load(); got != 2 {
		t.Errorf("peak concurrent requests = %d, want 2", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	if _, err := client.Do(req); err == nil {
		t.Error("request with a cancelled context succeeded")
	}
}

func TestFindRootModules(t *testing.T) {
	files := map[string]string{
		"live/prod/main.tf":          "terraform {\n  required_providers {}\n}\nmodule \"net\" {\n  source = \"../../modules/net\"\n}\n",
		"modules/net/main.tf":        "terraform {\n  required_providers {}\n}\n",
		"legacy/main.tf":             "resource \"null_resource\" \"x\" {}\n",
		"legacy/.terraform.lock.hcl": "",
		"plain/main.tf":              "resource \"null_resource\" \"x\" {}\n",
		"json/main.tf.json":          `{"terraform": {"required_providers": {}}}`,
		".hidden/main.tf":            "terraform {\n  required_providers {}\n}\n",
	}
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(content), 0o644)
	}
	got, err := FindRootModules(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"json", "legacy", "live/prod"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("roots mismatch (-want +got):\n%s", diff)
	}
}
