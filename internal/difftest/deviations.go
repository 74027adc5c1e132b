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
	{"config/provider-reqs/init", 0, "tofu init counts the root module's \"Automatically-inferred provider dependency\" warnings twice more when it installs modules of this tree; tfdeps counts them once (the consolidated count differs: 3 more vs one more)"},
}
