// Package serve is tfdeps' HTTP server: a caching provider network mirror
// filled on demand from upstream registries, and a private provider and
// module registry for what is published into it, over one storage bucket
// (package storage) that any number of stateless replicas may share.
//
// It owns: routing and request-path checks, the network mirror protocol
// (HOST/NS/TYPE/index.json, VERSION.json, archives), pull-through (each
// archive downloaded once per bucket, single-flight per key within a
// process and a lease object across replicas, authenticated exactly as init
// authenticates before anything is stored), the provider and module
// registry protocols for published releases and their publishing API,
// bearer tokens for reading and publishing, the outbound address guard
// against server-side request forgery, the retry of upstream 429, 5xx,
// broken connections and timeouts and the status a client gets when they persist
// (retry.go), which hashes VERSION.json lists (every platform's h1: and
// zh:, as a faithful mirror lists them: from stored archives, the
// upstream's signed metadata (vouchedHashes), or archives fetched for the
// purpose (completeHashes); whether a client takes them without
// downloading is the client's decision),
// Prometheus metrics and structured access logs.
//
// Run is the whole server's life: open the bucket, listen, serve until
// asked to stop, then drain. Publisher is the other end of the publishing
// API, the client "tfdeps publish" uses.
//
// It does not speak the registry protocol as a client, authenticate
// packages or hash archives itself: providersource and registry
// do, over a transport this package guards. It does not read flags, token files or CLI
// configuration files, and prints nothing: the command passes Options in
// and reports what Publisher says it published.
package serve
