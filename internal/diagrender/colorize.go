package diagrender

import (
	"regexp"
	"strings"
)

// colorCodes are the markup names OpenTofu's output uses, with their SGR codes.
var colorCodes = map[string]string{
	"reset": "0", "bold": "1", "underline": "4",
	"red": "31", "green": "32", "yellow": "33", "dark_gray": "90",
}

var colorMarkup = regexp.MustCompile(`(?i)\[[a-z0-9_-]+\]`)

// Colorize translates markup such as "[bold]" in a format string: into
// escape sequences followed by a final reset when on (as OpenTofu's
// colouring does whenever a known name occurs), or removed when off.
// Unknown names are left as they are. Only constant texts are passed
// here, never values.
func Colorize(s string, on bool) string {
	known := false
	out := colorMarkup.ReplaceAllStringFunc(s, func(m string) string {
		code, ok := colorCodes[m[1:len(m)-1]]
		if !ok {
			return m
		}
		known = true
		if !on {
			return ""
		}
		return "\x1b[" + code + "m"
	})
	if known && on {
		out += "\x1b[0m"
	}
	return out
}

// ReplaceControlChars shows C0 control characters other than tab, CR and
// LF, and DEL, as their Unicode control pictures, as OpenTofu's coloured
// output does.
func ReplaceControlChars(s string) string {
	if !strings.ContainsFunc(s, isFilteredControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0x7f:
			b.WriteRune(0x2421)
		case isFilteredControl(r):
			b.WriteRune(0x2400 + r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isFilteredControl(r rune) bool {
	return (r < ' ' && r != '\r' && r != '\n' && r != '\t') || r == 0x7f
}
