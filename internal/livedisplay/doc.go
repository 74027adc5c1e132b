// Package livedisplay draws tfdeps' live terminal views: the lines a
// command prints go above one status line showing the downloads in
// progress (bytes and rate when known), redrawn in place. The status line
// never wraps: it is clipped to the terminal's width, which is read again
// after each window change, so that clearing it leaves nothing behind;
// names from outside are made safe (PlainLabel) so that they cannot move
// the cursor or colour the line.
//
// It also answers what the commands ask of a terminal: whether a writer
// is one, and how wide to wrap diagnostics on it.
//
// It owns the drawing, not the words: the lines are printed by the
// caller's function passed to Display.Print, and the choice of a live
// view over plain lines (a terminal, colour on, no CI, no -json) is the
// command's.
package livedisplay
