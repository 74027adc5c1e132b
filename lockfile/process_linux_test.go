package lockfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

func TestParseProcStat(t *testing.T) {
	tests := []struct {
		src   string
		state byte
		ok    bool
	}{
		{"1234 (bash) S 1 1234 1234 0 -1", 'S', true},
		{"77 (a) b) Z 1 77", 'Z', true},
		{"77 (x (y)) R 1", 'R', true},
		{"77 (x)", 0, false},
		{"77 (x) ", 0, false},
		{"77 (x)Z", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			state, ok := parseProcStat([]byte(tt.src))
			if state != tt.state || ok != tt.ok {
				t.Errorf("parseProcStat(%q) = %q, %v; want %q, %v", tt.src, state, ok, tt.state, tt.ok)
			}
		})
	}
}

// TestStaleTempOfZombie: the temporary file of a writer that has exited
// but was not waited for (a zombie, which signal 0 still finds) is stale;
// that of a running process is not.
func TestStaleTempOfZombie(t *testing.T) {
	child := exec.Command(os.Args[0], "-test.run=^$")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait()
	pid := child.Process.Pid
	// Wait for the exit without reaping the child: it stays a zombie.
	var info unix.Siginfo
	if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); err != nil {
		t.Fatal(err)
	}
	if state, ok := processState(pid); !ok || state != 'Z' {
		t.Fatalf("child state = %q, %v; want a zombie", state, ok)
	}
	if processRunning(pid) {
		t.Errorf("processRunning(zombie %d) = true", pid)
	}
	if !processRunning(os.Getppid()) {
		t.Errorf("processRunning(parent %d) = false", os.Getppid())
	}

	dir := t.TempDir()
	lock := filepath.Join(dir, ".terraform.lock.hcl")
	zombie := fmt.Sprintf(".terraform.lock.hcl.tfdeps-%d-0a1b2c.tmp", pid)
	live := fmt.Sprintf(".terraform.lock.hcl.tfdeps-%d-0a1b2c.tmp", os.Getppid())
	for _, name := range []string{zombie, live} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{zombie}, RemoveStaleTempFiles(lock)); diff != "" {
		t.Errorf("removed (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{live}, mustReadDir(t, dir)); diff != "" {
		t.Errorf("left (-want +got):\n%s", diff)
	}
}
