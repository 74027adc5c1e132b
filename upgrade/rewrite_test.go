package upgrade

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// to is an edit's bump: old must be what the file holds.
func to(old, new string) func(string) (string, error) {
	return func(got string) (string, error) {
		if got != old {
			return "", fmt.Errorf("found %q, want %q", got, old)
		}
		return new, nil
	}
}

func TestRewriteConstraint(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		edits     []constraintEdit
		want      string
		wantLines []int
		wantErr   string
	}{
		{
			name: "required_providers object with comments",
			src: `terraform {
  # pinned for the 1.x API
  required_providers {
    foo = {
      source  = "acme/foo" # our fork
      version = "~> 1.0"   // bump me
    }
    bar = { source = "acme/bar", version = ">= 1.0, < 2.0" }
  }
}
`,
			edits: []constraintEdit{{name: "foo", bump: to("~> 1.0", "~> 2.0")}, {name: "bar", bump: to(">= 1.0, < 2.0", ">= 1.0, < 3.0")}},
			want: `terraform {
  # pinned for the 1.x API
  required_providers {
    foo = {
      source  = "acme/foo" # our fork
      version = "~> 2.0"   // bump me
    }
    bar = { source = "acme/bar", version = ">= 1.0, < 3.0" }
  }
}
`,
			wantLines: []int{6, 8},
		},
		{
			name:      "legacy string form",
			src:       "terraform {\n  required_providers {\n    foo = \"1.0.0\"\n  }\n}\n",
			edits:     []constraintEdit{{name: "foo", bump: to("1.0.0", "2.0.0")}},
			want:      "terraform {\n  required_providers {\n    foo = \"2.0.0\"\n  }\n}\n",
			wantLines: []int{3},
		},
		{
			name: "quoted keys and a nested object left alone",
			src: `terraform {
  required_providers {
    foo = {
      "version" = "~> 1.2.3"
      meta = { version = "~> 1.2.3" }
    }
  }
}
`,
			edits: []constraintEdit{{name: "foo", bump: to("~> 1.2.3", "~> 2.0.0")}},
			want: `terraform {
  required_providers {
    foo = {
      "version" = "~> 2.0.0"
      meta = { version = "~> 1.2.3" }
    }
  }
}
`,
			wantLines: []int{4},
		},
		{
			name: "module call, odd layout kept",
			src: `/* header */
module "app" {
  source="acme/app/aws"
  version    =   "~> 1.0" # keep this comment
  count = 1
}

module "other" {
  source  = "acme/other/aws"
  version = "~> 1.0"
}
`,
			edits: []constraintEdit{{module: true, name: "app", bump: to("~> 1.0", "~> 2.0")}},
			want: `/* header */
module "app" {
  source="acme/app/aws"
  version    =   "~> 2.0" # keep this comment
  count = 1
}

module "other" {
  source  = "acme/other/aws"
  version = "~> 1.0"
}
`,
			wantLines: []int{4},
		},
		{
			name:      "tabs and CRLF kept",
			src:       "module \"app\" {\r\n\tsource\t= \"acme/app/aws\"\r\n\tversion\t= \"1.0.0\"\r\n}\r\n",
			edits:     []constraintEdit{{module: true, name: "app", bump: to("1.0.0", "1.2.0")}},
			want:      "module \"app\" {\r\n\tsource\t= \"acme/app/aws\"\r\n\tversion\t= \"1.2.0\"\r\n}\r\n",
			wantLines: []int{3},
		},
		{
			name:    "version from a variable",
			src:     "module \"app\" {\n  source = \"acme/app/aws\"\n  version = var.v\n}\n",
			edits:   []constraintEdit{{module: true, name: "app", bump: to("1.0.0", "2.0.0")}},
			wantErr: `the version of module "app" is not a plain quoted string`,
		},
		{
			name:    "template",
			src:     "module \"app\" {\n  source = \"acme/app/aws\"\n  version = \"${var.v}\"\n}\n",
			edits:   []constraintEdit{{module: true, name: "app", bump: to("1.0.0", "2.0.0")}},
			wantErr: "not a plain quoted string",
		},
		{
			name:    "bump refuses",
			src:     "terraform {\n  required_providers {\n    foo = { version = \"~> 1.1\" }\n  }\n}\n",
			edits:   []constraintEdit{{name: "foo", bump: to("~> 1.0", "~> 2.0")}},
			wantErr: `found "~> 1.1"`,
		},
		{
			name:    "declared twice",
			src:     "terraform {\n  required_providers {\n    foo = { version = \"~> 1.1\" }\n  }\n}\nterraform {\n  required_providers {\n    foo = { version = \"~> 1.1\" }\n  }\n}\n",
			edits:   []constraintEdit{{name: "foo", bump: to("~> 1.1", "~> 2.0")}},
			wantErr: "declared more than once",
		},
		{
			name:    "syntax error",
			src:     "terraform {\n",
			edits:   []constraintEdit{{name: "foo", bump: to("~> 1.0", "~> 2.0")}},
			wantErr: "versions.tf",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := []byte(tt.src)
			var lines []int
			var err error
			for _, e := range tt.edits {
				var res editResult
				got, res, err = rewriteConstraint(got, "versions.tf", e)
				if err != nil {
					break
				}
				lines = append(lines, res.Line)
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantLines, lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}
