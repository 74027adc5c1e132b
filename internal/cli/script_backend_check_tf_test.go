package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestTerraformBackendCheckReference runs the scripts of
// testdata/reference_terraform_backend: "tfdeps -compat=terraform init
// -backend-check" and the reference Terraform binary
// ($TFDEPS_REFERENCE_TERRAFORM, as "exec terraform") contact the same
// in-memory storage services (cloudfake) and are compared. Skipped when
// TFDEPS_REFERENCE_TERRAFORM is unset.
func TestTerraformBackendCheckReference(t *testing.T) {
	terraform := os.Getenv("TFDEPS_REFERENCE_TERRAFORM")
	if terraform == "" {
		t.Skip("TFDEPS_REFERENCE_TERRAFORM is not set")
	}
	runReferenceScripts(t, "reference_terraform_backend", "terraform", terraform, map[string]string{"CHECKPOINT_DISABLE": "1"},
		map[string]func(*testscript.TestScript, bool, []string){"cloudfake": cmdCloudFake, "httpstate": cmdHTTPState, "denyserver": cmdDenyServer, "hangserver": cmdHangServer})
}

// cmdDenyServer: "denyserver s3|gcs" starts a server that answers every
// request with 403 and the service's "access denied" error ($DENY is its
// URL), for the backends' answers to bad credentials.
func cmdDenyServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: denyserver s3|gcs")
	}
	var contentType, body string
	switch args[0] {
	case "s3":
		contentType = "application/xml"
		body = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>0000000000000001</RequestId><HostId>host</HostId></Error>`
	case "gcs":
		contentType = "application/json"
		body = `{"error":{"code":403,"message":"denied.","errors":[{"message":"denied.","domain":"global","reason":"forbidden"}]}}`
	default:
		ts.Fatalf("denyserver: unknown service %q", args[0])
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.WriteHeader(http.StatusForbidden)
		if r.Method != http.MethodHead {
			io.WriteString(w, body)
		}
	}))
	ts.Defer(srv.Close)
	ts.Setenv("DENY", srv.URL)
}

// cmdHangServer drives a server that never answers, for a contact that
// only an interrupt ends:
//
//	hangserver start   start it; $HANG is its URL
//	hangserver wait    wait until a request has arrived
func cmdHangServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hangserver start|wait")
	}
	key := "hang:" + ts.Getenv("WORK")
	switch args[0] {
	case "start":
		arrived := make(chan struct{}, 1)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select {
			case arrived <- struct{}{}:
			default:
			}
			<-r.Context().Done()
		}))
		ts.Defer(srv.Close)
		hangServers.Store(key, arrived)
		ts.Setenv("HANG", srv.URL)
	case "wait":
		v, ok := hangServers.Load(key)
		if !ok {
			ts.Fatalf("hangserver: not started")
		}
		select {
		case <-v.(chan struct{}):
		case <-time.After(time.Minute):
			ts.Fatalf("hangserver: no request within a minute")
		}
	default:
		ts.Fatalf("usage: hangserver start|wait")
	}
}

// hangServers are the running never-answering servers' arrival signals,
// by script work directory.
var hangServers sync.Map
