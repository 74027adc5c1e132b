package config

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"hash"
	"net/url"
	"path/filepath"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"
)

// moreStaticFunctions are OpenTofu built-ins that the cty standard library
// lacks or defines differently, written after OpenTofu's documented
// behaviour.
func moreStaticFunctions() map[string]function.Function {
	return map[string]function.Function{
		"abspath":      stringFunc(absPath),
		"alltrue":      boolReduce(true),
		"nonsensitive": markFunc(false),
		"sensitive":    markFunc(true),
		"anytrue":      boolReduce(false),
		"base64decode": base64DecodeFunc,
		"base64encode": stringFunc(func(s string) (string, error) { return base64.StdEncoding.EncodeToString([]byte(s)), nil }),
		"basename":     stringFunc(func(s string) (string, error) { return filepath.Base(s), nil }),
		"coalesce":     stdlib.CoalesceFunc,
		"dirname":      stringFunc(func(s string) (string, error) { return filepath.Dir(s), nil }),
		"length":       lengthFunc,
		"md5":          hashFunc(md5.New),
		"one":          oneFunc,
		"sha1":         hashFunc(sha1.New),
		"sha256":       hashFunc(sha256.New),
		"sha512":       hashFunc(sha512.New),
		"urlencode":    stringFunc(func(s string) (string, error) { return url.QueryEscape(s), nil }),
	}
}

// markFunc is sensitive (mark) or nonsensitive (unmark the value's
// sensitive mark; its other marks stay).
func markFunc(mark bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowMarked: true, AllowNull: true, AllowUnknown: true, AllowDynamicType: true}},
		Type:   func(args []cty.Value) (cty.Type, error) { return args[0].Type(), nil },
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if mark {
				return args[0].Mark(markSensitive), nil
			}
			v, marks := args[0].Unmark()
			delete(marks, markSensitive)
			return v.WithMarks(marks), nil
		},
	})
}

// absPath is OpenTofu's abspath: the path made absolute against the
// working directory, with forward slashes.
func absPath(p string) (string, error) { return absPathIn("", p) }

// absPathIn is abspath with working directory dir ("" for the current
// directory).
func absPathIn(dir, p string) (string, error) {
	if dir != "" && !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	abs, err := filepath.Abs(p)
	return filepath.ToSlash(abs), err
}

// staticFunctionsIn are staticFunctions with abspath resolving against
// working directory dir.
func staticFunctionsIn(dir string) map[string]function.Function {
	funcs := staticFunctions()
	if dir != "" {
		funcs["abspath"] = stringFunc(func(p string) (string, error) { return absPathIn(dir, p) })
	}
	return funcs
}

func stringFunc(fn func(string) (string, error)) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "str", Type: cty.String}},
		Type:   function.StaticReturnType(cty.String),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			s, err := fn(args[0].AsString())
			if err != nil {
				return cty.UnknownVal(cty.String), err
			}
			return cty.StringVal(s), nil
		},
	})
}

func hashFunc(h func() hash.Hash) function.Function {
	return stringFunc(func(s string) (string, error) {
		w := h()
		w.Write([]byte(s))
		return hex.EncodeToString(w.Sum(nil)), nil
	})
}

var base64DecodeFunc = stringFunc(func(s string) (string, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return "", errors.New("failed to decode base64 data")
	}
	if !utf8.Valid(b) {
		return "", errors.New("the result of decoding the provided string is not valid UTF-8")
	}
	return string(b), nil
})

// lengthFunc is the length of a string (in characters) or a collection.
var lengthFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "value", Type: cty.DynamicPseudoType, AllowDynamicType: true, AllowUnknown: true}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		if ty == cty.String || ty == cty.DynamicPseudoType || ty.IsCollectionType() || ty.IsTupleType() || ty.IsObjectType() {
			return cty.Number, nil
		}
		return cty.NilType, errors.New("argument must be a string, a collection type, or a structural type")
	},
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		if !v.IsKnown() {
			return cty.UnknownVal(cty.Number), nil
		}
		if v.Type() == cty.String {
			return stdlib.Strlen(v)
		}
		return v.Length(), nil
	},
})

// oneFunc is the only element of a list, set or tuple, or null when empty.
var oneFunc = function.New(&function.Spec{
	Params: []function.Parameter{{Name: "list", Type: cty.DynamicPseudoType}},
	Type: func(args []cty.Value) (cty.Type, error) {
		ty := args[0].Type()
		switch {
		case ty.IsListType() || ty.IsSetType():
			return ty.ElementType(), nil
		case ty.IsTupleType():
			if n := len(ty.TupleElementTypes()); n == 1 {
				return ty.TupleElementTypes()[0], nil
			} else if n == 0 {
				return cty.DynamicPseudoType, nil
			}
			return cty.NilType, errors.New("must be a list, set, or tuple value with either zero or one elements")
		}
		return cty.NilType, errors.New("must be a list, set, or tuple value with either zero or one elements")
	},
	Impl: func(args []cty.Value, retType cty.Type) (cty.Value, error) {
		v := args[0]
		if v.IsNull() {
			return cty.NullVal(retType), nil
		}
		switch v.LengthInt() {
		case 0:
			return cty.NullVal(retType), nil
		case 1:
			it := v.ElementIterator()
			it.Next()
			_, e := it.Element()
			return e, nil
		}
		return cty.DynamicVal, errors.New("must be a list, set, or tuple value with either zero or one elements")
	},
})

// boolReduce is alltrue (all) or anytrue (!all) over a collection of bools.
func boolReduce(all bool) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{{Name: "list", Type: cty.List(cty.Bool)}},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			for it := args[0].ElementIterator(); it.Next(); {
				_, v := it.Element()
				if v.IsNull() || !v.IsKnown() {
					continue
				}
				if v.True() != all {
					return cty.BoolVal(!all), nil
				}
			}
			return cty.BoolVal(all), nil
		},
	})
}
