package difftest

// deviations lists the cases (path.Match patterns over case names) whose
// step (0: every step) may differ from tofu, with the reason. Each is a
// deviation documented in tfdeps' README (or work another helper owns).
var deviations = []deviation{
	{"edge/arguments", 0, "the help text printed after an argument error is tfdeps' own (the diagnostic on stderr is tofu's, byte for byte)"},
}

// deviation is one listed difference: the cases (a path.Match pattern over
// case names) and step (0: every step) that may differ, and why.
type deviation struct {
	pattern string
	step    int
	reason  string
}

// terraformDeviations lists the steps that may differ from terraform
// v1.15.9 in TestDifferentialTerraform, with the reason.
// (None today: every step of TestDifferentialTerraform is identical.)
var terraformDeviations = []deviation{}
