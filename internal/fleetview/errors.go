package fleetview

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
)

// failedWords name a command's failure when its output shows no error.
var failedWords = map[Command]string{
	Init:       "init failed",
	Get:        "get failed",
	LockVerify: "lock verify failed",
}

var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;]*m`)

// FirstError is the first error a failed root printed, for the table: the
// summary of its first "Error:" diagnostic (stderr before stdout), or,
// when the root printed -json lines, the message of its first line of
// level error.
func FirstError(c Command, stderr, stdout []byte, asJSON bool) error {
	for _, out := range [][]byte{stderr, stdout} {
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			line := ansiEscape.ReplaceAllString(sc.Text(), "")
			if asJSON {
				if msg, ok := jsonErrorMessage(line); ok {
					return errors.New(msg)
				}
				continue
			}
			line = strings.TrimLeft(line, "│╷ ")
			if rest, ok := strings.CutPrefix(line, "Error: "); ok {
				return errors.New(rest)
			}
		}
	}
	return errors.New(failedWords[c])
}

// jsonErrorMessage is the message of a -json line of level error.
func jsonErrorMessage(line string) (string, bool) {
	var l struct {
		Level   string `json:"@level"`
		Message string `json:"@message"`
	}
	if json.Unmarshal([]byte(line), &l) != nil || l.Level != "error" {
		return "", false
	}
	return strings.TrimPrefix(l.Message, "Error: "), true
}
