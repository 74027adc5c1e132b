// Package tfefake is a test-only, in-memory stand-in for the part of the
// HCP Terraform / Terraform Enterprise API that `tofu init` and
// `terraform init` use with a `backend "remote"` or a `cloud` block:
// service discovery (/.well-known/terraform.json), the ping whose headers
// carry the API version, organization entitlements, workspaces (read by
// name or ID, list with name, tag and project filters, create, update,
// tags and tag bindings), projects (list, create) and each workspace's
// current state version and its download.
//
// Start serves it over HTTPS on 127.0.0.1 with a certificate of its own
// authority (Running.CertPEM), so that a child process trusting that
// certificate (SSL_CERT_FILE) reaches it as the host 127.0.0.1:PORT, or,
// with a CLI configuration `host` block forcing the tfe.v2 services to
// Running.APIURL, under any hostname. Every request is logged
// (Server.Requests) so that tests can show what a client asked for.
//
// The fake checks only what the clients rely on: the bearer token
// (Server.Token, 401 otherwise), the organization (404 when unknown) and
// the workspace names. It keeps no runs, variables or configuration
// versions.
package tfefake
