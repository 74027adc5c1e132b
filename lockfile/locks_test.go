package lockfile

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/versions"
)

func mustVersion(t *testing.T, s string) versions.Version {
	t.Helper()
	v, err := versions.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSetProviderSortsAndDedupes(t *testing.T) {
	l := New()
	aws := addrs.NewDefaultProvider("aws")
	p := l.SetProvider(aws, mustVersion(t, "1.0.0"), nil, []hashes.Hash{"zh:b", "h1:a", "zh:b", "test:c"})
	want := []hashes.Hash{"h1:a", "test:c", "zh:b"}
	if diff := cmp.Diff(want, p.Hashes()); diff != "" {
		t.Errorf("hashes mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]hashes.Hash{"h1:a", "zh:b"}, p.PreferredHashes()); diff != "" {
		t.Errorf("preferred hashes mismatch (-want +got):\n%s", diff)
	}
	if l.Provider(aws) != p || l.Len() != 1 {
		t.Errorf("Provider(aws) = %v, Len = %d", l.Provider(aws), l.Len())
	}
	l.RemoveProvider(aws)
	if l.Provider(aws) != nil || l.Len() != 0 {
		t.Errorf("after RemoveProvider: Provider(aws) = %v, Len = %d", l.Provider(aws), l.Len())
	}
}

func TestEqual(t *testing.T) {
	aws := addrs.NewDefaultProvider("aws")
	null := addrs.NewDefaultProvider("null")
	base := func() *Locks {
		l := New()
		l.SetProvider(aws, mustVersion(t, "1.0.0"), versions.MustParseConstraints("~> 1.0"), []hashes.Hash{"h1:a", "zh:b"})
		return l
	}
	read := func(src string) *Locks {
		l, _, diags := Read([]byte(src), "x.hcl", ReadOptions{})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		return l
	}
	tests := []struct {
		name      string
		other     *Locks
		equal     bool
		sameAddrs bool
	}{
		{name: "identical", other: base(), equal: true, sameAddrs: true},
		{name: "constraints ignored", other: func() *Locks {
			l := base()
			l.SetProvider(aws, mustVersion(t, "1.0.0"), versions.MustParseConstraints(">= 0.1"), []hashes.Hash{"h1:a", "zh:b"})
			return l
		}(), equal: true, sameAddrs: true},
		{name: "metadata counts", other: func() *Locks {
			l := base()
			l.SetProvider(aws, mustVersion(t, "1.0.0+x"), nil, []hashes.Hash{"h1:a", "zh:b"})
			return l
		}(), equal: false, sameAddrs: true},
		{name: "hash order counts", other: read(`provider "registry.opentofu.org/hashicorp/aws" {
  version = "1.0.0"
  hashes = ["zh:b", "h1:a"]
}`), equal: false, sameAddrs: true},
		{name: "duplicate hash counts", other: read(`provider "registry.opentofu.org/hashicorp/aws" {
  version = "1.0.0"
  hashes = ["h1:a", "zh:b", "zh:b"]
}`), equal: false, sameAddrs: true},
		{name: "extra provider", other: func() *Locks {
			l := base()
			l.SetProvider(null, mustVersion(t, "3.0.0"), nil, nil)
			return l
		}(), equal: false, sameAddrs: false},
		{name: "empty", other: New(), equal: false, sameAddrs: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := base()
			if got := l.Equal(tt.other); got != tt.equal {
				t.Errorf("Equal = %v, want %v", got, tt.equal)
			}
			if got := tt.other.Equal(l); got != tt.equal {
				t.Errorf("reverse Equal = %v, want %v", got, tt.equal)
			}
			if got := l.EqualProviderAddress(tt.other); got != tt.sameAddrs {
				t.Errorf("EqualProviderAddress = %v, want %v", got, tt.sameAddrs)
			}
		})
	}
}
