// Package fleet initialises many root modules in one process: it finds the
// root modules below a directory, runs one function per root on a bounded
// number of goroutines, buffers each root's output and releases it in root
// order (never interleaved), keeps going when a root fails, stops cleanly
// when its context is cancelled, and reports typed events for a live view.
// Shared holds the work a whole run shares between roots: provider
// version lists and package metadata asked once, each provider package
// downloaded once, each module package fetched once, each distinct
// configuration file parsed once.
//
// It owns the scheduling and the sharing, not what is done to a root:
// the per-root function (for tfdeps, one workdir initialisation with its
// output rendered as tofu prints it) is passed in, so that the fleet adds
// no second orchestration of init and can be tested on its own. Nor does
// it print: the events and the per-root results are the caller's to
// render (tfdeps' words for them are in internal/fleetview).
//
// A root's files are only ever written by its own function: nothing is
// shared through a root's directory, so each root ends with the files a
// single initialisation there would leave.
package fleet
