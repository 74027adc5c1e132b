package registry

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// TestDownloadIdleTimeout: a download that receives nothing for the idle
// timeout fails, before the headers or in the middle of the body; one that
// keeps receiving bytes runs longer than the timeout. The test's context
// deadline fails a download that hangs.
func TestDownloadIdleTimeout(t *testing.T) {
	opts := fakeOptions()
	opts.Providers[0].Versions[0].Size = 128 << 10
	srv0 := registrytest.New(t, opts)
	info, _ := srv0.Package("acme", "widget", "1.0.0", "linux_amd64")
	path := "/files/acme/widget/1.0.0/" + info.Filename
	tests := []struct {
		name  string
		fault registrytest.Fault
		env   string
		want  string
	}{
		{name: "no headers", fault: registrytest.Fault{Kind: registrytest.Hang}, env: "300ms",
			want: "ADDR: no data received for 300ms (the limit TFDEPS_DOWNLOAD_IDLE_TIMEOUT sets)"},
		{name: "body stalls", fault: registrytest.Fault{Kind: registrytest.Slow, Delay: time.Hour}, env: "1",
			want: "ADDR: no data received for 1s (the limit TFDEPS_DOWNLOAD_IDLE_TIMEOUT sets)"},
		{name: "slow but moving", fault: registrytest.Fault{Kind: registrytest.Slow, Delay: 20 * time.Millisecond}, env: "1500ms",
			want: "<nil>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := registrytest.New(t, opts)
			srv.Inject(registrytest.Archive, tt.fault)
			c, _ := testClient(t, srv, testEnv{EnvDownloadIdleTimeout: tt.env})
			dctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			dir := t.TempDir()
			a, err := c.Download(dctx, DownloadRequest{URL: mustURL(t, srv.URL()+path), Dir: dir})
			if dctx.Err() != nil {
				t.Fatal("the download hung until the test's deadline")
			}
			if diff := cmp.Diff(tt.want, withAddr(srv, errText(err))); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
			if a != nil {
				a.Remove()
			}
			assertEmptyDir(t, dir)
		})
	}
	if time.Duration(info.Size/1024)*20*time.Millisecond < 2*time.Second {
		t.Errorf("the archive (%d bytes) is too small for the slow case to outlast the timeout", info.Size)
	}
}

func TestDownloadIdleTimeoutSetting(t *testing.T) {
	tests := map[string]time.Duration{
		"": DefaultDownloadIdleTimeout, "90s": 90 * time.Second, "10m": 10 * time.Minute, "30": 30 * time.Second,
		"0": DefaultDownloadIdleTimeout, "-5s": DefaultDownloadIdleTimeout, "soon": DefaultDownloadIdleTimeout,
	}
	for v, want := range tests {
		s := Settings{Getenv: func(k string) string {
			if k == EnvDownloadIdleTimeout {
				return v
			}
			return ""
		}}
		if got := s.DownloadIdleTimeout(); got != want {
			t.Errorf("%s=%q: %s, want %s", EnvDownloadIdleTimeout, v, got, want)
		}
	}
}
