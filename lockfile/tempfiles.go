package lockfile

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Temporary files. WriteFile writes the new lock file to a temporary file
// beside it and renames it over the lock file. A run killed between the two
// leaves the temporary file behind; the next WriteFile (or
// RemoveStaleTempFiles) removes it. The name says who wrote it:
//
//	.terraform.lock.hcl.tfdeps-PID-RANDOM.tmp
//
// A temporary file is stale when the process PID no longer runs (where
// that can be checked; a zombie, exited but not yet waited for, does not
// run) or when it is older than staleAge; the temporary
// file of a running writer is never older than a few milliseconds.
// Files named as older tfdeps versions named them (".LOCKNAME.tmpDIGITS")
// are stale when older than staleAge.
const (
	tempMarker = ".tfdeps-"
	tempSuffix = ".tmp"
	staleAge   = 10 * time.Minute
)

// createTemp creates the temporary file for a new version of path.
func createTemp(path string) (*os.File, error) {
	var r [6]byte
	if _, err := rand.Read(r[:]); err != nil {
		return nil, err
	}
	name := filepath.Base(path) + tempMarker + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(r[:]) + tempSuffix
	return os.OpenFile(filepath.Join(filepath.Dir(path), name), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

// RemoveStaleTempFiles removes the temporary files that killed runs left
// beside the lock file at path (see createTemp), and returns the names it
// removed. Errors are ignored: a file that cannot be removed stays.
func RemoveStaleTempFiles(path string) []string {
	dir, base := filepath.Dir(path), filepath.Base(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	now := time.Now()
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !isStaleTemp(name, base, e, now) {
			continue
		}
		if os.Remove(filepath.Join(dir, name)) == nil {
			removed = append(removed, name)
		}
	}
	return removed
}

type fileInfoer interface{ Info() (os.FileInfo, error) }

func isStaleTemp(name, base string, e fileInfoer, now time.Time) bool {
	old := func() bool {
		info, err := e.Info()
		return err == nil && now.Sub(info.ModTime()) > staleAge
	}
	if rest, ok := strings.CutPrefix(name, base+tempMarker); ok {
		rest, ok = strings.CutSuffix(rest, tempSuffix)
		pidText, random, found := strings.Cut(rest, "-")
		if !ok || !found || random == "" || strings.ContainsAny(random, "/\\") {
			return false
		}
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 {
			return false
		}
		if pid != os.Getpid() && !processRunning(pid) {
			return true
		}
		return old()
	}
	if digits, ok := strings.CutPrefix(name, "."+base+".tmp"); ok && digits != "" && strings.Trim(digits, "0123456789") == "" {
		return old()
	}
	return false
}
