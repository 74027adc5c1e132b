package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/registrytest"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/providersource"
)

// TestSharedCloseLeavesMemosCurrent: after Close, the hash memo of every
// root's linked package describes its files as they are then — removing
// the run's own store unlinks the shared files once more, so memos
// written before that would be stale and the next run would hash every
// package again.
func TestSharedCloseLeavesMemosCurrent(t *testing.T) {
	_, client := fakeProviders(t, registrytest.Options{})
	reqs := requirements(t)
	base := t.TempDir()
	memos := filepath.Join(base, "memo")
	shared, err := NewShared(SharedOptions{Providers: providersource.NewRegistry(client, nil, nil), Downloader: client, TempDir: base})
	if err != nil {
		t.Fatal(err)
	}
	const roots = 3
	for i := range roots {
		in := &providerinstall.Installer{
			Source:     shared.Providers,
			Target:     providerinstall.NewDir(filepath.Join(base, fmt.Sprint("root", i), ".terraform", "providers")),
			Platform:   linux,
			Downloader: shared.Downloader,
			Packages:   shared.Packages,
			Flavour:    flavour.OpenTofu,
			MemoDir:    memos,
		}
		if _, err := in.Install(context.Background(), reqs, nil, providerinstall.NewProvidersOnly, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := shared.Close(); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(memos)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(memos, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Root  string `json:"root"`
			Files []struct {
				Name  string `json:"name"`
				Ctime int64  `json:"ctime"`
			} `json:"files"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		for _, f := range m.Files {
			var st syscall.Stat_t
			if err := syscall.Stat(filepath.Join(m.Root, f.Name), &st); err != nil {
				t.Fatal(err)
			}
			if now := st.Ctim.Nano(); now != f.Ctime {
				t.Errorf("%s/%s: memo records change time %d, the file has %d", m.Root, f.Name, f.Ctime, now)
			}
			checked++
		}
	}
	if want := roots * 2; checked < want {
		t.Fatalf("%d package files with a memo, want at least %d (every root's packages)", checked, want)
	}
}
