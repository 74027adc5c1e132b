package versions

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseVersion(t *testing.T) {
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{in: "1.2.3", want: "1.2.3"},
		{in: "1.0", want: "1.0.0"},
		{in: "2", want: "2.0.0"},
		{in: "1.0.0-beta.1+build.5", want: "1.0.0-beta.1+build.5"},
		{in: "v1.0.0", wantErr: true},
		{in: "1.0.0.0", wantErr: true},
		{in: "", wantErr: true},
		{in: ">= 1.0", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			v, err := ParseVersion(tt.in)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("ParseVersion(%q) = %s, want error", tt.in, v)
				}
				return
			}
			if err != nil || v.String() != tt.want {
				t.Fatalf("ParseVersion(%q) = %s, %v; want %s", tt.in, v, err, tt.want)
			}
		})
	}
}

func TestListSort(t *testing.T) {
	parse := func(ss ...string) List {
		var l List
		for _, s := range ss {
			v, err := ParseVersion(s)
			if err != nil {
				t.Fatal(err)
			}
			l = append(l, v)
		}
		return l
	}
	str := func(l List) []string {
		var out []string
		for _, v := range l {
			out = append(out, v.String())
		}
		return out
	}
	l := parse("2.0.0", "1.0.0+b", "1.0.0-rc1", "1.10.0", "1.0.0+a", "1.9.0")
	l.Sort()
	if diff := cmp.Diff([]string{"1.0.0-rc1", "1.0.0+b", "1.0.0+a", "1.9.0", "1.10.0", "2.0.0"}, str(l)); diff != "" {
		t.Errorf("Sort mismatch (-want +got):\n%s", diff)
	}
	l.SortByMetadataThenPrecedence()
	if diff := cmp.Diff([]string{"1.0.0-rc1", "1.0.0+a", "1.0.0+b", "1.9.0", "1.10.0", "2.0.0"}, str(l)); diff != "" {
		t.Errorf("SortByMetadataThenPrecedence mismatch (-want +got):\n%s", diff)
	}
}

func TestSelectNewest(t *testing.T) {
	avail := List{{Major: 1}, {Major: 1, Minor: 1}, {Major: 2, Prerelease: "rc1"}}
	got, err := SelectNewest(avail, MustParseConstraints(">= 1.0"))
	if err != nil || got.String() != "1.1.0" {
		t.Errorf("SelectNewest = %s, %v", got, err)
	}
	_, err = SelectNewest(avail, MustParseConstraints("> 3"))
	if err == nil || err.Error() != "no available releases match the given constraints > 3.0.0" {
		t.Errorf("SelectNewest error = %v", err)
	}
	if _, err := SelectLocked(avail, Version{Major: 9}); err == nil || err.Error() != "the previously-selected version 9.0.0 is no longer available" {
		t.Errorf("SelectLocked error = %v", err)
	}
}

func BenchmarkSelectNewest(b *testing.B) {
	var avail List
	for i := range 300 {
		avail = append(avail, Version{Major: uint64(i / 30), Minor: uint64(i % 30)})
	}
	c := MustParseConstraints(">= 2.0, < 8, != 5.5.0")
	for b.Loop() {
		if _, err := SelectNewest(avail, c); err != nil {
			b.Fatal(err)
		}
	}
}
