package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// cmdJSONValue: "jsonvalue FILE" checks that FILE (stdout, stderr or a
// file) is exactly one JSON value, surrounding white space aside: what
// tfdeps' own -json outputs promise whatever happens.
func cmdJSONValue(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: jsonvalue FILE")
	}
	var text string
	if args[0] == "stdout" || args[0] == "stderr" {
		text = ts.ReadFile(args[0])
	} else {
		b, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		text = string(b)
	}
	err := oneJSONValue([]byte(text))
	switch {
	case err != nil && !neg:
		ts.Fatalf("%s is not one JSON value: %v\n%s", args[0], err, text)
	case err == nil && neg:
		ts.Fatalf("%s is one JSON value", args[0])
	}
}

// oneJSONValue returns an error unless b holds exactly one JSON value.
func oneJSONValue(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	var v any
	if err := dec.Decode(&v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("more after the first value")
	}
	return nil
}
