package difftest

// deviations lists the cases (path.Match patterns over case names) whose
// step (0: every step) may differ from tofu, with the reason. Each is a
// deviation documented in tfdeps' README.
var deviations = []struct {
	pattern string
	step    int
	reason  string
}{}
