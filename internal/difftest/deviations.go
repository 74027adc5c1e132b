package difftest

// deviations lists the cases (path.Match patterns over case names) whose
// step (0: every step) may differ from tofu, with the reason. Each is a
// deviation documented in tfdeps' README (or work another helper owns).
var deviations = []struct {
	pattern string
	step    int
	reason  string
}{
	{"edge/arguments", 0, "the help text printed after an argument error is tfdeps' own (the diagnostic on stderr is tofu's, byte for byte)"},

	// Module trees: tofu needs "tofu init" to have installed every module,
	// local ones included; tfdeps reads local modules from their
	// directories.
	{"requirements/*/providers", 0, "tfdeps providers reads local child modules without tofu init; tofu providers reports Module not installed"},
	{"config/module-override/providers", 0, "tfdeps providers reads local child modules without tofu init (and warns about the registry module it cannot read); tofu providers reports Module not installed"},
	{"config/override-module/providers", 0, "tfdeps providers reads local child modules without tofu init; tofu providers reports Module not installed"},
	{"config/provider-reqs/providers", 0, "tfdeps providers reads local child modules without tofu init; tofu providers reports Module not installed"},
	{"requirements/*/init", 0, "module installation lines and errors (Initializing modules..., - NAME in DIR) belong to helper modinstall's module installer"},
	{"config/module-override/init", 0, "module installation (Initializing modules..., registry modules) belongs to helper modinstall"},
	{"config/override-module/init", 0, "module installation (Unreadable module directory) belongs to helper modinstall"},
	{"config/provider-reqs/init", 0, "module installation lines belong to helper modinstall"},
}
