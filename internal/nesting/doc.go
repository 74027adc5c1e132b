// Package nesting measures how deeply a source file nests, before a
// recursive parser sees it.
//
// The parsers tfdeps uses (HCL native syntax, HCL JSON, HCL 1, the lock
// file's HCL) recurse once per nesting level, and a Go stack overflow is a
// fatal error that no recover can catch: a file of 100 KB of "[" kills the
// process with a multi-megabyte stack dump. Check scans the bytes once, in
// linear time and with memory proportional to the depth, and refuses input
// that nests deeper than a limit, naming the line and column where the
// limit is first exceeded.
//
// The scan understands what the HCL native syntax lexer understands: quoted
// strings with backslash escapes, template interpolations "${" and
// directives "%{" (and their escapes "$${" and "%%{"), heredocs with their
// end markers, comments ("#", "//", "/* */"), identifiers and numbers. It
// counts as one level each of: a brace, bracket or parenthesis; a quoted
// string or heredoc; an interpolation or directive; an open "%{if}" or
// "%{for}" block; and each unary or conditional operator ("!", "-", "?")
// still open in the current expression (the parser recurses for "!!!!x"
// and "a ? b : c ? d : e"). It may count more levels than the parser
// uses, never fewer.
//
// In HCL JSON a string is a template, or an expression where a keyword,
// type or reference is read from it, so strings are scanned both ways,
// starting at the depth of the JSON value that holds them.
//
// The package does not own the parsers, the limits callers choose, or the
// diagnostics' wording beyond TooDeepError.
package nesting
