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
}
