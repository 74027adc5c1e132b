// Package regfile opens the files a user names or places (configuration,
// variables, lock and CLI configuration files) without ever blocking on one
// that is not a regular file.
//
// Opening a named pipe (FIFO) for reading waits until some process opens
// it for writing, and reading a device may never end: a FIFO named main.tf
// would hang a command for ever. Open looks at what a path names before
// opening it (following symbolic links, so a link to a regular file reads
// as the file), refuses named pipes, devices, sockets and other special
// files with a *NotRegularError naming the file and its type, and opens
// the rest without blocking (O_NONBLOCK), checking the type again on the
// opened descriptor, so that a file swapped for a pipe between the two
// checks is refused too. Directories are opened as os.Open opens them:
// reading one fails at once, as it always did.
//
// The package owns only the opening; how much is read, and the diagnostic
// a caller shows, stay with the caller.
package regfile
