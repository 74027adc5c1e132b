// Package cloudfake holds in-memory stand-ins for the cloud storage
// services the backends of package backend contact, for tests: the
// subset of Cloud Storage and Azure Blob Storage that reading a state
// needs, and an HTTPS proxy that serves them under their real-looking
// host names (so that a client which builds its own URLs, as the azurerm
// backend does, reaches the fake). Nothing here is used outside tests.
package cloudfake

import (
	"crypto/md5"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
)

// GCS speaks the subset of Cloud Storage that reading a state needs:
// the JSON API's object listing (prefix, delimiter) and object metadata,
// and the XML API's object download. Buckets and objects live in memory;
// an unknown bucket or object is a 404 as Cloud Storage answers it.
type GCS struct {
	mu      sync.Mutex
	buckets map[string]map[string][]byte
}

// NewGCS is a Cloud Storage holding the given empty buckets.
func NewGCS(buckets ...string) *GCS {
	f := &GCS{buckets: map[string]map[string][]byte{}}
	for _, b := range buckets {
		f.buckets[b] = map[string][]byte{}
	}
	return f
}

// Put stores an object.
func (f *GCS) Put(bucket, name, content string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.buckets[bucket][name] = []byte(content)
}

func (f *GCS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := r.URL.EscapedPath()
	if rest, ok := strings.CutPrefix(p, "/storage/v1/b/"); ok {
		bucket, objPath, _ := strings.Cut(rest, "/o")
		objs, ok := f.buckets[bucket]
		if !ok {
			gcsError(w, http.StatusNotFound, "The specified bucket does not exist.")
			return
		}
		if objPath == "" {
			f.list(w, r, bucket, objs)
			return
		}
		name, err := url.PathUnescape(strings.TrimPrefix(objPath, "/"))
		data, found := objs[name]
		if err != nil || !found {
			gcsError(w, http.StatusNotFound, "No such object: "+bucket+"/"+name)
			return
		}
		json.NewEncoder(w).Encode(gcsObject(bucket, name, data))
		return
	}
	bucket, escaped, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
	name, err := url.PathUnescape(escaped)
	data, found := f.buckets[bucket][name]
	if err != nil || !found {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<Error><Code>NoSuchKey</Code></Error>")
		return
	}
	w.Header().Set("X-Goog-Generation", "1")
	w.Header().Set("X-Goog-Metageneration", "1")
	w.Header().Set("Content-Length", fmt.Sprint(len(data)))
	w.Write(data)
}

func (f *GCS) list(w http.ResponseWriter, r *http.Request, bucket string, objs map[string][]byte) {
	prefix, delim := r.URL.Query().Get("prefix"), r.URL.Query().Get("delimiter")
	var names []string
	for n := range objs {
		names = append(names, n)
	}
	sort.Strings(names)
	items, prefixes := []any{}, []string{}
	seen := map[string]bool{}
	for _, n := range names {
		rest, ok := strings.CutPrefix(n, prefix)
		if !ok {
			continue
		}
		if i := strings.Index(rest, delim); delim != "" && i >= 0 {
			if p := prefix + rest[:i+1]; !seen[p] {
				seen[p] = true
				prefixes = append(prefixes, p)
			}
			continue
		}
		items = append(items, gcsObject(bucket, n, objs[n]))
	}
	json.NewEncoder(w).Encode(map[string]any{"kind": "storage#objects", "items": items, "prefixes": prefixes})
}

func gcsObject(bucket, name string, data []byte) map[string]any {
	sum := md5.Sum(data)
	return map[string]any{
		"kind": "storage#object", "bucket": bucket, "name": name, "size": fmt.Sprint(len(data)),
		"generation": "1", "metageneration": "1", "md5Hash": base64.StdEncoding.EncodeToString(sum[:]),
	}
}

func gcsError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": code, "message": msg, "errors": []any{map[string]any{"message": msg, "reason": "notFound"}}}})
}
