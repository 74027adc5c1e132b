package cli

import (
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/flavour"
)

// TestParseInitArgs: init's backend and state flags are accepted, and
// their problems are reported in each flavour's order and words (tofu
// 1.12.6 stops at the first kind of problem; terraform 1.15.9 lists them
// all, and finds extra arguments only when nothing else is wrong).
func TestParseInitArgs(t *testing.T) {
	tests := []struct {
		name    string
		flavour flavour.Flavour
		env     map[string]string
		args    []string
		want    []string // "Summary: Detail" of each error
		backend bool     // -backend after the -cloud alias
	}{
		{"accepted", flavour.OpenTofu, nil, []string{"-backend-config=a", "-backend-config=b=c", "-reconfigure", "-force-copy", "-lock=false", "-lock-timeout=1m", "-ignore-remote-version"}, nil, true},
		{"cloud alias", flavour.OpenTofu, nil, []string{"-cloud=false"}, nil, false},
		{"backend false", flavour.OpenTofu, nil, []string{"-backend=false", "-migrate-state"}, nil, false},
		{"reconfigure migrate", flavour.OpenTofu, nil, []string{"-reconfigure", "-migrate-state"},
			[]string{"Wrong combination of options: The -migrate-state and -reconfigure options are mutually-exclusive"}, true},
		{"force-copy is not migrate yet", flavour.OpenTofu, nil, []string{"-reconfigure", "-force-copy"}, nil, true},
		{"backend and cloud stop first", flavour.OpenTofu, nil, []string{"-backend=true", "-cloud=true", "-reconfigure", "-migrate-state", "x"},
			[]string{"Wrong combination of options: The -backend and -cloud options are aliases of one another and mutually-exclusive in their use"}, true},
		{"conflict and argument", flavour.OpenTofu, nil, []string{"-reconfigure", "-migrate-state", "x"},
			[]string{"Wrong combination of options: The -migrate-state and -reconfigure options are mutually-exclusive", "Unexpected argument: Too many command line arguments. Did you mean to use -chdir?"}, true},
		{"parse error stops", flavour.OpenTofu, nil, []string{"-reconfigure", "-migrate-state", "-lock-timeout=abc"},
			[]string{`Failed to parse command-line flags: invalid value "abc" for flag -lock-timeout: parse error`}, true},
		{"no target in tofu", flavour.OpenTofu, nil, []string{"-target=a.b"},
			[]string{"Failed to parse command-line flags: flag provided but not defined: -target"}, true},
		{"terraform accepted", flavour.Terraform, nil, []string{"-target=a.b", "-compact-warnings=true", "-create-default-workspace=true", "-backend-config=x", "-lock-timeout=2s"}, nil, true},
		{"terraform all at once", flavour.Terraform, nil, []string{"-json", "-migrate-state", "-reconfigure", "-backend=false", "-cloud=false", "x"},
			[]string{
				"The -migrate-state and -json options are mutually-exclusive: Terraform cannot ask for interactive approval when -json is set. To use the -migrate-state option, disable the -json option.",
				"Invalid init options: The -migrate-state and -reconfigure options are mutually-exclusive.",
				"Invalid init options: The -backend and -cloud options are aliases of one another and mutually-exclusive in their use",
			}, true},
		{"terraform extra argument", flavour.Terraform, nil, []string{"x"},
			[]string{"Too many command line arguments. Did you mean to use -chdir?: "}, true},
		{"terraform parse error hides extra argument", flavour.Terraform, nil, []string{"-lock=maybe", "x"},
			[]string{`Failed to parse command-line flags: invalid boolean value "maybe" for -lock: parse error`}, true},
		{"terraform experiments", flavour.Terraform, map[string]string{"TF_SKIP_CREATE_DEFAULT_WORKSPACE": "1"}, []string{"-enable-pluggable-state-storage-experiment"},
			[]string{
				"Cannot use -enable-pluggable-state-storage-experiment flag without experiments enabled: Terraform cannot use the -enable-pluggable-state-storage-experiment flag (or TF_ENABLE_PLUGGABLE_STATE_STORAGE environment variable) unless experiments are enabled.",
				"Cannot use -create-default-workspace flag without experiments enabled: Terraform cannot use the -create-default-workspace flag (or TF_SKIP_CREATE_DEFAULT_WORKSPACE environment variable) unless experiments are enabled.",
			}, true},
		{"terraform cloud alias", flavour.Terraform, nil, []string{"-cloud=false"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Meta{Env: Env{Getenv: func(k string) string { return tt.env[k] }, Stdout: io.Discard, Stderr: io.Discard}, Flavour: tt.flavour}
			var o initOptions
			fs := newInitFlagSet(m, &o)
			diags, help := parseInitArgs(m, fs, &o, tt.args)
			if help {
				t.Fatal("help = true")
			}
			var got []string
			for _, d := range diags {
				got = append(got, d.Summary+": "+d.Detail)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if !diags.HasErrors() && o.backend != tt.backend {
				t.Errorf("backend = %v, want %v", o.backend, tt.backend)
			}
		})
	}
}
