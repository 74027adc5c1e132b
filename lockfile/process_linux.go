package lockfile

import (
	"bytes"
	"os"
	"strconv"
)

// processState returns the state letter of process pid from
// /proc/PID/stat (R running, S sleeping, Z zombie, X dead, …), or false
// when it cannot be read (no such process, or no /proc mounted): the
// caller then falls back to signal 0.
func processState(pid int) (byte, bool) {
	src, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseProcStat(src)
}

// parseProcStat takes the state from a /proc/PID/stat line, "PID (COMM)
// STATE …". The command name may hold spaces and parentheses, so the state
// is the field after the last ")".
func parseProcStat(src []byte) (byte, bool) {
	i := bytes.LastIndexByte(src, ')')
	if i < 0 || i+2 >= len(src) || src[i+1] != ' ' {
		return 0, false
	}
	return src[i+2], true
}
