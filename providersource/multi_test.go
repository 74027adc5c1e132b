package providersource

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/registry"
	"github.com/tfdeps/tfdeps/versions"
)

// scripted is a Source with fixed answers that counts its calls.
type scripted struct {
	name        string
	versions    versions.List
	warnings    Warnings
	versionsErr error
	packages    map[versions.Version]PackageMeta
	packageErr  error

	mu    sync.Mutex
	calls int
}

func (s *scripted) AvailableVersions(ctx context.Context, p addrs.Provider) (versions.List, Warnings, error) {
	s.count()
	return s.versions, s.warnings, s.versionsErr
}

func (s *scripted) PackageMeta(ctx context.Context, p addrs.Provider, v versions.Version, target addrs.Platform) (PackageMeta, error) {
	s.count()
	if s.packageErr != nil {
		return PackageMeta{}, s.packageErr
	}
	if m, ok := s.packages[v]; ok {
		return m, nil
	}
	return PackageMeta{}, &registry.PlatformUnsupportedError{Provider: p, Version: v, Platform: target}
}

func (s *scripted) ForDisplay(addrs.Provider) string { return s.name }

func (s *scripted) count() {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
}

func v(s string) versions.Version {
	ver, err := versions.ParseVersion(s)
	if err != nil {
		panic(err)
	}
	return ver
}

