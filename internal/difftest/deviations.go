package difftest

// deviations lists the cases (path.Match patterns over case names) whose
// step (0: every step) may differ from tofu, with the reason. Each is a
// deviation documented in tfdeps' README (or work another helper owns).
var deviations = []deviation{
	{"edge/arguments", 0, "the help text printed after an argument error is tfdeps' own (the diagnostic on stderr is tofu's, byte for byte)"},
	{"config/provider-reqs/init", 0, "tofu init counts the root module's \"Automatically-inferred provider dependency\" warnings twice more when it installs modules of this tree; tfdeps counts them once (the consolidated count differs: 3 more vs one more)"},
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
var terraformDeviations = []deviation{
	// The language: config decodes OpenTofu's language and texts.
	{"config/backend-*/*", 0, "Terraform's backend and cloud block texts (\"Duplicate 'backend' configuration block\", HCP Terraform wording) are not reproduced: config words OpenTofu's"},
	{"config/override-cloud*/*", 0, "Terraform's cloud block texts (HCP Terraform wording) are not reproduced"},
	{"config/override-backend-with-cloud/*", 0, "Terraform's cloud block texts (HCP Terraform wording) are not reproduced"},
	{"config/import-dup/*", 0, "Terraform reports a duplicate import block at another range (\"in import:\")"},
	{"config/override-resource/*", 0, "Terraform 1.15 has no \"enabled\" meta-argument: its diagnostics for this override differ"},
	{"config/override-no-base/*", 0, "Terraform's override texts for removed and import blocks differ"},
	{"config/multiple-required-providers-with-syntax-error/*", 0, "Terraform reports the syntax error first and stops; tfdeps (as OpenTofu) reports the duplicate block too"},
	{"config/provider-override/*", 0, "Terraform's provider block checks (reserved argument names, deprecated version argument) differ from OpenTofu's"},
	{"requirements/invalid-constraint/init", 0, "Terraform reports the deprecated provider version argument differently"},
	{"config/reqprov/providers", 0, "terraform providers does not consolidate repeated warnings"},
}
