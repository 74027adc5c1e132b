// Package backend owns what init needs to know about state backends
// without talking to any of them: the configuration schema of every
// backend type the emulated product builds in, the decoding of a root
// module's backend or cloud block against that schema, the merging of
// -backend-config values over it, the hash that tells later commands
// whether the block changed, and the data directory's terraform.tfstate
// file in which init records the configured backend.
//
// The schemas are data (schemas/opentofu.json, schemas/terraform.json),
// read from each product's source code and checked against its binary:
// every argument and nested block with its type. Each file holds every
// backend its product builds in and the cloud block (Terraform v1.15.9
// adds oci, its own object-storage backend; its cloud block's
// workspaces.tags is of no fixed type, a list of names or a map of
// key-value tags, and is saved with its type). Configure decodes a
// block with every argument optional, as the products do, then lays the
// -backend-config values over it in command-line order: a file (HCL, or
// JSON when its name ends in .json) replaces the arguments it sets and
// every block of a type it has; NAME=VALUE sets one argument, its text
// converted to the argument's type when that type is primitive and read
// as an HCL expression otherwise. The hash covers the block as written,
// without the overrides; the saved configuration covers both. Prepare
// then makes the remote backend's and the cloud block's own checks of
// their settings that need no network (organization, workspaces,
// OpenTofu's hostname), with the environment variables they fall back
// on.
//
// WriteState writes terraform.tfstate byte for byte as the flavour does:
// OpenTofu writes the version and the backend (type, configuration with
// every argument, null when unset, and hash) indented by four spaces with
// a final newline; Terraform adds its version and indents by two spaces
// without a final newline. Neither writes a serial or a lineage.
//
// Contacting a backend is separate (Validate, Open, Remote; files
// check*.go): for http, s3, gcs and azurerm it checks the values the
// backend validates for itself, its credentials, lists its workspaces
// and reads a workspace's state, as init does with -backend-check. The
// package never writes to a backend nor migrates states.
package backend
