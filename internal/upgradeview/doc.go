// Package upgradeview renders what package upgrade finds and does for
// the "outdated" and "upgrade" commands: their help texts, the tables, the
// result lines and the -json documents. It prints nothing on its own: the
// caller passes the writers.
package upgradeview
