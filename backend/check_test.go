package backend

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/cloudfake"
)

// savedFrom decodes a backend block's body (src, in file main.tf) as
// init records it.
func savedFrom(t *testing.T, typ, src string) (*SavedBackend, *Block) {
	t.Helper()
	return savedFromIn(t, flavour.OpenTofu, typ, src)
}

// savedFromIn is savedFrom in flavour f.
func savedFromIn(t *testing.T, f flavour.Flavour, typ, src string) (*SavedBackend, *Block) {
	t.Helper()
	file, diags := hclparse.NewParser().ParseHCL([]byte(src), "main.tf")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	b := &Block{Type: typ, Body: file.Body}
	s, diags := Configure(f, b, Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	rec, err := s.Saved()
	if err != nil {
		t.Fatal(err)
	}
	return rec, b
}

// env is an environment of the given NAME=VALUE pairs.
func env(pairs ...string) func(string) string {
	m := map[string]string{}
	for _, p := range pairs {
		k, v, _ := strings.Cut(p, "=")
		m[k] = v
	}
	return func(k string) string { return m[k] }
}

// diagTexts renders diagnostics as "SUMMARY: DETAIL @ LINE" lines.
func diagTexts(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		s := d.Summary
		if d.Detail != "" {
			s += ": " + d.Detail
		}
		if d.Subject != nil {
			s += fmt.Sprintf(" @ %s:%d", d.Subject.Filename, d.Subject.Start.Line)
		}
		out = append(out, s)
	}
	return out
}

func TestCheckHTTP(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/state":
			if r.Header.Get("X-Team") != "a" {
				w.WriteHeader(http.StatusForbidden)
				return
			}
			fmt.Fprint(w, `{"version":4}`)
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		case "/auth":
			w.WriteHeader(http.StatusUnauthorized)
		case "/teapot":
			w.WriteHeader(http.StatusTeapot)
		case "/down":
			w.WriteHeader(http.StatusBadGateway)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cases := []struct {
		name, body string
		ws         string
		want       string
		wantErr    string
		opening    bool
		wantHits   int32
	}{
		{name: "state", body: `address = "` + srv.URL + `/state"` + "\nheaders = { X-Team = \"a\" }", want: `{"version":4}`, wantHits: 1},
		{name: "absent", body: `address = "` + srv.URL + `/none"`, wantHits: 1},
		{name: "no content", body: `address = "` + srv.URL + `/empty"`, wantHits: 1},
		{name: "forbidden", body: `address = "` + srv.URL + `/state"`, wantErr: "HTTP remote state endpoint invalid auth", wantHits: 1},
		{name: "auth", body: `address = "` + srv.URL + `/auth"`, wantErr: "HTTP remote state endpoint requires auth", wantHits: 1},
		{name: "other code", body: `address = "` + srv.URL + `/teapot"`, wantErr: "Unexpected HTTP response code 418", wantHits: 1},
		{name: "retried", body: `address = "` + srv.URL + "/down\"\nretry_max = 2\nretry_wait_min = 0\nretry_wait_max = 0", wantErr: "Failed to get state: GET " + srv.URL + "/down giving up after 3 attempt(s)", wantHits: 3},
		{name: "workspace", body: `address = "` + srv.URL + `/state"`, ws: "other", wantErr: "workspaces not supported", opening: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hits.Store(0)
			rec, _ := savedFrom(t, "http", c.body)
			r, diags := Open(context.Background(), rec, CheckOptions{Flavour: flavour.OpenTofu})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if _, err := r.Workspaces(context.Background()); !errors.Is(err, ErrWorkspacesNotSupported) {
				t.Errorf("Workspaces: got %v, want ErrWorkspacesNotSupported", err)
			}
			ws := c.ws
			if ws == "" {
				ws = "default"
			}
			got, err := r.OpenState(context.Background(), ws)
			if c.wantErr != "" {
				var se *StateReadError
				if !errors.As(err, &se) || se.Error() != c.wantErr || se.Opening != c.opening {
					t.Fatalf("got error %#v, want %q (opening %v)", err, c.wantErr, c.opening)
				}
			} else if err != nil || string(got) != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
			if h := hits.Load(); h != c.wantHits {
				t.Errorf("got %d requests, want %d", h, c.wantHits)
			}
		})
	}
}

