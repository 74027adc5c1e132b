package serve

import "testing"

func TestParseArchiveName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
		want string
	}{
		{"terraform-provider-null_3.2.1_linux_amd64.zip", true, "3.2.1 linux_amd64"},
		{"terraform-provider-null_3.2.1_windows_386.zip", true, "3.2.1 windows_386"},
		{"terraform-provider-null_3.2.1_linux_amd64.tar.gz", false, ""},
		{"terraform-provider-aws_3.2.1_linux_amd64.zip", false, ""},
		{"terraform-provider-null_3.2.1_linux_.zip", false, ""},
		{"terraform-provider-null_3.2.1__amd64.zip", false, ""},
		{"terraform-provider-null_0.0.0_\x9f_.zip", false, ""},
		{"terraform-provider-null_3.2.1_Linux_amd64.zip", false, ""},
		{"terraform-provider-null_3.2.1_linux_amd64_x.zip", false, ""},
	} {
		v, pl, ok := parseArchiveName("null", tc.name)
		if ok != tc.ok {
			t.Errorf("parseArchiveName(%q) ok = %v, want %v", tc.name, ok, tc.ok)
			continue
		}
		if ok && v.String()+" "+pl.String() != tc.want {
			t.Errorf("parseArchiveName(%q) = %s %s, want %s", tc.name, v, pl, tc.want)
		}
	}
}
