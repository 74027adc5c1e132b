package serve

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
)

// s3Store starts an in-process S3 server (gofakes3) and opens a bucket on
// it through the same URL syntax an operator passes to -storage.
func s3Store(t *testing.T) (*storage.Store, string) {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("tfdeps"); err != nil {
		t.Fatal(err)
	}
	s3 := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(s3.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	u := "s3://tfdeps?" + url.Values{
		"endpoint":       {s3.URL},
		"region":         {"us-east-1"},
		"use_path_style": {"true"},
		"disable_https":  {"true"},
	}.Encode()
	st, err := storage.Open(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, s3.URL
}

func TestS3PullThroughTwoReplicas(t *testing.T) {
	up := registrytest.New(t, registrytest.Options{Providers: testProviders()})
	st, _ := s3Store(t)
	a := newFixtureOn(t, up, st, nil)
	b := newFixtureOn(t, up, st, nil)
	info, err := up.Package("acme", "big", "1.0.0", "linux_amd64")
	if err != nil {
		t.Fatal(err)
	}
	path := "/registry.opentofu.org/acme/big/terraform-provider-big_1.0.0_linux_amd64.zip"
	var wg sync.WaitGroup
	failures := make(chan string, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			f := a
			if i%2 == 1 {
				f = b
			}
			code, body := getURL(t, f.http.URL+path)
			if code != http.StatusOK || sha256Hex(body) != info.SHA256 {
				failures <- http.StatusText(code) + " " + string(body[:min(len(body), 200)])
			}
		}(i)
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Errorf("client: %s", f)
	}
	if n := up.Count(registrytest.Archive); n != 1 {
		t.Errorf("%d upstream downloads for two replicas on one bucket, want 1", n)
	}
	// The other replica answers VERSION.json and index.json from the bucket.
	up.ResetRequests()
	for _, f := range []*fixture{a, b} {
		if code, body := f.get(path); code != http.StatusOK || sha256Hex(body) != info.SHA256 {
			t.Errorf("warm archive: %d", code)
		}
	}
	if n := len(up.Requests()); n != 0 {
		t.Errorf("warm requests reached upstream: %v", up.Paths())
	}
	if keys := a.keys(); len(filterPrefix(keys, "leases/")) != 0 {
		t.Errorf("leases left: %v", keys)
	}
}

func TestS3FaultsStoreNothing(t *testing.T) {
	up := registrytest.New(t, registrytest.Options{Providers: testProviders()})
	st, _ := s3Store(t)
	f := newFixtureOn(t, up, st, nil)
	for _, tt := range []struct {
		fault registrytest.Fault
		want  int
	}{
		{registrytest.Fault{Kind: registrytest.Tamper}, http.StatusBadGateway},
		{registrytest.Fault{Kind: registrytest.Truncate}, http.StatusBadGateway},
		{registrytest.Fault{Kind: registrytest.Status, Status: 500}, http.StatusBadGateway},
		{registrytest.Fault{Kind: registrytest.Status, Status: 429}, http.StatusTooManyRequests},
	} {
		up.Inject(registrytest.Archive, tt.fault)
		if code, _ := f.get(nullArchive); code != tt.want {
			t.Errorf("fault %v %d: status %d, want %d", tt.fault.Kind, tt.fault.Status, code, tt.want)
		}
		up.ClearFaults()
	}
	if f.hasKey(".zip") || f.hasKey("linux_amd64.json") {
		t.Errorf("stored after failures: %v", f.keys())
	}
	// A 429 the retries outlast: one object.
	up.Inject(registrytest.Archive, registrytest.Fault{Kind: registrytest.Status, Status: 429, Times: 2})
	if code, body := f.get(nullArchive); code != http.StatusOK {
		t.Errorf("after two 429s: status %d: %s", code, body)
	}
	if n := len(f.archiveKeys()); n != 1 {
		t.Errorf("%d archives stored, want 1: %v", n, f.keys())
	}
}

func TestS3PresignedRedirect(t *testing.T) {
	up := registrytest.New(t, registrytest.Options{Providers: testProviders()})
	st, s3URL := s3Store(t)
	f := newFixtureOn(t, up, st, func(o *Options) { o.PresignTTL = 5 * 60 * 1e9 })
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get(f.http.URL + nullArchive)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusFound || !strings.HasPrefix(loc, s3URL+"/tfdeps/") || !strings.Contains(loc, "X-Amz-Signature=") {
		t.Fatalf("archive answer %d Location %q, want a presigned URL on %s", resp.StatusCode, loc, s3URL)
	}
	code, body := getURL(t, loc)
	info, _ := up.Package("hashicorp", "null", "3.2.1", "linux_amd64")
	if code != http.StatusOK || sha256Hex(body) != info.SHA256 {
		t.Errorf("following the presigned URL: %d, sha256 %s, want %s", code, sha256Hex(body), info.SHA256)
	}
}

func TestS3PublishThenInstall(t *testing.T) {
	up := registrytest.New(t, registrytest.Options{Providers: testProviders()})
	st, _ := s3Store(t)
	f := newFixtureOn(t, up, st, func(o *Options) { o.PublishTokens = []string{"p"} })
	rel := makeRelease(t, "widget", "2.0.0", "linux_amd64")
	if code, body := f.publishRelease("acme", "widget", "2.0.0", "p", rel); code != http.StatusCreated {
		t.Fatalf("publish: %d %s", code, body)
	}
	other := newFixtureOn(t, up, st, nil) // another replica
	c := other.registryClient("registry.example.com", "")
	p := mustProvider(t, "registry.example.com/acme/widget")
	meta, err := c.FindPackage(context.Background(), p, mustVersion(t, "2.0.0"), mustPlatform(t, "linux_amd64"))
	if err != nil {
		t.Fatal(err)
	}
	a, auth, err := c.FetchPackage(context.Background(), meta, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	a.Remove()
	if auth.Summary() != "signed" {
		t.Errorf("authentication %q, want signed", auth.Summary())
	}
}
