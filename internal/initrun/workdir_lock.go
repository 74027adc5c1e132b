package initrun

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/workdir"
)

// acquireWorkdirLock takes the lock of the current working directory
// (workdir.Lock), waiting for another init to finish. It returns the
// function that releases the lock; on failure (ctx cancelled, or the lock
// file cannot be made) it shows an error on view and returns nil and the
// exit code.
func acquireWorkdirLock(ctx context.Context, m *Env, view View) (release func(), code int) {
	release, err := lockWorkdir(ctx, m)
	if err != nil {
		view.Diagnostics(hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Failed to lock the working directory",
			Detail:   fmt.Sprintf("Another tfdeps init may be running in this directory. %s.", err),
		}})
		return nil, 1
	}
	return release, 0
}

func lockWorkdir(ctx context.Context, m *Env) (func(), error) {
	wd, err := m.getwd()
	if err != nil {
		return nil, err
	}
	cache, err := userCacheDir(m)
	if err != nil {
		return nil, err
	}
	return workdir.Lock(ctx, wd, cache)
}

// userCacheDir is os.UserCacheDir read from m's environment.
func userCacheDir(m *Env) (string, error) {
	switch runtime.GOOS {
	case "windows":
		if dir := m.Getenv("LocalAppData"); dir != "" {
			return dir, nil
		}
		return "", fmt.Errorf("%%LocalAppData%% is not defined")
	case "darwin", "ios":
		if home := m.Getenv("HOME"); home != "" {
			return filepath.Join(home, "Library", "Caches"), nil
		}
	default:
		if dir := m.Getenv("XDG_CACHE_HOME"); filepath.IsAbs(dir) {
			return dir, nil
		}
		if home := m.Getenv("HOME"); home != "" {
			return filepath.Join(home, ".cache"), nil
		}
	}
	return "", fmt.Errorf("neither $XDG_CACHE_HOME nor $HOME is defined")
}
