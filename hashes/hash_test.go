package hashes

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in      string
		scheme  Scheme
		value   string
		wantErr bool
	}{
		{in: "h1:abc=", scheme: SchemeH1, value: "abc="},
		{in: "zh:00ff", scheme: SchemeZip, value: "00ff"},
		{in: "test:placeholder", scheme: "test:", value: "placeholder"},
		{in: "x:", scheme: "x:", value: ""},
		{in: "a:b:c", scheme: "a:", value: "b:c"},
		{in: "nocolon", wantErr: true},
		{in: ":leading", wantErr: true},
		{in: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			h, err := Parse(tt.in)
			if tt.wantErr {
				if err != ErrMissingScheme {
					t.Fatalf("Parse(%q) error = %v, want %v", tt.in, err, ErrMissingScheme)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if h.String() != tt.in || h.Scheme() != tt.scheme || h.Value() != tt.value {
				t.Errorf("Parse(%q) = %q scheme %q value %q; want scheme %q value %q",
					tt.in, h, h.Scheme(), h.Value(), tt.scheme, tt.value)
			}
		})
	}
}

func TestErrMissingSchemeText(t *testing.T) {
	want := "hash string must start with a scheme keyword followed by a colon"
	if got := ErrMissingScheme.Error(); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPreferred(t *testing.T) {
	in := []Hash{"test:a", "zh:1", "h1:b", "H1:c", "zh:0"}
	want := []Hash{"zh:1", "h1:b", "zh:0"}
	if diff := cmp.Diff(want, Preferred(in)); diff != "" {
		t.Errorf("Preferred mismatch (-want +got):\n%s", diff)
	}
}

func TestSortedUnique(t *testing.T) {
	tests := []struct {
		name string
		in   []Hash
		want []Hash
	}{
		{name: "nil", in: nil, want: nil},
		{name: "sorted", in: []Hash{"h1:a", "zh:b"}, want: []Hash{"h1:a", "zh:b"}},
		{
			name: "unsorted with duplicates",
			in:   []Hash{"zh:bbbb", "h1:aaaa=", "zh:bbbb", "test:${x}"},
			want: []Hash{"h1:aaaa=", "test:${x}", "zh:bbbb"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]Hash(nil), tt.in...)
			if diff := cmp.Diff(tt.want, SortedUnique(in)); diff != "" {
				t.Errorf("SortedUnique mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.in, in); diff != "" {
				t.Errorf("SortedUnique modified its input (-want +got):\n%s", diff)
			}
		})
	}
}
