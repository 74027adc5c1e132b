package upgrade

import (
	"errors"
	"testing"

	"github.com/tfdeps/tfdeps/versions"
)

func TestProviderAnswer(t *testing.T) {
	list := versions.List{mustVersion(t, "1.0.0"), mustVersion(t, "1.1.0"), mustVersion(t, "2.0.0"), mustVersion(t, "2.1.0-beta1")}
	tests := []struct {
		name, constraints, locked string
		wantAllowed, wantNewest   string
	}{
		{name: "releases only", constraints: "~> 1.0", locked: "1.0.0", wantAllowed: "1.1.0", wantNewest: "2.0.0"},
		{name: "prerelease locked", constraints: "2.1.0-beta1", locked: "2.1.0-beta1", wantAllowed: "2.1.0-beta1", wantNewest: "2.1.0-beta1"},
		{name: "not locked", constraints: "", wantAllowed: "2.0.0", wantNewest: "2.0.0"},
		{name: "nothing allowed", constraints: "> 3.0", locked: "", wantAllowed: "", wantNewest: "2.0.0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &Provider{Constraints: versions.MustParseConstraints(tt.constraints)}
			if tt.locked != "" {
				v := mustVersion(t, tt.locked)
				p.Locked = &v
			}
			p.answer(list, nil, nil)
			if got := verString(p.NewestAllowed); got != tt.wantAllowed {
				t.Errorf("NewestAllowed = %q, want %q", got, tt.wantAllowed)
			}
			if got := verString(p.Newest); got != tt.wantNewest {
				t.Errorf("Newest = %q, want %q", got, tt.wantNewest)
			}
		})
	}
	p := &Provider{}
	p.answer(nil, []string{"deprecated"}, errors.New("boom"))
	if p.Err == nil || p.Newest != nil || len(p.Warnings) != 1 {
		t.Errorf("failed answer = %+v, want the error and warnings only", p)
	}
}

func TestModuleAnswer(t *testing.T) {
	listed := []string{"v1.0.0", "1.1.0", "2.0.0", "2.1.0-rc1", "banana"}
	tests := []struct {
		name, constraints, installed string
		wantAllowed, wantNewest      string
	}{
		{name: "constraint", constraints: "~> 1.0", installed: "1.0.0", wantAllowed: "1.1.0", wantNewest: "2.0.0"},
		{name: "none", constraints: "", installed: "2.0.0", wantAllowed: "2.0.0", wantNewest: "2.0.0"},
		{name: "excludes all", constraints: "> 5.0", wantAllowed: "", wantNewest: "2.0.0"},
		{name: "prerelease installed", constraints: "2.1.0-rc1", installed: "2.1.0-rc1", wantAllowed: "2.1.0-rc1", wantNewest: "2.1.0-rc1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Module{Constraints: tt.constraints, Installed: tt.installed}
			m.answer(listed, nil)
			if m.Err != nil || m.NewestAllowed != tt.wantAllowed || m.Newest != tt.wantNewest {
				t.Errorf("answer = %q, %q, %v; want %q, %q", m.NewestAllowed, m.Newest, m.Err, tt.wantAllowed, tt.wantNewest)
			}
		})
	}
	m := &Module{Constraints: "~> banana"}
	m.answer(listed, nil)
	if m.Err == nil {
		t.Error("an unparseable module constraint gave no error")
	}
}

func mustVersion(t *testing.T, s string) versions.Version {
	t.Helper()
	v, err := versions.ParseVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func verString(v *versions.Version) string {
	if v == nil {
		return ""
	}
	return v.String()
}
