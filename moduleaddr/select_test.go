package moduleaddr

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSelectVersion(t *testing.T) {
	listed := []string{"1.0.0", "v1.1", "1.2.0-beta1", "2.0.0", "not-a-version", "0.9"}
	tests := []struct {
		name, constraint string
		listed           []string
		chosen, newest   string
		skipped          []string
		wantErr          string
	}{
		{name: "no constraint", listed: listed, chosen: "2.0.0", newest: "2.0.0", skipped: []string{"not-a-version"}},
		{name: "pessimistic", constraint: "~> 1.0", listed: listed, chosen: "1.1.0", newest: "2.0.0", skipped: []string{"not-a-version"}},
		{name: "v form canonical", constraint: "1.1.0", listed: listed, chosen: "1.1.0", newest: "2.0.0", skipped: []string{"not-a-version"}},
		{name: "and", constraint: ">= 0.9, < 1.1", listed: listed, chosen: "1.0.0", newest: "2.0.0", skipped: []string{"not-a-version"}},
		{name: "exact prerelease", constraint: "1.2.0-beta1", listed: listed, chosen: "1.2.0-beta1", newest: "2.0.0", skipped: []string{"not-a-version"}},
		{name: "prerelease with =", constraint: "=1.2.0-beta1", listed: listed, chosen: "1.2.0-beta1", newest: "2.0.0", skipped: []string{"not-a-version"}},
		{name: "prerelease with v", constraint: "v1.2.0-beta1", listed: listed, chosen: "1.2.0-beta1", newest: "2.0.0", skipped: []string{"not-a-version"}},
		{name: "prerelease = with space", constraint: "= 1.2.0-beta1", listed: listed, newest: "2.0.0", skipped: []string{"not-a-version"},
			wantErr: "no available version matches the given version constraint; the newest available version is 2.0.0"},
		{name: "prerelease >=", constraint: ">= 1.2.0-beta1", listed: listed, chosen: "2.0.0", newest: "2.0.0", skipped: []string{"not-a-version"}},
		{name: "prerelease ~>", constraint: "~> 1.2.0-beta1", listed: []string{"1.2.0-beta1", "1.0.0"}, newest: "1.0.0",
			wantErr: "no available version matches the given version constraint; the newest available version is 1.0.0"},
		{name: "prerelease in a list", constraint: "1.2.0-beta1, 1.2.0-beta1", listed: []string{"1.2.0-beta1", "1.0.0"}, newest: "1.0.0",
			wantErr: "no available version matches the given version constraint; the newest available version is 1.0.0"},
		{name: "only prereleases, no constraint", listed: []string{"1.0.0-rc1"}, wantErr: "module has no versions"},
		{name: "nothing parses", listed: []string{"x", ""}, skipped: []string{"x", ""}, wantErr: "module has no versions"},
		{name: "empty list", wantErr: "module has no versions"},
		{name: "no match", constraint: "> 5", listed: listed, newest: "2.0.0", skipped: []string{"not-a-version"},
			wantErr: "no available version matches the given version constraint; the newest available version is 2.0.0"},
		{name: "bad constraint", constraint: "~>", listed: listed, wantErr: "malformed constraint: ~>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			chosen, newest, skipped, err := SelectVersion(tt.listed, tt.constraint)
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if diff := cmp.Diff(tt.wantErr, gotErr); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{tt.chosen, tt.newest}, []string{chosen, newest}); diff != "" {
				t.Errorf("chosen, newest (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.skipped, skipped); diff != "" {
				t.Errorf("skipped (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSelectVersionErrorTypes(t *testing.T) {
	if _, _, _, err := SelectVersion(nil, ""); !errors.Is(err, ErrNoVersions) {
		t.Errorf("got %v, want ErrNoVersions", err)
	}
	_, _, _, err := SelectVersion([]string{"1.0.0"}, "2.0.0")
	var nm *NoMatchError
	if !errors.As(err, &nm) || nm.Newest != "1.0.0" {
		t.Errorf("got %v, want NoMatchError with Newest 1.0.0", err)
	}
}
