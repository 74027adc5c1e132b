package backend

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/cloudfake"
)

func TestCanCheck(t *testing.T) {
	cases := []struct {
		f    flavour.Flavour
		typ  string
		want bool
	}{
		{flavour.OpenTofu, "s3", true},
		{flavour.OpenTofu, "azurerm", true},
		{flavour.Terraform, "http", true},
		{flavour.Terraform, "s3", true},
		{flavour.Terraform, "gcs", true},
		{flavour.Terraform, "azurerm", false},
		{flavour.Terraform, "consul", false},
	}
	for _, c := range cases {
		if got := CanCheck(c.f, c.typ); got != c.want {
			t.Errorf("CanCheck(%v, %q) = %v, want %v", c.f, c.typ, got, c.want)
		}
	}
}

func TestValidateS3Terraform(t *testing.T) {
	const base = "bucket = \"b\"\nkey = \"k\"\nregion = \"eu-west-1\"\n"
	cases := []struct {
		name, body string
		env        func(string) string
		want       []string
	}{
		{name: "ok", body: base},
		{name: "region from environment", body: "bucket = \"b\"\nkey = \"k\"", env: env("AWS_REGION=eu-west-1")},
		{name: "empty values", body: "bucket = \" \"\nkey = \"\"", want: []string{
			"Invalid Value: The value cannot be empty or all whitespace @ main.tf:1",
			"Invalid Value: The value cannot be empty or all whitespace @ main.tf:2",
			`Missing region value: The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set. @ main.tf:1`,
		}},
		{name: "key slash", body: "bucket = \"b\"\nkey = \"k/\"\nregion = \"eu-west-1\"", want: []string{`Invalid Value: The value must not start or end with "/" @ main.tf:2`}},
		{name: "key double slash", body: "bucket = \"b\"\nkey = \"a//k\"\nregion = \"eu-west-1\"", want: []string{`Invalid Value: Value must not contain "//" @ main.tf:2`}},
		{name: "prefix slash", body: base + "workspace_key_prefix = \"/p\"", want: []string{`Invalid Value: The value must not start or end with "/" @ main.tf:4`}},
		{name: "retry mode", body: base + "retry_mode = \"often\"", want: []string{"Invalid Value: unknown RetryMode, often @ main.tf:4"}},
		{name: "unknown region", body: "bucket = \"b\"\nkey = \"k\"\nregion = \"mars-1\"", want: []string{"Invalid region value: Invalid AWS Region: mars-1 @ main.tf:3"}},
		{name: "unknown region skipped", body: "bucket = \"b\"\nkey = \"k\"\nregion = \"mars-1\"\nskip_region_validation = true"},
		{name: "customer key", body: base + "sse_customer_key = \"short\"", want: []string{"Invalid sse_customer_key value: sse_customer_key must be 44 characters in length @ main.tf:4"}},
		{name: "customer key from environment", body: base, env: env("AWS_SSE_CUSTOMER_KEY=short"), want: []string{`Invalid AWS_SSE_CUSTOMER_KEY value: The environment variable "AWS_SSE_CUSTOMER_KEY" must be 44 characters in length @ main.tf:1`}},
		{name: "kms key and customer key from environment", body: base + "kms_key_id = \"alias/k\"", env: env("AWS_SSE_CUSTOMER_KEY=" + strings.Repeat("A", 44)), want: []string{`Invalid encryption configuration: Only one of "kms_key_id" and the environment variable "AWS_SSE_CUSTOMER_KEY" can be set. @ main.tf:1`}},
		{name: "path style conflict", body: base + "force_path_style = true\nuse_path_style = true", want: []string{
			"Invalid Attribute Combination: Only one of force_path_style, use_path_style can be set.",
			`Deprecated Parameter: The parameter "force_path_style" is deprecated. Use parameter "use_path_style" instead. @ main.tf:4`,
		}},
		{name: "deprecated", body: base + "dynamodb_table = \"t\"\nendpoint = \"s3.example.com\"", want: []string{
			`Deprecated Parameter: The parameter "dynamodb_table" is deprecated. Use parameter "use_lockfile" instead. @ main.tf:4`,
			`Deprecated Parameter: The parameter "endpoint" is deprecated. Use parameter "endpoints.s3" instead. @ main.tf:5`,
			"Complete URL Expected: The value should be a valid URL containing at least a scheme and hostname. Had \"s3.example.com\".\nUsing an incomplete URL, such as a hostname only, may work, but may have unexpected behavior. @ main.tf:5",
		}},
		{name: "endpoint twice", body: base + "endpoint = \"https://a\"\nendpoints = { s3 = \"https://b\" }", want: []string{
			`Deprecated Parameter: The parameter "endpoint" is deprecated. Use parameter "endpoints.s3" instead. @ main.tf:4`,
			`Conflicting Parameters: The parameters "endpoint" and "endpoints.s3" cannot be configured together. @ main.tf:1`,
		}},
		{name: "deprecated variable", body: base, env: env("AWS_S3_ENDPOINT=https://a"), want: []string{
			`Deprecated Environment Variable: The environment variable "AWS_S3_ENDPOINT" is deprecated. Use environment variable "AWS_ENDPOINT_URL_S3" instead. @ main.tf:1`,
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, b := savedFromIn(t, flavour.Terraform, "s3", c.body)
			getenv := c.env
			if getenv == nil {
				getenv = env()
			}
			got := diagTexts(Validate(rec, CheckOptions{Flavour: flavour.Terraform, Getenv: getenv, Body: b.Body}))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateS3TerraformPlacement: Terraform places an error about an
// argument at its value when the block sets it (the -backend-config
// value that replaced it included), at the block when only
// -backend-config sets it; OpenTofu at the value that won.
func TestValidateS3TerraformPlacement(t *testing.T) {
	cases := []struct {
		f         flavour.Flavour
		overrides []string
		want      string
	}{
		{flavour.Terraform, []string{"key=/x"}, "-backend-config=...:1"},
		{flavour.Terraform, []string{"workspace_key_prefix=/p"}, "main.tf:1"},
		{flavour.OpenTofu, []string{"workspace_key_prefix=/p"}, "-backend-config=...:1"},
	}
	for _, c := range cases {
		rec, b := savedFromIn(t, c.f, "s3", "bucket = \"b\"\nkey = \"k\"\nregion = \"eu-west-1\"")
		o := Options{Overrides: c.overrides}
		s, diags := Configure(c.f, b, o)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		rec, err := s.Saved()
		if err != nil {
			t.Fatal(err)
		}
		got := Validate(rec, CheckOptions{Flavour: c.f, Getenv: env(), Body: ConfiguredBody(c.f, b, o)})
		if len(got) != 1 || got[0].Subject == nil {
			t.Fatalf("%v %v: got %v", c.f, c.overrides, diagTexts(got))
		}
		if where := fmt.Sprintf("%s:%d", got[0].Subject.Filename, got[0].Subject.Start.Line); where != c.want {
			t.Errorf("%v %v: at %s, want %s", c.f, c.overrides, where, c.want)
		}
	}
}

func TestCheckS3Terraform(t *testing.T) {
	url := s3Fake(t, []string{"states"}, map[string]string{
		"states/app/terraform.tfstate":           `{"version":4,"serial":1}`,
		"states/env:/blue/app/terraform.tfstate": `{"version":4,"serial":2}`,
	})
	deny := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		w.Write([]byte(`<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`))
	}))
	t.Cleanup(deny.Close)
	cases := []struct {
		name, url, bucket, extra string
		wantList                 []string
		wantListErr              string
		wantErr                  string
	}{
		{name: "default", url: url, bucket: "states", wantList: []string{"default", "blue"}},
		{name: "no bucket", url: url, bucket: "missing", wantListErr: `S3 bucket "missing" does not exist.`, wantErr: `S3 bucket "missing" does not exist.`},
		{name: "denied under the default prefix", url: deny.URL, bucket: "states", wantList: []string{"default"}, wantErr: `Unable to access object "app/terraform.tfstate" in S3 bucket "states": `},
		{name: "denied under another prefix", url: deny.URL, bucket: "states", extra: `workspace_key_prefix = "ws"`, wantListErr: `Unable to list objects in S3 bucket "states" with prefix "ws/": `},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, _ := savedFromIn(t, flavour.Terraform, "s3", s3Block(c.url, c.bucket, c.extra+"\nmax_retries = 0"))
			ctx := context.Background()
			r, diags := Open(ctx, rec, CheckOptions{Flavour: flavour.Terraform, Getenv: env()})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			list, err := r.Workspaces(ctx)
			if c.wantListErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.wantListErr) {
					t.Fatalf("Workspaces: got %v, want %q", err, c.wantListErr)
				}
				return
			}
			if diff := cmp.Diff(c.wantList, list); err != nil || diff != "" {
				t.Fatalf("Workspaces: %v (-want +got):\n%s", err, diff)
			}
			_, err = r.ReadState(ctx, "default")
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), c.wantErr)) {
				t.Fatalf("ReadState: got %v, want %q", err, c.wantErr)
			}
		})
	}
}