func TestMultiAvailableVersions(t *testing.T) {
	ctx := context.Background()
	notKnown := &registry.ProviderUnknownError{Provider: widget}
	notFound := &NotFoundError{Provider: widget}
	boom := errors.New("boom")
	other, _ := ParsePatterns([]string{"other/*"})
	tests := []struct {
		name     string
		multi    Multi
		want     versions.List
		warnings Warnings
		wantErr  string
	}{
		{
			name: "union with warnings",
			multi: Multi{
				{Source: &scripted{name: "a", versions: versions.List{v("1.0.0"), v("2.0.0")}, warnings: Warnings{"wa"}}},
				{Source: &scripted{name: "skipped", versions: versions.List{v("9.0.0")}}, Include: other},
				{Source: &scripted{name: "b", versions: versions.List{v("1.5.0"), v("2.0.0"), v("1.0.0+b")}, warnings: Warnings{"wb"}}},
			},
			want:     versions.List{v("1.0.0"), v("1.0.0+b"), v("1.5.0"), v("2.0.0")},
			warnings: Warnings{"wa", "wb"},
		},
		{
			name: "not found and not known are skipped",
			multi: Multi{
				{Source: &scripted{name: "a", versionsErr: notFound, warnings: Warnings{"lost"}}},
				{Source: &scripted{name: "b", versionsErr: notKnown}},
				{Source: &scripted{name: "c", versions: versions.List{v("1.0.0")}}},
			},
			want: versions.List{v("1.0.0")},
		},
		{
			name: "other errors abort",
			multi: Multi{
				{Source: &scripted{name: "a", versions: versions.List{v("1.0.0")}}},
				{Source: &scripted{name: "b", versionsErr: boom}},
			},
			wantErr: "boom",
		},
		{
			name: "empty with a registry that does not know it",
			multi: Multi{
				{Source: &scripted{name: "a"}},
				{Source: &scripted{name: "b", versionsErr: notKnown}},
			},
			wantErr: "provider registry registry.opentofu.org does not have a provider named registry.opentofu.org/hashicorp/widget",
		},
		{
			name: "empty: not found",
			multi: Multi{
				{Source: &scripted{name: "a"}},
				{Source: &scripted{name: "skipped"}, Include: other},
				{Source: &scripted{name: "b", versionsErr: notFound}},
			},
			wantErr: "provider registry.opentofu.org/hashicorp/widget was not found in any of the search locations",
		},
		{
			// Every method of the CLI configuration was invalid: OpenTofu
			// then says no release matches, not "not found".
			name:  "no methods: no versions and no error",
			multi: Multi{},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, warnings, err := tt.multi.AvailableVersions(ctx, widget)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, list); diff != "" {
				t.Errorf("versions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("not found names the handling methods", func(t *testing.T) {
		m := Multi{{Source: &scripted{name: "a"}}, {Source: &scripted{name: "x"}, Include: other}, {Source: &scripted{name: "b"}}}
		_, _, err := m.AvailableVersions(ctx, widget)
		var nf *NotFoundError
		if !errors.As(err, &nf) {
			t.Fatalf("got %v", err)
		}
		if diff := cmp.Diff([]string{"a", "b"}, nf.Sources); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
		if got := m.ForDisplay(widget); got != "a, b" {
			t.Errorf("ForDisplay = %q", got)
		}
	})
}

func TestMultiPackageMeta(t *testing.T) {
	ctx := context.Background()
	one := v("1.0.0")
	fromA := PackageMeta{Filename: "a.zip"}
	fromB := PackageMeta{Filename: "b.zip"}
	tests := []struct {
		name    string
		multi   Multi
		want    PackageMeta
		wantErr string
	}{
		{
			name: "first success wins",
			multi: Multi{
				{Source: &scripted{name: "a", packages: map[versions.Version]PackageMeta{one: fromA}}},
				{Source: &scripted{name: "b", packages: map[versions.Version]PackageMeta{one: fromB}}},
			},
			want: fromA,
		},
		{
			name: "platform unsupported, not found and not known move on",
			multi: Multi{
				{Source: &scripted{name: "a"}},
				{Source: &scripted{name: "n", packageErr: &NotFoundError{Provider: widget}}},
				{Source: &scripted{name: "k", packageErr: &registry.ProviderUnknownError{Provider: widget}}},
				{Source: &scripted{name: "b", packages: map[versions.Version]PackageMeta{one: fromB}}},
			},
			want: fromB,
		},
		{
			name: "query errors abort (a mirror without the version before direct)",
			multi: Multi{
				{Source: &scripted{name: "mirror", packageErr: &registry.QueryError{Provider: widget, MirrorURL: "https://m/", Err: errors.New("provider mirror does not have archive index for previously-reported registry.opentofu.org/hashicorp/widget version 1.0.0")}}},
				{Source: &scripted{name: "b", packages: map[versions.Version]PackageMeta{one: fromB}}},
			},
			wantErr: "failed to query provider mirror https://m/ for registry.opentofu.org/hashicorp/widget: provider mirror does not have archive index for previously-reported registry.opentofu.org/hashicorp/widget version 1.0.0",
		},
		{
			name:    "nothing: platform unsupported",
			multi:   Multi{{Source: &scripted{name: "a"}}},
			wantErr: "provider registry.opentofu.org/hashicorp/widget 1.0.0 is not available for linux_amd64",
		},
		{
			name:    "no methods: not found",
			multi:   Multi{},
			wantErr: "provider registry.opentofu.org/hashicorp/widget was not found in any of the search locations",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.multi.PackageMeta(ctx, widget, one, linux)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("got %v, want %s", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestMemoize(t *testing.T) {
	ctx := context.Background()
	inner := &scripted{name: "inner", versions: versions.List{v("1.0.0")}, packages: map[versions.Version]PackageMeta{v("1.0.0"): {Filename: "x.zip"}}}
	m := NewMemoize(inner)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.AvailableVersions(ctx, widget)
			m.PackageMeta(ctx, widget, v("1.0.0"), linux)
		}()
	}
	wg.Wait()
	if inner.calls != 2 {
		t.Errorf("inner source called %d times, want 2", inner.calls)
	}
	m.PackageMeta(ctx, widget, v("1.0.0"), addrs.Platform{OS: "darwin", Arch: "arm64"})
	m.AvailableVersions(ctx, addrs.NewDefaultProvider("other"))
	if inner.calls != 4 {
		t.Errorf("inner source called %d times, want 4", inner.calls)
	}
	t.Run("errors are remembered", func(t *testing.T) {
		failing := &scripted{name: "f", versionsErr: errors.New("boom")}
		m := NewMemoize(failing)
		for i := 0; i < 3; i++ {
			if _, _, err := m.AvailableVersions(ctx, widget); err == nil {
				t.Fatal("no error")
			}
		}
		if failing.calls != 1 || m.ForDisplay(widget) != "f" {
			t.Errorf("calls %d", failing.calls)
		}
	})
}
