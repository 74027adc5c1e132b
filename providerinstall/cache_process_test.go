package providerinstall

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tfdeps/tfdeps/hashes"
)

// The multi-process tests re-run this test binary as helper processes,
// selected by these environment variables.
const (
	helperModeEnv  = "TFDEPS_INSTALLER_HELPER"
	helperCacheEnv = "TFDEPS_INSTALLER_HELPER_CACHE"
	helperZipEnv   = "TFDEPS_INSTALLER_HELPER_ZIP"
	helperLogEnv   = "TFDEPS_INSTALLER_HELPER_LOG"
)

// TestHelperProcess is not a test: it is the body of the helper processes.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperModeEnv)
	if mode == "" {
		t.Skip("helper process of the multi-process cache tests")
	}
	f := cacheFixture{
		cache: NewDir(os.Getenv(helperCacheEnv)),
		zip:   os.Getenv(helperZipEnv),
		p:     mustProvider(t, "example.com/acme/foo"),
		v:     mustVersion(t, "1.0.0"),
	}
	var err error
	if f.wantH1, err = hashes.HashZipFile(f.zip); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	switch mode {
	case "fill":
		err = helperFill(f, os.Getenv(helperLogEnv))
	case "crash":
		err = helperCrash(f)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helperFill fills the package from 4 goroutines, appending a line to
// logPath for every production.
func helperFill(f cacheFixture, logPath string) error {
	var produced atomic.Int32
	opts := f.fillOptions(&produced)
	produce := opts.Produce
	opts.Produce = func(ctx context.Context, dir string) (hashes.Hash, error) {
		if err := appendLine(logPath, fmt.Sprint(os.Getpid())); err != nil {
			return "", err
		}
		return produce(ctx, dir)
	}
	errs := make([]error, 4)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = f.cache.Fill(context.Background(), f.p, f.v, linuxAMD64, opts)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// helperCrash dies in the middle of an installation, holding the lock and
// leaving a half-written staging directory behind.
func helperCrash(f cacheFixture) error {
	if _, err := f.cache.Lock(context.Background(), f.p, f.v, linuxAMD64, LockOptions{}); err != nil {
		return err
	}
	staging, err := newStagingDir(f.cache.PackageDir(f.p, f.v, linuxAMD64))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(staging, "terraform-provider-foo_v1.0.0"), []byte("trunc"), 0o755); err != nil {
		return err
	}
	os.Exit(3)
	return nil
}

func appendLine(path, line string) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fh.WriteString(line + "\n")
	return errors.Join(err, fh.Close())
}

func helperCommand(t *testing.T, mode string, f cacheFixture, logPath string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(),
		helperModeEnv+"="+mode,
		helperCacheEnv+"="+f.cache.Base(),
		helperZipEnv+"="+f.zip,
		helperLogEnv+"="+logPath,
	)
	return cmd
}

func TestFillConcurrentProcesses(t *testing.T) {
	f := newCacheFixture(t)
	logPath := filepath.Join(t.TempDir(), "produced.log")
	const processes = 6
	cmds := make([]*exec.Cmd, processes)
	outs := make([]strings.Builder, processes)
	for i := range cmds {
		cmds[i] = helperCommand(t, "fill", f, logPath)
		cmds[i].Stdout, cmds[i].Stderr = &outs[i], &outs[i]
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper %d: %v\n%s", i, err, outs[i].String())
		}
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), "\n"); n != 1 {
		t.Errorf("package produced %d times by %d processes × 4 goroutines, want once", n, processes)
	}
	f.check(t)
}

func TestFillAfterCrashedProcess(t *testing.T) {
	f := newCacheFixture(t)
	cmd := helperCommand(t, "crash", f, "")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("crash helper: %v\n%s", err, out)
	}
	if _, ok := f.cache.Lookup(f.p, f.v, linuxAMD64); ok {
		t.Fatal("the crashed install left a package directory that a later run would trust")
	}
	var produced atomic.Int32
	res, err := f.cache.Fill(context.Background(), f.p, f.v, linuxAMD64, f.fillOptions(&produced))
	if err != nil || !res.Produced || produced.Load() != 1 {
		t.Fatalf("Fill after crash = %+v, %v (%d productions)", res, err, produced.Load())
	}
	f.check(t)
}
