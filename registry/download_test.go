package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/tfdeps/tfdeps/internal/registrytest"
)

func TestDownload(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	info, _ := srv.Package("acme", "widget", "1.0.0", "linux_amd64")
	c, _ := testClient(t, srv, testEnv{"TF_TOKEN_127_0_0_1": "never-sent"})
	dir := t.TempDir()
	u := mustURL(t, srv.URL()+"/files/acme/widget/1.0.0/"+info.Filename)
	var reports [][2]int64
	progress := func(done, total int64) { reports = append(reports, [2]int64{done, total}) }
	a, err := c.Download(ctx(t), DownloadRequest{URL: u, Dir: dir, Progress: progress})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Remove()
	if len(reports) == 0 || reports[len(reports)-1] != [2]int64{info.Size, info.Size} {
		t.Errorf("progress reports %v, want the last to be {%d %d}", reports, info.Size, info.Size)
	}
	for i := 1; i < len(reports); i++ {
		if reports[i][0] < reports[i-1][0] {
			t.Errorf("progress went backwards: %v", reports)
		}
	}
	data, err := os.ReadFile(a.Path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if a.Size != info.Size || int64(len(data)) != info.Size || hex.EncodeToString(sum[:]) != info.SHA256 || a.SHA256 != sum {
		t.Errorf("archive %+v does not match %+v", a, info)
	}
	if string(a.ZH()) != info.ZH() {
		t.Errorf("ZH = %s, want %s", a.ZH(), info.ZH())
	}
	h := srv.Requests()[0].Header
	if h.Get("Authorization") != "" || h.Get("X-Terraform-Version") != "" || h.Get("User-Agent") != "tfdeps/test" {
		t.Errorf("download headers = %v", h)
	}
}

func TestDownloadFaults(t *testing.T) {
	srv0 := registrytest.New(t, fakeOptions())
	info, _ := srv0.Package("acme", "widget", "1.0.0", "linux_amd64")
	path := "/files/acme/widget/1.0.0/" + info.Filename
	zero := 0
	tests := []struct {
		name     string
		fault    registrytest.Fault
		env      testEnv
		retries  *int
		cancel   bool
		want     string
		requests int
	}{
		{name: "500 once", fault: registrytest.Fault{Kind: registrytest.Status, Times: 1}, want: "<nil>", requests: 2},
		{name: "500 always", fault: registrytest.Fault{Kind: registrytest.Status},
			want: "ADDR: GET https://ADDR" + path + " giving up after 3 attempt(s)", requests: 3},
		{name: "retries from env", fault: registrytest.Fault{Kind: registrytest.Status}, env: testEnv{"TF_PROVIDER_DOWNLOAD_RETRY": "1"},
			want: "ADDR: GET https://ADDR" + path + " giving up after 2 attempt(s)", requests: 2},
		{name: "method retries win", fault: registrytest.Fault{Kind: registrytest.Status}, env: testEnv{"TF_PROVIDER_DOWNLOAD_RETRY": "4"}, retries: &zero,
			want: "ADDR: GET https://ADDR" + path + " giving up after 1 attempt(s)", requests: 1},
		{name: "dropped", fault: registrytest.Fault{Kind: registrytest.Drop},
			want: `ADDR: GET https://ADDR` + path + ` giving up after 3 attempt(s): Get "https://ADDR` + path + `": EOF`, requests: 3},
		{name: "not found", fault: registrytest.Fault{Kind: registrytest.Status, Status: 404},
			want: "unsuccessful request to https://ADDR" + path + ": 404 Not Found", requests: 1},
		{name: "truncated", fault: registrytest.Fault{Kind: registrytest.Truncate},
			want: "incorrect response size: expected SIZE bytes, but got HALF bytes", requests: 1},
		{name: "slow", fault: registrytest.Fault{Kind: registrytest.Slow, Delay: time.Millisecond}, want: "<nil>", requests: 1},
		{name: "hang then cancel", fault: registrytest.Fault{Kind: registrytest.Hang}, cancel: true,
			want: "provider download was interrupted", requests: 1},
	}
	for _, inMemory := range []bool{false, true} {
		for _, tt := range tests {
			t.Run(fmt.Sprintf("in memory %v/%s", inMemory, tt.name), func(t *testing.T) {
				var buffers testBuffers
				srv := registrytest.New(t, fakeOptions())
				srv.Inject(registrytest.Archive, tt.fault)
				env := tt.env
				if env == nil {
					env = testEnv{}
				}
				c, _ := testClient(t, srv, env)
				dctx := ctx(t)
				if tt.cancel {
					var cancel func()
					dctx, cancel = contextWithCancelAfterRequest(t, srv, registrytest.Archive)
					defer cancel()
				}
				dir := t.TempDir()
				dr := DownloadRequest{URL: mustURL(t, srv.URL()+path), Dir: dir, Retries: tt.retries}
				if inMemory {
					dr.Buffer = buffers.offer
				}
				a, err := c.Download(dctx, dr)
				want := replaceAll(replaceAll(tt.want, "HALF", itoa(info.Size/2)), "SIZE", itoa(info.Size))
				if diff := cmp.Diff(want, withAddr(srv, errText(err))); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				if err == nil {
					if a.SHA256 != mustHex32(t, info.SHA256) {
						t.Errorf("wrong checksum after %s", tt.name)
					}
					if inMemory != (a.Data != nil) || a.Size != info.Size || (inMemory && sha256.Sum256(a.Data) != a.SHA256) {
						t.Errorf("archive in memory %v, size %d, want in memory %v, size %d, its bytes hashing to its SHA256", a.Data != nil, a.Size, inMemory, info.Size)
					}
					a.Remove()
				} else if a != nil {
					t.Error("archive returned with an error")
				}
				if got := srv.Count(registrytest.Archive); got != tt.requests {
					t.Errorf("requests = %d, want %d", got, tt.requests)
				}
				if buffers.taken != buffers.released {
					t.Errorf("%d buffers taken, %d released", buffers.taken, buffers.released)
				}
				assertEmptyDir(t, dir)
			})
		}
	}
}

// testBuffers is a DownloadRequest.Buffer counting the buffers it gives
// and gets back.
type testBuffers struct{ taken, released int }

func (b *testBuffers) offer(size int64) ([]byte, func()) {
	b.taken++
	return make([]byte, size), func() { b.released++ }
}

// TestDownloadBufferRefused: a Buffer that offers nothing, or a slice of
// another size, leaves the archive to a temporary file.
func TestDownloadBufferRefused(t *testing.T) {
	srv := registrytest.New(t, fakeOptions())
	info, _ := srv.Package("acme", "widget", "1.0.0", "linux_amd64")
	c, _ := testClient(t, srv, testEnv{})
	u := mustURL(t, srv.URL()+"/files/acme/widget/1.0.0/"+info.Filename)
	var released int
	for name, offer := range map[string]func(int64) ([]byte, func()){
		"nothing":   func(int64) ([]byte, func()) { return nil, nil },
		"too short": func(n int64) ([]byte, func()) { return make([]byte, n-1), func() { released++ } },
		"too long":  func(n int64) ([]byte, func()) { return make([]byte, n+1), func() { released++ } },
	} {
		a, err := c.Download(ctx(t), DownloadRequest{URL: u, Dir: t.TempDir(), Buffer: offer})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		data, err := os.ReadFile(a.Path)
		if a.Data != nil || err != nil || sha256.Sum256(data) != a.SHA256 {
			t.Errorf("%s: archive in memory %v, file %v", name, a.Data != nil, err)
		}
		a.Remove()
	}
	if released != 2 {
		t.Errorf("%d refused buffers released, want 2", released)
	}
}
