// Package config loads OpenTofu configuration directories exactly as
// OpenTofu v1.12 does: it discovers the files of a module directory (.tf,
// .tf.json, .tofu, .tofu.json, with .tofu precedence and ignored names),
// parses them in parallel, decodes the whole language as OpenTofu v1.12
// does (every block type and argument of internal/configs: terraform,
// language, provider, variable, locals, output, module, resource, data,
// ephemeral, moved, import, removed, check, and test files), reports
// duplicate definitions, and merges override files into the primary files
// with OpenTofu's per-block rules and diagnostics. A diagnostic OpenTofu
// reports while loading is reported here even when the caller only needs
// part of the configuration.
//
// The result of loading one directory is a *Module: typed declarations
// (variables, locals, outputs, module calls, providers, resources, ...) plus
// a *Document, the effective configuration as a syntax tree in which every
// argument and nested block remembers the file and range it came from.
// BuildTree builds the module tree through a ModuleWalker (the installer's,
// or ManifestWalker, which reads .terraform/modules/modules.json as OpenTofu
// does after init); it stops module call cycles at their first repeat.
//
// Loading never stops at the first problem: it returns a partial module and
// every diagnostic, with OpenTofu's Summary and Detail texts and source
// ranges, in the order OpenTofu reports them.
//
// Where OpenTofu's result depends on Go map order, tfdeps is deterministic
// (config-loading.md §9, providers.md §4.2): duplicate local values within a
// file, unexpected arguments within a block, required_providers entries,
// module-call static evaluation, destroy-provisioner references, data
// resource lifecycle arguments and "did you mean" suggestions are all
// processed in source (or sorted) order. These are tfdeps' only deviations
// from OpenTofu v1.12 here, with two gaps: the source addresses of test
// run modules are not validated, and provider function references
// (provider::NAME::FUNC) in replace_triggered_by are not recognised. The
// deep merge of
// encryption blocks is simplified to per-argument replacement within
// key_provider, method, state, plan and remote_state_data_sources blocks.
//
// The package does not evaluate expressions beyond constants, does not
// collect provider requirements across a module tree, does not install
// modules, and does not print anything; rendering a Document as text lives
// in render*.go.
package config
