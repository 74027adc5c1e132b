package moduleaddr

import (
	"path"
	"strings"
)

// Local is a local module path in canonical form (§2.1): slashes only,
// cleaned, starting with "./" unless it starts with "../". It has no version
// and no subdirectory, and is resolved against the calling module's
// directory.
type Local string

// ParseLocal normalises a path that [IsLocal] accepted: backslashes become
// "/", the path is cleaned with path.Clean and "./" is put in front of a
// result that does not start with "../" (so "./" is "./." and "../" is
// "./..", as in OpenTofu).
func ParseLocal(raw string) Local {
	clean := path.Clean(strings.ReplaceAll(raw, `\`, "/"))
	if !strings.HasPrefix(clean, "../") {
		clean = "./" + clean
	}
	return Local(clean)
}

func (Local) moduleSource() {}

// String returns the canonical path.
func (l Local) String() string { return string(l) }

// ForDisplay returns the canonical path.
func (l Local) ForDisplay() string { return string(l) }