func TestValidateGCSTerraform(t *testing.T) {
	cases := []struct {
		name, body string
		env        func(string) string
		want       []string
	}{
		{name: "empty bucket taken as it is", body: `bucket = ""`},
		{name: "both keys set, even empty", body: "bucket = \"b\"\nencryption_key = \"\"\nkms_encryption_key = \"\"", want: []string{"can't set both encryption_key and kms_encryption_key"}},
		{name: "both keys, one from the environment", body: "bucket = \"b\"\nencryption_key = \"k\"", env: env("GOOGLE_KMS_ENCRYPTION_KEY=projects/p"), want: []string{"can't set both encryption_key and kms_encryption_key"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, b := savedFromIn(t, flavour.Terraform, "gcs", c.body)
			getenv := c.env
			if getenv == nil {
				getenv = env()
			}
			got := diagTexts(Validate(rec, CheckOptions{Flavour: flavour.Terraform, Getenv: getenv, Body: b.Body}))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCheckInterrupted: a cancelled context (an interrupt) ends every
// contact at once, with an error that says so, against a server that
// never answers.
func TestCheckInterrupted(t *testing.T) {
	arrived := make(chan struct{}, 16)
	done := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(done) })

	// Open asks STS who the credentials belong to.
	rec, _ := savedFromIn(t, flavour.Terraform, "s3", fmt.Sprintf(`bucket = "states"
key = "k"
region = "us-east-1"
access_key = "fake"
secret_key = "fake"
endpoints = { s3 = %[1]q, sts = %[1]q }
`, hang.URL))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	_, diags := Open(ctx, rec, CheckOptions{Flavour: flavour.Terraform, Getenv: env()})
	if !diags.HasErrors() || !strings.Contains(diagTexts(diags)[0], "context canceled") {
		t.Errorf("Open: got %v, want a cancelled request", diagTexts(diags))
	}

	for _, f := range []flavour.Flavour{flavour.OpenTofu, flavour.Terraform} {
		rec, _ := savedFromIn(t, f, "s3", s3Block(hang.URL, "states", ""))
		r, diags := Open(context.Background(), rec, CheckOptions{Flavour: f, Getenv: env()})
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-arrived; cancel() }()
		if _, err := r.Workspaces(ctx); !errors.Is(err, context.Canceled) {
			t.Errorf("%v: Workspaces: got %v, want context.Canceled", f, err)
		}
	}

	fake := cloudfake.NewGCS("states")
	gcs := httptest.NewServer(fake)
	t.Cleanup(gcs.Close)
	rec, _ = savedFromIn(t, flavour.Terraform, "gcs", `bucket = "states"
access_token = "fake"
storage_custom_endpoint = "`+hang.URL+`/storage/v1/"`)
	r, diags := Open(context.Background(), rec, CheckOptions{Flavour: flavour.Terraform, Getenv: env()})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := r.OpenState(ctx, "default"); !errors.Is(err, context.Canceled) {
		t.Errorf("gcs OpenState: got %v, want context.Canceled", err)
	}
}
