package storage

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// holder is a holder on another machine (never known dead), named name.
func holder(name string) Holder { return Holder{Host: "elsewhere-" + name, PID: 1, Start: "1"} }

// exited starts a short-lived process and returns it once it has ended:
// reaped (wait true) or left a zombie.
func exited(t *testing.T, wait bool) (*exec.Cmd, Holder) {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot start a process: %v", err)
	}
	h := Self()
	h.PID = cmd.Process.Pid
	h.Start, _ = processStart(h.PID)
	if wait {
		cmd.Wait()
		return cmd, h
	}
	t.Cleanup(func() { cmd.Wait() })
	// Wait until it has ended (a zombie), without reaping it.
	for i := 0; i < 1000; i++ {
		if _, state, err := processState(h.PID); err == nil && state == "Z" {
			return cmd, h
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("process %d did not end", h.PID)
	return nil, h
}

func TestHolderDead(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process start times and states are read from /proc")
	}
	self := Self()
	reused := self
	reused.Start = "0"
	_, reaped := exited(t, true)
	_, zombie := exited(t, false)
	other := self
	other.Host += "-other"
	tests := []struct {
		name string
		h    Holder
		want bool
	}{
		{"this process", self, false},
		{"this process id, another start time (reused id)", reused, true},
		{"ended and reaped", reaped, true},
		{"zombie", zombie, true},
		{"another machine", func() Holder { h := reaped; h.Host = other.Host; return h }(), false},
		{"another boot of this machine", func() Holder { h := reaped; h.Boot += "-before"; return h }(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.h.Dead(self); got != tt.want {
				t.Errorf("Dead(%+v) = %v, want %v", tt.h, got, tt.want)
			}
		})
	}
}

// A lease whose holder died on this machine is taken over at once, long
// before it expires; one of a live holder or of another machine is not.
func TestLeaseOfDeadHolderBroken(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process start times and states are read from /proc")
	}
	ctx := context.Background()
	clock := time.Now
	st, err := OpenDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, dead := exited(t, false)
	if _, err := st.AcquireLease(ctx, "leases/dead", dead, time.Hour, clock); err != nil {
		t.Fatal(err)
	}
	l, err := st.AcquireLease(ctx, "leases/dead", Self(), time.Hour, clock)
	if err != nil {
		t.Fatalf("lease of a dead holder: %v, want it broken", err)
	}
	l.Release(ctx)

	for name, h := range map[string]Holder{"live": Self(), "remote": holder("remote")} {
		if _, err := st.AcquireLease(ctx, "leases/"+name, h, time.Hour, clock); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AcquireLease(ctx, "leases/"+name, Self(), time.Hour, clock); !errors.Is(err, ErrLeaseHeld) {
			t.Errorf("lease of a %s holder: %v, want ErrLeaseHeld", name, err)
		}
	}
}

// The temporary files and directories of a dead process of this machine
// are removed at once; those of a live one, or of another machine, stay
// until they are old.
func TestSweepDeadProcessTemp(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("process start times and states are read from /proc")
	}
	_, dead := exited(t, true)
	remote := Self()
	remote.Host += "-other"
	dir := t.TempDir()
	st, err := OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{ // name: removed
		"a.zip." + tempPrefix(dead) + ".123.tmp":   true,
		"a.zip." + tempPrefix(Self()) + ".456.tmp": false,
		"a.zip." + tempPrefix(remote) + ".789.tmp": false,
	}
	for name := range names {
		os.WriteFile(filepath.Join(dir, name), []byte("half"), 0o644)
	}
	if n, err := st.SweepTemp(time.Hour, time.Now()); n != 1 || err != nil {
		t.Errorf("SweepTemp = %d, %v; want 1", n, err)
	}
	for name, removed := range names {
		if _, err := os.Stat(filepath.Join(dir, name)); os.IsNotExist(err) != removed {
			t.Errorf("%s: removed %v, want %v", name, os.IsNotExist(err), removed)
		}
	}

	parent := t.TempDir()
	deadDir := filepath.Join(parent, "tfdeps-serve-"+tempPrefix(dead)+".1")
	liveDir := filepath.Join(parent, "tfdeps-serve-"+tempPrefix(Self())+".2")
	for _, d := range []string{deadDir, liveDir} {
		os.MkdirAll(d, 0o755)
		os.WriteFile(filepath.Join(d, "tfdeps-provider-1.zip"), []byte("half"), 0o644)
	}
	mine, n, err := ProcessTempDir(parent)
	if err != nil || n != 1 {
		t.Fatalf("ProcessTempDir = %d, %v; want 1 removed", n, err)
	}
	if _, err := os.Stat(deadDir); !os.IsNotExist(err) {
		t.Errorf("the dead process's directory is still there")
	}
	if _, err := os.Stat(liveDir); err != nil {
		t.Errorf("the live process's directory was removed")
	}
	if mine == liveDir || filepath.Dir(mine) != parent {
		t.Errorf("new directory %s", mine)
	}
}
