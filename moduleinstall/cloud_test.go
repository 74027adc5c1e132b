package moduleinstall

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// TestS3Source installs a module from an S3-compatible endpoint (an
// in-process gofakes3) with go-getter's S3 getter, both a directory
// prefix and an archive object; the credentials come from the AWS
// environment variables as OpenTofu's SDK chain reads them.
func TestS3Source(t *testing.T) {
	backend := s3mem.New()
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	if err := backend.CreateBucket("mods"); err != nil {
		t.Fatal(err)
	}
	put := func(key, body string) {
		t.Helper()
		if _, err := backend.PutObject("mods", key, map[string]string{}, strings.NewReader(body), int64(len(body)), nil); err != nil {
			t.Fatal(err)
		}
	}
	put("net/main.tf", "module \"sub\" {\n  source = \"./sub\"\n}\n")
	put("net/sub/main.tf", "")
	for k, v := range map[string]string{"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull} {
		t.Setenv(k, v)
	}
	host := strings.TrimPrefix(srv.URL, "http://")
	dir := t.TempDir()
	root := writeRoot(t, dir, map[string]string{"main.tf": "module \"net\" {\n  source = \"s3::http://" + host + "/mods/net\"\n}\n"})
	rec := &recorder{}
	inDir(t, dir, func() {
		if diags := Install(context.Background(), root, Options{Events: rec}); diags.HasErrors() {
			t.Fatal(diags)
		}
	})
	want := []string{
		"Downloading s3::http://" + host + "/mods/net for net...",
		"- net in .terraform/modules/net",
		"- net.sub in .terraform/modules/net/sub",
	}
	if diff := cmp.Diff(want, rec.lines); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "net", "sub", "main.tf")); err != nil {
		t.Error(err)
	}
}

// fakeGCS answers the two requests go-getter's GCS getter makes through
// the storage client pointed at it with STORAGE_EMULATOR_HOST: the object
// listing and each object's media.
type fakeGCS struct {
	objects map[string]string // "bucket/name" → content
	mu      sync.Mutex
	seen    []string
}

func (f *fakeGCS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.seen = append(f.seen, r.Method+" "+r.URL.Path)
	f.mu.Unlock()
	path := strings.TrimPrefix(r.URL.Path, "/download")
	if bucket, ok := strings.CutPrefix(path, "/storage/v1/b/"); ok {
		bucket, rest, _ := strings.Cut(bucket, "/")
		if rest == "o" {
			f.list(w, bucket, r.URL.Query().Get("prefix"))
			return
		}
		if name, ok := strings.CutPrefix(rest, "o/"); ok {
			name, _ = url.PathUnescape(name)
			f.media(w, bucket+"/"+name)
			return
		}
	}
	f.media(w, strings.TrimPrefix(path, "/"))
}

func (f *fakeGCS) list(w http.ResponseWriter, bucket, prefix string) {
	var items []map[string]any
	for k, v := range f.objects {
		if name, ok := strings.CutPrefix(k, bucket+"/"); ok && strings.HasPrefix(name, prefix) {
			items = append(items, map[string]any{"kind": "storage#object", "bucket": bucket, "name": name, "size": strconv.Itoa(len(v))})
		}
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"kind": "storage#objects", "items": items})
}

func (f *fakeGCS) media(w http.ResponseWriter, key string) {
	v, ok := f.objects[key]
	if !ok {
		http.NotFound(w, nil)
		return
	}
	http.ServeContent(w, &http.Request{}, "", zeroTime, bytes.NewReader([]byte(v)))
}

// TestGCSSource installs a module from the GCS shorthand through a fake
// JSON API; the requests it made are those of listing the prefix and
// reading each object.
func TestGCSSource(t *testing.T) {
	fake := &fakeGCS{objects: map[string]string{"mods/net/main.tf": "", "mods/net/sub/x.tf": ""}}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	t.Setenv("STORAGE_EMULATOR_HOST", strings.TrimPrefix(srv.URL, "http://"))
	dir := t.TempDir()
	root := writeRoot(t, dir, map[string]string{"main.tf": "module \"net\" {\n  source = \"www.googleapis.com/storage/v1/mods/net\"\n}\n"})
	rec := &recorder{}
	inDir(t, dir, func() {
		if diags := Install(context.Background(), root, Options{Events: rec}); diags.HasErrors() {
			t.Fatalf("%s\nrequests: %q", diags, fake.seen)
		}
	})
	want := []string{
		"Downloading gcs::https://www.googleapis.com/storage/v1/mods/net for net...",
		"- net in .terraform/modules/net",
	}
	if diff := cmp.Diff(want, rec.lines); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, ".terraform", "modules", "net", "sub", "x.tf")); err != nil {
		t.Errorf("%v; requests: %q", err, fake.seen)
	}
}

var zeroTime = time.Time{}
