package versions

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/conformance"
)

type constraintCases struct {
	ProviderInErrors string `json:"provider_in_errors"`
	Parse            []struct {
		Constraint string  `json:"constraint"`
		Canonical  *string `json:"canonical"`
		Error      *string `json:"error"`
	} `json:"parse"`
	Select []struct {
		Available  []string        `json:"available"`
		Constraint string          `json:"constraint"`
		Locked     *string         `json:"locked"`
		Selected   *string         `json:"selected"`
		Error      *string         `json:"error"`
		Acceptable map[string]bool `json:"acceptable"`
	} `json:"select"`
}

func loadConstraintCases(t *testing.T) constraintCases {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(conformance.Dir(t, "constraints"), "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases constraintCases
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestConformanceParse(t *testing.T) {
	cases := loadConstraintCases(t)
	for _, tc := range cases.Parse {
		t.Run(tc.Constraint, func(t *testing.T) {
			got, err := ParseConstraints(tc.Constraint)
			switch {
			case tc.Error != nil:
				if err == nil {
					t.Fatalf("ParseConstraints(%q) = %q, want error %q", tc.Constraint, got, *tc.Error)
				}
				if diff := cmp.Diff(*tc.Error, err.Error()); diff != "" {
					t.Errorf("error mismatch (-want +got):\n%s", diff)
				}
			case err != nil:
				t.Fatalf("ParseConstraints(%q): unexpected error %v", tc.Constraint, err)
			default:
				if diff := cmp.Diff(*tc.Canonical, got.String()); diff != "" {
					t.Errorf("canonical mismatch (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestConformanceSelect(t *testing.T) {
	cases := loadConstraintCases(t)
	for i, tc := range cases.Select {
		name := tc.Constraint
		if tc.Locked != nil {
			name += " locked " + *tc.Locked
		}
		t.Run(name, func(t *testing.T) {
			_ = i
			c := MustParseConstraints(tc.Constraint)
			var avail List
			for _, s := range tc.Available {
				v, err := ParseVersion(s)
				if err != nil {
					t.Fatalf("ParseVersion(%q): %v", s, err)
				}
				avail = append(avail, v)
			}
			for s, want := range tc.Acceptable {
				v, _ := ParseVersion(s)
				if got := c.Allows(v); got != want {
					t.Errorf("Allows(%s) = %v, want %v", s, got, want)
				}
			}
			got, err := selectForTest(avail, c, tc.Locked, cases.ProviderInErrors)
			if tc.Selected != nil {
				if err != nil {
					t.Fatalf("selection failed: %v", err)
				}
				if got.String() != *tc.Selected {
					t.Errorf("selected %s, want %s", got, *tc.Selected)
				}
				return
			}
			if err == nil {
				t.Fatalf("selected %s, want error %q", got, *tc.Error)
			}
			if diff := cmp.Diff(*tc.Error, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// selectForTest composes the library calls the installer makes: a locked
// version must still meet the constraints and be available; otherwise the
// newest acceptable version is chosen.
func selectForTest(avail List, c Constraints, locked *string, provider string) (Version, error) {
	if locked == nil {
		return SelectNewest(avail, c)
	}
	lv, err := ParseVersion(*locked)
	if err != nil {
		return Version{}, err
	}
	if !c.Allows(lv) {
		return Version{}, &lockedMismatch{provider: provider, locked: lv, c: c}
	}
	return SelectLocked(avail, lv)
}

type lockedMismatch struct {
	provider string
	locked   Version
	c        Constraints
}

func (e *lockedMismatch) Error() string {
	return "locked provider " + e.provider + " " + e.locked.String() + " does not match configured version constraint " + e.c.String() + "; must use tofu init -upgrade to allow selection of new versions"
}
