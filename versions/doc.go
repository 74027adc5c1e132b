// Package versions owns provider versions and version constraints as
// OpenTofu v1.12 understands them: parsing exact versions, the two
// constraint parsers OpenTofu applies in sequence (HashiCorp go-version
// syntax when decoding configuration, then the Ruby-style parser of
// github.com/apparentlymart/go-versions when collecting requirements and
// reading lock files), intersection of constraint lists, the prerelease
// rule, newest-match selection and the canonical constraint string written
// into lock files.
//
// It does not know where versions come from (registries, mirrors) nor which
// provider they belong to.
package versions
