package lockfile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/conformance"
	"github.com/tfdeps/tfdeps/versions"
)

type wantDiag struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Subject  string `json:"subject,omitempty"`
}

type wantProvider struct {
	Version     string   `json:"version"`
	Constraints string   `json:"constraints"`
	Hashes      []string `json:"hashes"`
}

type readCase struct {
	Diagnostics []wantDiag              `json:"diagnostics"`
	Providers   map[string]wantProvider `json:"providers"`
	ResavedFile string                  `json:"resaved_file"`
}

func diagsForCompare(diags hcl.Diagnostics) []wantDiag {
	out := []wantDiag{}
	for _, d := range diags {
		w := wantDiag{Severity: "error", Summary: d.Summary, Detail: d.Detail}
		if d.Severity == hcl.DiagWarning {
			w.Severity = "warning"
		}
		if s := d.Subject; s != nil {
			w.Subject = fmt.Sprintf("%s:%d,%d-%d,%d", s.Filename, s.Start.Line, s.Start.Column, s.End.Line, s.End.Column)
		}
		out = append(out, w)
	}
	return out
}

func providersForCompare(l *Locks) map[string]wantProvider {
	out := map[string]wantProvider{}
	for _, p := range l.Providers() {
		out[p.Provider().String()] = wantProvider{
			Version:     p.Version().String(),
			Constraints: p.constraints.String(),
			Hashes:      append([]string{}, hashes.Strings(p.Hashes())...),
		}
	}
	return out
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func TestConformanceRead(t *testing.T) {
	root := conformance.Dir(t, "lockfiles", "read")
	files, err := filepath.Glob(filepath.Join(root, "*.hcl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".hcl")
		if strings.HasSuffix(name, ".resaved") {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			var want readCase
			readJSON(t, filepath.Join(root, name+".expected.json"), &want)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			locks, _, diags := Read(src, name+".hcl", ReadOptions{})
			if diff := cmp.Diff(want.Diagnostics, diagsForCompare(diags)); diff != "" {
				t.Errorf("diagnostics mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(want.Providers, providersForCompare(locks)); diff != "" {
				t.Errorf("providers mismatch (-want +got):\n%s", diff)
			}
			if want.ResavedFile == "" {
				return
			}
			resaved, err := os.ReadFile(filepath.Join(root, want.ResavedFile))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(resaved), string(locks.Bytes(OpenTofu))); diff != "" {
				t.Errorf("resaved file mismatch (-want +got):\n%s", diff)
			}
		})
	}
	if n == 0 {
		t.Fatal("no read cases found")
	}
}

type roundtripCase struct {
	Providers      map[string]wantProvider `json:"providers"`
	CanonicalOrder []string                `json:"canonical_order"`
	WriterInput    []struct {
		Provider    string   `json:"provider"`
		Version     string   `json:"version"`
		Constraints string   `json:"constraints"`
		Hashes      []string `json:"hashes"`
	} `json:"writer_input"`
}

func TestConformanceRoundtrip(t *testing.T) {
	root := conformance.Dir(t, "lockfiles", "roundtrip")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		dir := filepath.Join(root, d.Name())
		var want roundtripCase
		readJSON(t, filepath.Join(dir, "expected.json"), &want)
		canonical, err := os.ReadFile(filepath.Join(dir, "canonical.hcl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, input := range []string{"canonical.hcl", "input.hcl"} {
			t.Run(d.Name()+"/"+input, func(t *testing.T) {
				src, err := os.ReadFile(filepath.Join(dir, input))
				if err != nil {
					t.Fatal(err)
				}
				locks, _, diags := Read(src, input, ReadOptions{})
				if len(diags) != 0 {
					t.Fatalf("unexpected diagnostics: %v", diags)
				}
				checkRoundtrip(t, locks, want, canonical)
			})
		}
		t.Run(d.Name()+"/writer_input", func(t *testing.T) {
			locks := New()
			for _, in := range want.WriterInput {
				addr, err := ParseProvider(OpenTofu, in.Provider)
				if err != nil {
					t.Fatal(err)
				}
				v, err := versions.ParseVersion(in.Version)
				if err != nil {
					t.Fatal(err)
				}
				c, err := versions.ParseConstraints(in.Constraints)
				if err != nil {
					t.Fatal(err)
				}
				hs := make([]hashes.Hash, len(in.Hashes))
				for i, h := range in.Hashes {
					hs[i] = hashes.Hash(h)
				}
				locks.SetProvider(addr, v, c, hs)
			}
			checkRoundtrip(t, locks, want, canonical)
		})
	}
}

func checkRoundtrip(t *testing.T, locks *Locks, want roundtripCase, canonical []byte) {
	t.Helper()
	if diff := cmp.Diff(want.Providers, providersForCompare(locks)); diff != "" {
		t.Errorf("providers mismatch (-want +got):\n%s", diff)
	}
	var order []string
	for _, addr := range locks.Addresses() {
		order = append(order, addr.String())
	}
	if diff := cmp.Diff(want.CanonicalOrder, order); diff != "" {
		t.Errorf("order mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(string(canonical), string(locks.Bytes(OpenTofu))); diff != "" {
		t.Errorf("written file mismatch (-want +got):\n%s", diff)
	}
}
