//go:build !unix

package regfile

// nonBlock is not needed where named pipes do not live in the file system
// as Unix's do: Open relies on its checks of the file type.
const nonBlock = 0
