package initrun

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/term"

	"github.com/tfdeps/tfdeps/config"
	"github.com/tfdeps/tfdeps/internal/diagrender"
)

// Asking for variable values.
//
// tofu init asks on standard input for a required root variable that has
// no value and is needed while loading (a module source or version, a
// const variable), unless -input=false, -json or TF_INPUT is false; its other
// commands, and terraform init, never ask. The prompt is OpenTofu's:
//
//	var.NAME[ (ephemeral)]
//	  DESCRIPTION LINES
//
//	  Enter a value:
//
// and the answer one line, trailing white space removed; a line that
// cannot be read (end of input) is OpenTofu's "Failed to request input
// from user" error. A sensitive or ephemeral value is read without echo
// from a terminal.

// inputEnabled reports whether init may ask: its -input flag, unless
// TF_INPUT parses as false.
func inputEnabled(m *Env, flagValue bool) bool {
	if !flagValue {
		return false
	}
	if v := m.Getenv("TF_INPUT"); v != "" {
		if b, err := strconv.ParseBool(v); err == nil && !b {
			return false
		}
	}
	return true
}

// promptVariable asks for v's value on m's standard input.
func (m *Env) promptVariable(v *config.Variable) (string, bool) {
	query := "var." + v.Name
	if v.Ephemeral {
		query += " (ephemeral)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[reset][bold]%s[reset]\n", query)
	if desc := inputDescription(v); desc != "" {
		for _, line := range strings.Split(strings.TrimSuffix(desc, "\n"), "\n") {
			fmt.Fprintf(&b, "  %s\n", strings.TrimSuffix(line, "\r"))
		}
		b.WriteString("\n")
	}
	b.WriteString("  [bold]Enter a value:[reset] ")
	fmt.Fprint(m.Stdout, diagrender.Colorize(b.String(), m.Color))

	var line string
	var err error
	if f, ok := m.Stdin.(*os.File); ok && (v.Sensitive || v.Ephemeral) && term.IsTerminal(int(f.Fd())) {
		var secret []byte
		secret, err = term.ReadPassword(int(f.Fd()))
		line = string(secret)
	} else {
		// A reader of its own for each question, as tofu's: what it
		// buffers past the line is not seen by the next question.
		line, err = bufio.NewReader(m.Stdin).ReadString('\n')
	}
	if err != nil {
		return "", false
	}
	fmt.Fprint(m.Stdout, "\n")
	return strings.TrimRightFunc(line, unicode.IsSpace), true
}

// inputDescription is the text shown under the question: the variable's
// description and its deprecation message.
func inputDescription(v *config.Variable) string {
	switch {
	case v.Description != "" && v.Deprecated != "":
		return fmt.Sprintf("%s.\nVariable is marked as deprecated with the following message: %s", v.Description, v.Deprecated)
	case v.Deprecated != "":
		return "Variable is marked as deprecated with the following message: " + v.Deprecated
	}
	return v.Description
}
