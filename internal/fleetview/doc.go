// Package fleetview is how tfdeps shows a run over many root modules
// (init -recursive and friends): the header line before each root's
// output, the final table and the list of failed roots, the -json lines
// (one per root, then a summary), and the one live status line on a
// terminal.
//
// It owns the words and the layout, not the run: package fleet runs the
// roots and reports events and results, and the command chooses between
// the plain, live and -json views. It is internal because these texts are
// tfdeps' own interface, not a library's: the fleet package stays free of
// presentation, as workdir is, and the CLI keeps one place for them.
package fleetview
