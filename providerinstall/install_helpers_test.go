package providerinstall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/versions"
)

var testPlatform = addrs.Platform{OS: "linux", Arch: "amd64"}

// fakeSource serves packed archives from a directory, counting queries.
type fakeSource struct {
	dir      string
	versions map[addrs.Provider][]string
	auth     providersource.Authentication
	warnings providersource.Warnings

	mu      sync.Mutex
	queries int
}

func newFakeSource(t *testing.T) *fakeSource {
	return &fakeSource{dir: t.TempDir(), versions: map[addrs.Provider][]string{}}
}

// add creates the archive of p v for the test platform.
func (s *fakeSource) add(t *testing.T, p addrs.Provider, v string) {
	t.Helper()
	s.versions[p] = append(s.versions[p], v)
	data := buildZip(t, zipEntry{name: "terraform-provider-" + p.Type + "_v" + v, content: p.String() + " " + v, mode: 0o755})
	if err := os.WriteFile(s.archive(p, v), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (s *fakeSource) archive(p addrs.Provider, v string) string {
	return filepath.Join(s.dir, fmt.Sprintf("%s-%s-%s.zip", p.Namespace, p.Type, v))
}

func (s *fakeSource) ForDisplay(addrs.Provider) string { return s.dir }

func (s *fakeSource) AvailableVersions(ctx context.Context, p addrs.Provider) (versions.List, providersource.Warnings, error) {
	s.mu.Lock()
	s.queries++
	s.mu.Unlock()
	vs, ok := s.versions[p]
	if !ok {
		return nil, nil, fmt.Errorf("provider %s was not found", p)
	}
	var out versions.List
	for _, v := range vs {
		out = append(out, instVersion(v))
	}
	return out, s.warnings, nil
}

func (s *fakeSource) PackageMeta(ctx context.Context, p addrs.Provider, v versions.Version, pl addrs.Platform) (PackageMeta, error) {
	s.mu.Lock()
	s.queries++
	s.mu.Unlock()
	path := s.archive(p, v.String())
	if _, err := os.Stat(path); err != nil {
		return PackageMeta{}, errors.New("no package")
	}
	return PackageMeta{Provider: p, Version: v, TargetPlatform: pl, Location: providersource.LocalArchive(path), Authentication: s.auth}, nil
}

func (s *fakeSource) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries
}

// recorder turns events into lines like the CLI's.
type recorder struct{ lines []string }

func (r *recorder) events() *Events {
	add := func(format string, args ...any) { r.lines = append(r.lines, fmt.Sprintf(format, args...)) }
	return &Events{
		BuiltInAvailable:       func(p addrs.Provider) { add("builtin %s", p.ForDisplay()) },
		BuiltInFailure:         func(p addrs.Provider, err error) { add("builtin-error %s: %s", p.ForDisplay(), err) },
		ReusingPreviousVersion: func(p addrs.Provider) { add("reusing %s", p.ForDisplay()) },
		FindingVersions: func(p addrs.Provider, c versions.Constraints) {
			add("finding %s %q", p.ForDisplay(), c.String())
		},
		QueryWarnings:            func(p addrs.Provider, w []string) { add("warnings %s %v", p.ForDisplay(), w) },
		QueryFailure:             func(p addrs.Provider, err error) { add("query-error %s: %s", p.ForDisplay(), err) },
		UsingPreviouslyInstalled: func(p addrs.Provider, v versions.Version) { add("using-installed %s %s", p.ForDisplay(), v) },
		DetectedInCache:          func(p addrs.Provider, v versions.Version) { add("detected-in-cache %s %s", p.ForDisplay(), v) },
		Installing: func(p addrs.Provider, v versions.Version, toCache bool) {
			add("installing %s %s cache=%t", p.ForDisplay(), v, toCache)
		},
		Installed: func(p addrs.Provider, v versions.Version, auth *AuthResult) {
			add("installed %s %s (%s)", p.ForDisplay(), v, auth.Summary())
		},
		LinkedFromCache: func(p addrs.Provider, v versions.Version) { add("linked %s %s", p.ForDisplay(), v) },
		FetchFailure: func(p addrs.Provider, v versions.Version, err error) {
			add("fetch-error %s %s: %s", p.ForDisplay(), v, err)
		},
		CacheLinkFailure: func(p addrs.Provider, v versions.Version, err error) { add("link-error %s: %s", p.ForDisplay(), err) },
		ProvidersSigned:  func() { add("signed-notice") },
	}
}

func instVersion(s string) versions.Version {
	v, err := versions.ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return v
}

func instProvider(s string) addrs.Provider {
	p, err := addrs.ParseProviderSource(s)
	if err != nil {
		panic(err)
	}
	return p
}

// lockText renders locks as a lock file.
func lockText(l *lockfile.Locks) string { return string(l.Bytes(lockfile.OpenTofu)) }

// h1Of returns the h1 hash of a fake source's archive.
func h1Of(t *testing.T, s *fakeSource, p addrs.Provider, v string) hashes.Hash {
	t.Helper()
	h, err := hashes.HashZipFile(s.archive(p, v))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

var _ = strings.Join
