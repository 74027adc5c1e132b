package difftest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The normalizations make tofu's map-order outputs comparable; they must
// not hide anything else.
func TestNormalizations(t *testing.T) {
	tests := []struct {
		name     string
		f        func(string) string
		a, b     string
		sameWant bool
	}{
		{
			name:     "providers tree siblings in any order",
			f:        sortProvidersTree,
			a:        "\nProviders required by configuration:\n.\n├── provider[b]\n├── module.m\n│   └── provider[x]\n└── provider[a]\n\n",
			b:        "\nProviders required by configuration:\n.\n├── provider[a]\n├── provider[b]\n└── module.m\n    └── provider[x]\n\n",
			sameWant: true,
		},
		{
			name: "providers tree with a different child",
			f:    sortProvidersTree,
			a:    "\nProviders required by configuration:\n.\n└── module.m\n    └── provider[x]\n\n",
			b:    "\nProviders required by configuration:\n.\n└── module.m\n    └── provider[y]\n\n",
		},
		{
			name:     "progress lines in any order",
			f:        func(s string) string { return sortProgress(s, false) },
			a:        "x\n- Finding b...\n- Finding a...\ny\n",
			b:        "x\n- Finding a...\n- Finding b...\ny\n",
			sameWant: true,
		},
		{
			name: "progress lines do not move across other lines",
			f:    func(s string) string { return sortProgress(s, false) },
			a:    "- Finding b...\ny\n- Finding a...\n",
			b:    "- Finding a...\ny\n- Finding b...\n",
		},
		{
			name:     "module lines in any order (terraform)",
			f:        func(s string) string { return sortProgress(s, true) },
			a:        "Initializing modules...\nDownloading b for b...\n- b in b\n- a in a\n\n",
			b:        "Initializing modules...\n- a in a\nDownloading b for b...\n- b in b\n\n",
			sameWant: true,
		},
		{
			name: "module lines keep their order (opentofu)",
			f:    func(s string) string { return sortProgress(s, false) },
			a:    "Downloading b for b...\n- b in b\nDownloading a for a...\n- a in a\n",
			b:    "Downloading a for a...\n- a in a\nDownloading b for b...\n- b in b\n",
		},
		{
			name: "progress lines do not move across other lines (modules)",
			f:    func(s string) string { return sortProgress(s, true) },
			a:    "- Finding b...\ny\n- Finding a...\n",
			b:    "- Finding a...\ny\n- Finding b...\n",
		},
		{
			name:     "sourceless errors in any order",
			f:        sortSameSummaryRuns,
			a:        "\nError: B\n\nb\n\n\nError: A\n\na\n\n",
			b:        "\nError: A\n\na\n\n\nError: B\n\nb\n\n",
			sameWant: true,
		},
		{
			name: "sited warnings keep their order",
			f:    sortSameSummaryRuns,
			a:    "\nWarning: B\n\n  on x.tf line 1:\n\nb\n\n\nWarning: A\n\n  on x.tf line 2:\n\na\n\n",
			b:    "\nWarning: A\n\n  on x.tf line 2:\n\na\n\n\nWarning: B\n\n  on x.tf line 1:\n\nb\n\n",
		},
		{
			name:     "tfdeps key and timestamps",
			f:        func(s string) string { return normalize(s, "", "") },
			a:        `{"@level":"info","@message":"m","@module":"tofu.ui","@timestamp":"2026-01-01T00:00:00.000000Z","tfdeps":{"event":"x","provider":"p"}}`,
			b:        `{"@level":"info","@message":"m","@module":"tofu.ui","@timestamp":"2027-01-01T00:00:00.000000Z"}`,
			sameWant: true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fa, fb := tc.f(tc.a), tc.f(tc.b)
			if same := fa == fb; same != tc.sameWant {
				t.Errorf("normalized equal = %v, want %v:\n%s", same, tc.sameWant, cmp.Diff(fa, fb))
			}
		})
	}
}
