package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// jsonValue is a JSON value that keeps what encoding/json would lose for
// rendering: the order of object properties, duplicate property names and
// the exact text of numbers. Both renderers use it: the native renderer reads
// expressions of .tf.json files into it, the JSON renderer builds its output
// with it.
type jsonValue struct {
	kind  jsonKind
	str   string // the string of a jsonString, the literal text of a jsonNumber
	b     bool
	elems []*jsonValue
	props []jsonProp
}

type jsonProp struct {
	key string
	val *jsonValue
}

type jsonKind int

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func jsonStr(s string) *jsonValue { return &jsonValue{kind: jsonString, str: s} }

func jsonObj() *jsonValue { return &jsonValue{kind: jsonObject} }

// add appends a property to an object.
func (v *jsonValue) add(key string, val *jsonValue) {
	v.props = append(v.props, jsonProp{key, val})
}

// prop returns the value of the last property named key, or nil.
func (v *jsonValue) prop(key string) *jsonValue {
	for i := len(v.props) - 1; i >= 0; i-- {
		if v.props[i].key == key {
			return v.props[i].val
		}
	}
	return nil
}

// parseJSONValue reads one JSON value from src, keeping property order and
// number text.
func parseJSONValue(src []byte) (*jsonValue, error) {
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	v, err := decodeJSONValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("extra data after JSON value")
	}
	return v, nil
}

func decodeJSONValue(dec *json.Decoder) (*jsonValue, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &jsonValue{kind: jsonNull}, nil
	case bool:
		return &jsonValue{kind: jsonBool, b: t}, nil
	case json.Number:
		return &jsonValue{kind: jsonNumber, str: t.String()}, nil
	case string:
		return jsonStr(t), nil
	case json.Delim:
		if t == '[' {
			return decodeJSONArray(dec)
		}
		if t == '{' {
			return decodeJSONObject(dec)
		}
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

func decodeJSONArray(dec *json.Decoder) (*jsonValue, error) {
	v := &jsonValue{kind: jsonArray}
	for dec.More() {
		elem, err := decodeJSONValue(dec)
		if err != nil {
			return nil, err
		}
		v.elems = append(v.elems, elem)
	}
	_, err := dec.Token() // ']'
	return v, err
}

func decodeJSONObject(dec *json.Decoder) (*jsonValue, error) {
	v := jsonObj()
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("unexpected JSON object key %v", tok)
		}
		val, err := decodeJSONValue(dec)
		if err != nil {
			return nil, err
		}
		v.add(key, val)
	}
	_, err := dec.Token() // '}'
	return v, err
}

// writeJSON writes v indented by two spaces per level, starting at indent.
// prettyDepth is how many levels of arrays and objects the renderers
// indent, one element per line; deeper values are written on one line, so
// that the output grows linearly with the input however deep it nests
// (indenting every level of an 800-deep value writes 640,000 spaces).
const prettyDepth = 32

func writeJSON(w *strings.Builder, v *jsonValue, indent string) {
	writeJSONValue(w, v, len(indent)/2)
}

// writeJSONValue writes v at the given nesting level (for its indentation).
func writeJSONValue(w *strings.Builder, v *jsonValue, level int) {
	switch v.kind {
	case jsonNull:
		w.WriteString("null")
	case jsonBool:
		fmt.Fprint(w, v.b)
	case jsonNumber:
		w.WriteString(v.str)
	case jsonString:
		w.WriteString(jsonQuote(v.str))
	case jsonArray:
		writeJSONArray(w, v, level)
	case jsonObject:
		writeJSONObject(w, v, level)
	}
}

// writeJSONIndent starts a line at the given level.
func writeJSONIndent(w *strings.Builder, level int) {
	for i := 0; i < level; i++ {
		w.WriteString("  ")
	}
}

func writeJSONArray(w *strings.Builder, v *jsonValue, level int) {
	if len(v.elems) == 0 {
		w.WriteString("[]")
		return
	}
	if level >= prettyDepth {
		w.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				w.WriteString(", ")
			}
			writeJSONValue(w, e, level+1)
		}
		w.WriteByte(']')
		return
	}
	w.WriteString("[\n")
	for i, e := range v.elems {
		writeJSONIndent(w, level+1)
		writeJSONValue(w, e, level+1)
		if i < len(v.elems)-1 {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
	}
	writeJSONIndent(w, level)
	w.WriteByte(']')
}

func writeJSONObject(w *strings.Builder, v *jsonValue, level int) {
	if len(v.props) == 0 {
		w.WriteString("{}")
		return
	}
	if level >= prettyDepth {
		w.WriteByte('{')
		for i, p := range v.props {
			if i > 0 {
				w.WriteString(", ")
			}
			w.WriteString(jsonQuote(p.key) + ": ")
			writeJSONValue(w, p.val, level+1)
		}
		w.WriteByte('}')
		return
	}
	w.WriteString("{\n")
	for i, p := range v.props {
		writeJSONIndent(w, level+1)
		w.WriteString(jsonQuote(p.key) + ": ")
		writeJSONValue(w, p.val, level+1)
		if i < len(v.props)-1 {
			w.WriteByte(',')
		}
		w.WriteByte('\n')
	}
	writeJSONIndent(w, level)
	w.WriteByte('}')
}

// jsonQuote encodes s as a JSON string without HTML escaping.
func jsonQuote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return `""` // unreachable: every Go string encodes
	}
	return strings.TrimSuffix(buf.String(), "\n")
}
