package upgrade

import (
	"strings"
	"testing"

	"github.com/tfdeps/tfdeps/versions"
)

func TestBump(t *testing.T) {
	tests := []struct {
		name, constraint, version, want, wantErr string
		module                                   bool
	}{
		{name: "pessimistic minor", constraint: "~> 1.0", version: "2.0.0", want: "~> 2.0"},
		{name: "pessimistic minor later minor", constraint: "~> 1.2", version: "2.3.1", want: "~> 2.0"},
		{name: "pessimistic patch", constraint: "~> 1.2.3", version: "2.0.0", want: "~> 2.0.0"},
		{name: "pessimistic patch later minor", constraint: "~> 1.2.3", version: "2.1.4", want: "~> 2.1.0"},
		{name: "pessimistic major", constraint: "~> 0", version: "1.4.0", want: "~> 1"},
		{name: "pessimistic no space", constraint: "~>1.0", version: "2.0.0", want: "~>2.0"},
		{name: "exact pin", constraint: "1.2.3", version: "2.0.1", want: "2.0.1"},
		{name: "exact pin with operator", constraint: "= 1.2.3", version: "2.0.1", want: "= 2.0.1"},
		{name: "exact pin short", constraint: "= 1.0", version: "2.0.0", want: "= 2.0"},
		{name: "exact pin short loses nothing only", constraint: "= 1.0", version: "2.0.3", want: "= 2.0.3"},
		{name: "range", constraint: ">= 1.0, < 2.0", version: "2.4.0", want: ">= 1.0, < 3.0"},
		{name: "range minor step", constraint: ">= 1.0, < 1.5", version: "2.3.1", want: ">= 1.0, < 2.4"},
		{name: "range patch step", constraint: ">=1.0.0,<1.0.4", version: "1.0.9", want: ">=1.0.0,<1.0.10"},
		{name: "range far", constraint: ">= 1.0, < 2.0", version: "4.1.0", want: ">= 1.0, < 5.0"},
		{name: "at most", constraint: "<= 1.9", version: "2.0.0", want: "<= 2.0"},
		{name: "at most full", constraint: "<= 1.9", version: "2.0.5", want: "<= 2.0.5"},
		{name: "already allows", constraint: "~> 2.0", version: "2.7.0", want: "~> 2.0"},
		{name: "lower bound only", constraint: ">= 1.0", version: "9.0.0", want: ">= 1.0"},
		{name: "empty allows all", constraint: "", version: "3.0.0", want: ""},
		{name: "only the excluding part changes", constraint: "~> 1.2.0, != 1.2.5, < 1.2.4", version: "1.2.7", want: "~> 1.2.0, != 1.2.5, < 1.2.8"},
		{name: "spacing kept", constraint: " ~> 1.0 ,>= 0.9", version: "2.0.0", want: " ~> 2.0 ,>= 0.9"},
		{name: "two spaces unparseable", constraint: "~>  1.0", version: "2.0.0", wantErr: "only one space"},
		{name: "excluded itself", constraint: "!= 2.0.0, ~> 2.0", version: "2.0.0", wantErr: "excludes 2.0.0"},
		{name: "unparseable", constraint: "~> banana", version: "2.0.0", wantErr: "missing comma"},
		{name: "prerelease target", constraint: "~> 1.0", version: "2.0.0-beta1", wantErr: "prerelease"},
		{name: "module v prefix", constraint: "~> v1.0", version: "2.0.0", want: "~> v2.0", module: true},
		{name: "module exact", constraint: "1.0.0", version: "1.1.0", want: "1.1.0", module: true},
		{name: "module range", constraint: ">= 1.0, < 2.0", version: "2.0.0", want: ">= 1.0, < 3.0", module: true},
		{name: "module already", constraint: "~> 1.0", version: "1.9.0", want: "~> 1.0", module: true},
		{name: "module unparseable", constraint: "~> x", version: "1.9.0", wantErr: "malformed", module: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := versions.ParseVersion(tt.version)
			if err != nil {
				t.Fatal(err)
			}
			bumpFn := Bump
			if tt.module {
				bumpFn = BumpModule
			}
			got, err := bumpFn(tt.constraint, v)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Bump(%q, %s) = %q, %v; want an error with %q", tt.constraint, v, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Bump(%q, %s) = %q, %v; want %q", tt.constraint, v, got, err, tt.want)
			}
		})
	}
}
