package storage

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Holder names a process: the machine it runs on (hostname and, where the
// system tells it, the boot's identifier), its process id and its start
// time. Leases and temporary files carry their holder's name so that a
// process on the same machine can tell that the holder is gone (see Dead)
// without waiting for an expiry.
type Holder struct {
	Host string `json:"host"`
	// Boot identifies the machine's current boot (Linux's boot_id); empty
	// where unknown.
	Boot string `json:"boot,omitempty"`
	PID  int    `json:"pid"`
	// Start is the process's start time as the system states it (Linux:
	// clock ticks since boot), which tells a process from a later one
	// that got the same id; empty where unknown.
	Start string `json:"start,omitempty"`
}

// self is the calling process, read once.
var self = sync.OnceValue(Self)

// Self is the calling process.
func Self() Holder {
	host, _ := os.Hostname()
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	start, _ := processStart(os.Getpid())
	return Holder{Host: host, Boot: strings.TrimSpace(string(boot)), PID: os.Getpid(), Start: start}
}

// String is the holder for people and logs: HOST/PID/START.
func (h Holder) String() string { return fmt.Sprintf("%s/%d/%s", h.Host, h.PID, h.Start) }

// SameMachine reports whether h runs on the machine of o.
func (h Holder) SameMachine(o Holder) bool {
	return h.Host != "" && h.Host == o.Host && h.Boot == o.Boot
}

// machineTag is a short name of h's machine for file names.
func (h Holder) machineTag() string {
	s := sha256.Sum256([]byte(h.Host + "\x00" + h.Boot))
	return hex.EncodeToString(s[:4])
}

// Dead reports whether h is known to have ended, as seen from self: it ran
// on self's machine, and no process has its id, or the one that has it
// started at another time (the id was reused), or it is a zombie (ended,
// not yet reaped). A holder on another machine is never known dead.
func (h Holder) Dead(self Holder) bool {
	if !h.SameMachine(self) || h.PID <= 0 {
		return false
	}
	if h.PID == self.PID {
		return h.Start != self.Start
	}
	start, state, err := processState(h.PID)
	if err == nil {
		return state == "Z" || state == "X" || (h.Start != "" && start != h.Start)
	}
	if !errors.Is(err, errNoProcFS) {
		return true // no such process
	}
	return pidUnused(h.PID)
}

var errNoProcFS = errors.New("no /proc")

// processStart returns the start time of pid as /proc states it.
func processStart(pid int) (string, error) {
	start, _, err := processState(pid)
	return start, err
}

// processState reads /proc/PID/stat: the start time (field 22) and the
// state (field 3). It fails with errNoProcFS where /proc is missing.
func processState(pid int) (start, state string, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if _, serr := os.Stat("/proc/self/stat"); serr != nil {
			return "", "", errNoProcFS
		}
		return "", "", err
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return "", "", fmt.Errorf("unreadable /proc/%d/stat", pid)
	}
	fields := strings.Fields(string(b[i+1:]))
	if len(fields) < 20 {
		return "", "", fmt.Errorf("unreadable /proc/%d/stat", pid)
	}
	return fields[19], fields[0], nil
}

// tempPrefix names temporary files and directories after h:
// tMACHINE-PID-START.
func tempPrefix(h Holder) string {
	return "t" + h.machineTag() + "-" + strconv.Itoa(h.PID) + "-" + h.Start
}

// deadByName reports whether the process a tempPrefix names (machine tag,
// pid, start) is known dead as seen from me.
func deadByName(tag, pid, start string, me Holder) bool {
	if tag != me.machineTag() {
		return false
	}
	n, err := strconv.Atoi(pid)
	if err != nil {
		return false
	}
	return Holder{Host: me.Host, Boot: me.Boot, PID: n, Start: start}.Dead(me)
}

// ProcessTempDir makes parent/tfdeps-serve-PREFIX.N, a directory of
// temporary files for one server of this process, after removing those of
// processes of this machine that are dead (a crash leaves its downloads
// behind). It returns the directory and how many dead ones it removed.
func ProcessTempDir(parent string) (string, int, error) {
	me := self()
	removed := 0
	if entries, err := os.ReadDir(parent); err == nil {
		for _, e := range entries {
			m := processTempDirName.FindStringSubmatch(e.Name())
			if e.IsDir() && m != nil && deadByName(m[1], m[2], m[3], me) && os.RemoveAll(filepath.Join(parent, e.Name())) == nil {
				removed++
			}
		}
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", removed, err
	}
	dir, err := os.MkdirTemp(parent, "tfdeps-serve-"+tempPrefix(me)+".")
	return dir, removed, err
}

var processTempDirName = regexp.MustCompile(`^tfdeps-serve-t([0-9a-f]{8})-([0-9]+)-([0-9]*)\.[0-9]+$`)