func TestValidateHTTP(t *testing.T) {
	cases := []struct {
		name, body string
		env        func(string) string
		want       []string
	}{
		{name: "ok", body: `address = "https://example.com/s"`},
		{name: "from environment", body: ``, env: env("TF_HTTP_ADDRESS=https://example.com/s")},
		{name: "scheme", body: `address = "ftp://example.com/s"`, want: []string{"address must be HTTP or HTTPS"}},
		{name: "lock scheme", body: "address = \"http://x/s\"\nlock_address = \"ftp://x/l\"", want: []string{"lockAddress must be HTTP or HTTPS"}},
		{name: "unlock from environment", body: `address = "http://x/s"`, env: env("TF_HTTP_UNLOCK_ADDRESS=ftp://x"), want: []string{"unlockAddress must be HTTP or HTTPS"}},
		{name: "reserved header", body: "address = \"http://x/s\"\nheaders = { Content-Type = \"x\" }", want: []string{`headers "Content-Type" is reserved`}},
		{name: "authorization with username", body: "address = \"http://x/s\"\nusername = \"u\"\nheaders = { Authorization = \"x\" }", want: []string{`headers "Authorization" cannot be set when providing username`}},
		{name: "certificate without key", body: "address = \"http://x/s\"\nclient_certificate_pem = \"x\"", want: []string{"client_certificate_pem is set but client_private_key_pem is not"}},
		{name: "bad ca", body: "address = \"http://x/s\"\nclient_ca_certificate_pem = \"x\"", want: []string{"failed to append certs"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, b := savedFrom(t, "http", c.body)
			got := diagTexts(Validate(rec, CheckOptions{Flavour: flavour.OpenTofu, Getenv: c.env, Body: b.Body}))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateHTTPTerraform checks the texts Terraform words its own way.
func TestValidateHTTPTerraform(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{name: "no address", body: ``, want: []string{"address argument is required"}},
		{name: "lock scheme", body: "address = \"http://x/s\"\nlock_address = \"ftp://x/l\"", want: []string{"lock_address must be HTTP or HTTPS"}},
		{name: "unlock scheme", body: "address = \"http://x/s\"\nunlock_address = \"ftp://x/l\"", want: []string{"unlock_address must be HTTP or HTTPS"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, _ := savedFromIn(t, flavour.Terraform, "http", c.body)
			got := diagTexts(Validate(rec, CheckOptions{Flavour: flavour.Terraform}))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// s3Fake starts gofakes3 with the given buckets and objects (key "BUCKET/KEY").
func s3Fake(t *testing.T, buckets []string, objects map[string]string) string {
	t.Helper()
	store := s3mem.New()
	for _, b := range buckets {
		if err := store.CreateBucket(b); err != nil {
			t.Fatal(err)
		}
	}
	for k, v := range objects {
		b, key, _ := strings.Cut(k, "/")
		if _, err := store.PutObject(b, key, map[string]string{}, strings.NewReader(v), int64(len(v)), nil); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(gofakes3.New(store).Server())
	t.Cleanup(srv.Close)
	return srv.URL
}

func s3Block(url, bucket, extra string) string {
	return fmt.Sprintf(`bucket = %q
key = "app/terraform.tfstate"
region = "us-east-1"
access_key = "fake"
secret_key = "fake"
skip_credentials_validation = true
skip_requesting_account_id = true
use_path_style = true
endpoints = { s3 = %q }
%s`, bucket, url, extra)
}

func TestCheckS3(t *testing.T) {
	url := s3Fake(t, []string{"states", "flat"}, map[string]string{
		"states/app/terraform.tfstate":           `{"version":4,"serial":1}`,
		"states/env:/blue/app/terraform.tfstate": `{"version":4,"serial":2}`,
		"states/env:/red/app/terraform.tfstate":  ``,
		"states/env:/odd/other.tfstate":          `x`,
		"flat/green/app/terraform.tfstate":       `{"version":4,"serial":3}`,
	})
	cases := []struct {
		name, bucket, extra string
		ws                  string
		wantList            []string
		wantListErr         string
		want                string
		wantErr             string
		opening             bool
	}{
		{name: "default", bucket: "states", wantList: []string{"default", "blue", "red"}, want: `{"version":4,"serial":1}`},
		{name: "workspace", bucket: "states", ws: "blue", wantList: []string{"default", "blue", "red"}, want: `{"version":4,"serial":2}`},
		{name: "empty state", bucket: "states", ws: "red", wantList: []string{"default", "blue", "red"}},
		{name: "new workspace", bucket: "states", ws: "new", wantList: []string{"default", "blue", "red"}},
		{name: "empty prefix", bucket: "flat", extra: `workspace_key_prefix = ""`, ws: "green", wantList: []string{"default", "green"}, want: `{"version":4,"serial":3}`},
		{name: "no bucket", bucket: "missing", wantListErr: "S3 bucket does not exist.", wantErr: "S3 bucket does not exist.", opening: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, _ := savedFrom(t, "s3", s3Block(url, c.bucket, c.extra))
			ctx := context.Background()
			r, diags := Open(ctx, rec, CheckOptions{Flavour: flavour.OpenTofu, Getenv: env()})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			list, err := r.Workspaces(ctx)
			if c.wantListErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.wantListErr) {
					t.Fatalf("Workspaces: got %v, want %q", err, c.wantListErr)
				}
			} else if diff := cmp.Diff(c.wantList, list); err != nil || diff != "" {
				t.Fatalf("Workspaces: %v (-want +got):\n%s", err, diff)
			}
			ws := c.ws
			if ws == "" {
				ws = "default"
			}
			got, err := r.OpenState(ctx, ws)
			if c.wantErr != "" {
				var se *StateReadError
				if !errors.As(err, &se) || !strings.HasPrefix(se.Error(), c.wantErr) || se.Opening != c.opening {
					t.Fatalf("got error %#v, want %q (opening %v)", err, c.wantErr, c.opening)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestValidateS3(t *testing.T) {
	cases := []struct {
		name, body string
		env        func(string) string
		want       []string
	}{
		{name: "ok", body: "bucket = \"b\"\nkey = \"k\"\nregion = \"eu-west-1\""},
		{name: "region from environment", body: "bucket = \"b\"\nkey = \"k\"", env: env("AWS_DEFAULT_REGION=eu-west-1")},
		{name: "empty", body: "", want: []string{
			`Invalid bucket value: The "bucket" attribute value must not be empty. @ main.tf:1`,
			`Invalid key value: The "key" attribute value must not be empty. @ main.tf:1`,
			`Missing region value: The "region" attribute or the "AWS_REGION" or "AWS_DEFAULT_REGION" environment variables must be set. @ main.tf:1`,
		}},
		{name: "key slash", body: "bucket = \"b\"\n\nkey = \"/k\"\nregion = \"eu-west-1\"", want: []string{`Invalid key value: The "key" attribute value must not start or end with with "/". @ main.tf:3`}},
		{name: "prefix slash", body: "bucket = \"b\"\nkey = \"k\"\nregion = \"eu-west-1\"\nworkspace_key_prefix = \"p/\"", want: []string{`Invalid workspace_key_prefix value: The "workspace_key_prefix" attribute value must not start with "/". @ main.tf:4`}},
		{name: "unknown region", body: "bucket = \"b\"\nkey = \"k\"\nregion = \"mars-1\"", want: []string{"Invalid region value: invalid AWS Region: mars-1 @ main.tf:3"}},
		{name: "unknown region skipped", body: "bucket = \"b\"\nkey = \"k\"\nregion = \"mars-1\"\nskip_region_validation = true"},
		{name: "retry mode", body: "bucket = \"b\"\nkey = \"k\"\nregion = \"eu-west-1\"\nretry_mode = \"often\"", want: []string{`Invalid retry mode: Valid values are "standard" and "adaptive". @ main.tf:4`}},
		{name: "customer key", body: "bucket = \"b\"\nkey = \"k\"\nregion = \"eu-west-1\"\nsse_customer_key = \"short\"", want: []string{"Invalid sse_customer_key value: sse_customer_key must be 44 characters in length @ main.tf:4"}},
		{name: "customer key from environment", body: "bucket = \"b\"\nkey = \"k\"\nregion = \"eu-west-1\"", env: env("AWS_SSE_CUSTOMER_KEY=short"), want: []string{`Invalid AWS_SSE_CUSTOMER_KEY value: The environment variable "AWS_SSE_CUSTOMER_KEY" must be 44 characters in length`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, b := savedFrom(t, "s3", c.body)
			getenv := c.env
			if getenv == nil {
				getenv = env()
			}
			got := diagTexts(Validate(rec, CheckOptions{Flavour: flavour.OpenTofu, Getenv: getenv, Body: b.Body}))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCheckGCS(t *testing.T) {
	fake := cloudfake.NewGCS("states")
	fake.Put("states", "app/default.tfstate", `{"version":4,"serial":1}`)
	fake.Put("states", "app/blue.tfstate", `{"version":4,"serial":2}`)
	fake.Put("states", "app/blue.tflock", `{}`)
	fake.Put("states", "app/sub/red.tfstate", `{}`)
	fake.Put("states", "other.tfstate", `{}`)
	srv := httptest.NewServer(fake)
	defer srv.Close()
	cases := []struct {
		name, bucket, ws string
		wantList         []string
		wantListErr      string
		want             string
		wantErr          string
	}{
		{name: "default", bucket: "states", wantList: []string{"default", "blue"}, want: `{"version":4,"serial":1}`},
		{name: "workspace", bucket: "states", ws: "blue", wantList: []string{"default", "blue"}, want: `{"version":4,"serial":2}`},
		{name: "absent", bucket: "states", ws: "green", wantList: []string{"default", "blue"}},
		{name: "no bucket", bucket: "missing", wantListErr: "querying Cloud Storage failed: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := fmt.Sprintf("bucket = %q\nprefix = \"app\"\naccess_token = \"fake\"\nstorage_custom_endpoint = %q", c.bucket, srv.URL+"/storage/v1/")
			rec, _ := savedFrom(t, "gcs", body)
			ctx := context.Background()
			r, diags := Open(ctx, rec, CheckOptions{Flavour: flavour.OpenTofu, Getenv: env()})
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			list, err := r.Workspaces(ctx)
			if c.wantListErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), c.wantListErr) {
					t.Fatalf("Workspaces: got %v, want %q", err, c.wantListErr)
				}
			} else if diff := cmp.Diff(c.wantList, list); err != nil || diff != "" {
				t.Fatalf("Workspaces: %v (-want +got):\n%s", err, diff)
			}
			ws := c.ws
			if ws == "" {
				ws = "default"
			}
			got, err := r.OpenState(ctx, ws)
			if c.wantErr != "" {
				var se *StateReadError
				if !errors.As(err, &se) || !strings.HasPrefix(se.Error(), c.wantErr) || !se.Opening {
					t.Fatalf("got error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestValidateGCS(t *testing.T) {
	rec, b := savedFrom(t, "gcs", `prefix = "p"`)
	got := diagTexts(Validate(rec, CheckOptions{Flavour: flavour.OpenTofu, Body: b.Body}))
	if diff := cmp.Diff([]string{`"bucket": required field is not set`}, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	rec, _ = savedFrom(t, "gcs", "bucket = \"b\"\ncredentials = \"{not json\"")
	_, diags := Open(context.Background(), rec, CheckOptions{Flavour: flavour.OpenTofu})
	if diff := cmp.Diff([]string{"the string provided in credentials is neither valid json nor a valid file path"}, diagTexts(diags)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestCheckAzure(t *testing.T) {
	fake := cloudfake.NewAzure("acct/states")
	fake.Put("acct/states", "app.tfstate", `{"version":4,"serial":1}`)
	fake.Put("acct/states", "app.tfstateenv:blue", `{"version":4,"serial":2}`)
	fake.Put("acct/states", "app.tfstateenv:dir/x", `{}`)
	fake.Put("acct/states", "other.tfstateenv:red", `{}`)
	proxy, err := cloudfake.StartProxy(fake)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()
	cases := []struct {
		name, container, ws string
		wantList            []string
		wantListErr         string
		want                string
	}{
		{name: "default", container: "states", wantList: []string{"default", "blue"}, want: `{"version":4,"serial":1}`},
		{name: "workspace", container: "states", ws: "blue", wantList: []string{"default", "blue"}, want: `{"version":4,"serial":2}`},
		{name: "absent", container: "states", ws: "green", wantList: []string{"default", "blue"}},
		{name: "no container", container: "missing", wantListErr: "error listing blobs: "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := fmt.Sprintf("storage_account_name = \"acct\"\ncontainer_name = %q\nkey = \"app.tfstate\"\naccess_key = \"ZmFrZQ==\"\nmetadata_host = \"metadata.%s\"", c.container, cloudfake.Domain)
			rec, _ := savedFrom(t, "azurerm", body)
			ctx := context.Background()
			r, diags := Open(ctx, rec, CheckOptions{Flavour: flavour.OpenTofu, Getenv: env(), HTTPClient: proxy.Client()})
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
			ws := c.ws
			if ws == "" {
				ws = "default"
			}
			got, err := r.OpenState(ctx, ws)
			if err != nil || string(got) != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestValidateAzure(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{name: "required", body: `key = "k"`, want: []string{`"container_name": required field is not set`, `"storage_account_name": required field is not set`}},
		{name: "account", body: "storage_account_name = \"Bad_Name\"\ncontainer_name = \"c1c\"\nkey = \"k\"", want: []string{"invalid storage account name: Azure requires a storage account name consists of 3-24 lowercase characters and numbers only. See documentation here: https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/resource-name-rules#microsoftstorage"}},
		{name: "hyphens", body: "storage_account_name = \"acct\"\ncontainer_name = \"a--b\"\nkey = \"k\"", want: []string{"invalid storage container name: Hyphens in a storage container name must be nonconsecutive. See documentation here: https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/resource-name-rules#microsoftstorage"}},
		{name: "ok", body: "storage_account_name = \"acct\"\ncontainer_name = \"states\"\nkey = \"k\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, b := savedFrom(t, "azurerm", c.body)
			got := diagTexts(Validate(rec, CheckOptions{Flavour: flavour.OpenTofu, Body: b.Body}))
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
	rec, _ := savedFrom(t, "azurerm", "storage_account_name = \"acct\"\ncontainer_name = \"states\"\nkey = \"k\"")
	_, diags := Open(context.Background(), rec, CheckOptions{Flavour: flavour.OpenTofu})
	if len(diags) != 1 || diags[0].Summary != "Backend not checked: unsupported credentials" || !strings.HasPrefix(diags[0].Detail, "tfdeps reaches azurerm backends with access_key or sas_token") {
		t.Errorf("without credentials: got %v", diagTexts(diags))
	}
}
