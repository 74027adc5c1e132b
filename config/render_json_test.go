package config

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2/json"
)

func TestRenderJSON(t *testing.T) {
	tests := []struct {
		name string
		src  string // main.tf
		want string
	}{
		{
			name: "labels share objects, repeated blocks become arrays",
			src: `resource "a" "x" {}
resource "b" "y" { n = 1 }
resource "a" "z" {}
locals { p = 1 }
locals { q = 2 }
moved {
  from = a.old
  to   = a.x
}
`,
			want: `{
  "resource": {
    "a": {
      "x": {},
      "z": {}
    },
    "b": {
      "y": {
        "n": 1
      }
    }
  },
  "locals": [
    {
      "p": 1
    },
    {
      "q": 2
    }
  ],
  "moved": {
    "from": "a.old",
    "to": "a.x"
  }
}
`,
		},
		{
			name: "keywords, literal arguments and provider requirements",
			src: `terraform {
  required_version = ">= 1.0"
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      configuration_aliases = [aws.west]
    }
  }
}
variable "v" {
  type        = map(string)
  default     = { k = "$${lit}" }
  description = "has $${x}"
}
module "m" {
  source    = "./m"
  providers = { aws = aws.west }
  for_each  = toset(var.names)
}
`,
			want: `{
  "terraform": {
    "required_version": ">= 1.0",
    "required_providers": {
      "aws": {
        "source": "hashicorp/aws",
        "configuration_aliases": [
          "aws.west"
        ]
      }
    }
  },
  "variable": {
    "v": {
      "type": "map(string)",
      "default": {
        "k": "${lit}"
      },
      "description": "has ${x}"
    }
  },
  "module": {
    "m": {
      "source": "./m",
      "providers": {
        "aws": "aws.west"
      },
      "for_each": "${toset(var.names)}"
    }
  }
}
`,
		},
		{
			name: "templates and heredocs",
			src: `locals {
  a = "x-${var.y}-\"q\"\n"
  b = "$${esc}"
  c = <<EOT
line ${var.y}
EOT
  d = <<-EOT
    flush ${var.y}
    EOT
  f = <<-EOT
    flush
    EOT
  e = -1
}
`,
			want: `{
  "locals": {
    "a": "x-${var.y}-\"q\"\n",
    "b": "$${esc}",
    "c": "line ${var.y}\n",
    "d": "${<<-EOT\n    flush ${var.y}\n    EOT\n}",
    "f": "flush\n",
    "e": "${-1}"
  }
}
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parseTestDocument(t, []string{"main.tf"}, map[string]string{"main.tf": tt.src})
			got := doc.RenderJSON()
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("RenderJSON() mismatch (-want +got):\n%s", diff)
			}
			if _, diags := json.Parse(got, "main.tf.json"); diags.HasErrors() {
				t.Errorf("RenderJSON() output does not parse: %s", diags)
			}
		})
	}
}

func TestRenderJSONCopiesJSONValues(t *testing.T) {
	src := `{"resource": {"t": {"r": {"n": 1.50, "s": "${var.x}", "o": {"z": 1, "a": [true, null]}}}}}`
	doc := parseTestDocument(t, []string{"main.tf.json"}, map[string]string{"main.tf.json": src})
	want := `{
  "resource": {
    "t": {
      "r": {
        "n": 1.50,
        "s": "${var.x}",
        "o": {
          "z": 1,
          "a": [
            true,
            null
          ]
        }
      }
    }
  }
}
`
	if diff := cmp.Diff(want, string(doc.RenderJSON())); diff != "" {
		t.Errorf("RenderJSON() mismatch (-want +got):\n%s", diff)
	}
}

func TestRenderShadowedForEach(t *testing.T) {
	src := "resource \"t\" \"r\" {\n  count    = 1\n  for_each = var.s\n}\n"
	doc := parseTestDocument(t, []string{"main.tf"}, map[string]string{"main.tf": src})
	wantNative := "resource \"t\" \"r\" {\n  count = 1\n  # for_each (main.tf:3) left out: count is also set, and OpenTofu uses count\n}\n"
	if diff := cmp.Diff(wantNative, string(doc.Render(RenderOptions{}))); diff != "" {
		t.Errorf("Render() mismatch (-want +got):\n%s", diff)
	}
	wantJSON := `{
  "resource": {
    "t": {
      "r": {
        "count": 1,
        "//": "for_each (main.tf:3) left out: count is also set, and OpenTofu uses count"
      }
    }
  }
}
`
	if diff := cmp.Diff(wantJSON, string(doc.RenderJSON())); diff != "" {
		t.Errorf("RenderJSON() mismatch (-want +got):\n%s", diff)
	}
}
