package config

import (
	"testing"
	"testing/fstest"
)

// FuzzCollectInputValues reads arbitrary variables files and -var values
// and parses every value in both modes: nothing may panic.
func FuzzCollectInputValues(f *testing.F) {
	f.Add([]byte(`x = "a"`), []byte(`{"x": [1, 2]}`), "x=b")
	f.Add([]byte("variable \"y\" {}\n"), []byte(`{`), `x=["a", {b = 1}]`)
	f.Add([]byte(`x = var.y`), []byte(` {"x": null}`), "x")
	f.Fuzz(func(t *testing.T, tfvars, jsonVars []byte, opt string) {
		fsys := fstest.MapFS{
			"terraform.tfvars":      {Data: tfvars},
			"a.auto.tfvars.json":    {Data: jsonVars},
			"named":                 {Data: jsonVars},
			"nested/ignored.tfvars": {Data: tfvars},
		}
		iv, _ := CollectInputValues(VarSources{
			FS:      FS(fsys),
			Environ: []string{"TF_VAR_" + opt},
			Options: []VarOption{{Value: opt}, {File: true, Value: "named"}},
		})
		for name := range iv.values {
			raw, _ := iv.Lookup(name)
			raw.Parse(VariableParseLiteral)
			raw.Parse(VariableParseHCL)
		}
	})
}
