package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/tfdeps/tfdeps/internal/serve"
)

const publishUsage = `
Usage: tfdeps [global options] publish provider [options] NAMESPACE/TYPE VERSION DIR
       tfdeps [global options] publish module [options] NAMESPACE/NAME/SYSTEM VERSION PATH
       tfdeps [global options] publish mirror [options] DIR

  Publishes to a "tfdeps serve" server.

  provider: uploads the release files of DIR for VERSION
  (terraform-provider-TYPE_VERSION_OS_ARCH.zip, _SHA256SUMS and the binary
  detached signature _SHA256SUMS.sig), then asks the server to publish them;
  it checks every package against SHA256SUMS and the signature, as init
  will, before the version appears. DIR may be goreleaser's release
  directory: its _manifest.json gives the protocols, and the files the
  registry protocol does not serve are not uploaded.

  module: uploads PATH, a .tar.gz or .zip archive, or a directory (packed
  as .tar.gz, hidden files left out).

  mirror: imports the archives of a "providers mirror" directory
  (HOST/NAMESPACE/TYPE/*.zip) into the server's mirror; the server keeps
  only those that pass the upstream registry's authentication.

Options:

  -server=URL        The server's base URL (default $TFDEPS_SERVER).
  -token-file=FILE   File holding the publish token (default
                     $TFDEPS_PUBLISH_TOKEN).
  -key=FILE          provider: the ASCII-armored public key whose private
                     key signed SHA256SUMS.
  -protocols=LIST    provider: plugin protocol versions (default: those of
                     the release's _manifest.json, else 5.0).
`

type publishFlags struct {
	server, tokenFile, key, protocols string
}

func runPublish(m *Meta, args []string) int {
	if len(args) > 0 && (args[0] == "-help" || args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(m.Stdout, strings.TrimLeft(publishUsage, "\n"))
		return 0
	}
	if len(args) == 0 || (args[0] != "provider" && args[0] != "module" && args[0] != "mirror") {
		fmt.Fprint(m.Stderr, strings.TrimLeft(publishUsage, "\n"))
		return 1
	}
	kind := args[0]
	fs := newFlagSet(m, "publish "+kind, publishUsage)
	var f publishFlags
	fs.StringVar(&f.server, "server", m.Getenv("TFDEPS_SERVER"), "")
	fs.StringVar(&f.tokenFile, "token-file", "", "")
	fs.StringVar(&f.key, "key", "", "")
	fs.StringVar(&f.protocols, "protocols", "", "")
	if code, ok := parseFlags(m, fs, args[1:]); !ok {
		return code
	}
	p, err := newPublisher(m, f)
	if err == nil {
		switch kind {
		case "provider":
			err = publishProvider(m, p, f, fs.Args())
		case "module":
			err = publishModule(m, p, fs.Args())
		case "mirror":
			err = publishMirror(m, p, fs.Args())
		}
	}
	if err != nil {
		fmt.Fprintf(m.Stderr, "Error: %s\n", err)
		return 1
	}
	return 0
}

// newPublisher is the client of the server the flags and environment
// name (TFDEPS_SERVER, TFDEPS_PUBLISH_TOKEN or -token-file).
func newPublisher(m *Meta, f publishFlags) (*serve.Publisher, error) {
	if f.server == "" {
		return nil, errors.New("no server: use -server=URL or TFDEPS_SERVER")
	}
	p, err := serve.NewPublisher(f.server)
	if err != nil {
		return nil, err
	}
	p.Token = m.Getenv("TFDEPS_PUBLISH_TOKEN")
	if f.tokenFile != "" {
		b, err := os.ReadFile(f.tokenFile)
		if err != nil {
			return nil, err
		}
		p.Token = strings.TrimSpace(string(b))
	}
	return p, nil
}

func publishProvider(m *Meta, p *serve.Publisher, f publishFlags, args []string) error {
	if len(args) != 3 {
		return errors.New("publish provider needs NAMESPACE/TYPE VERSION DIR")
	}
	n, err := p.Provider(serve.ProviderRelease{Address: args[0], Version: args[1], Dir: args[2], KeyFile: f.key, Protocols: splitList(f.protocols)})
	if err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "Published %s %s (%d files).\n", args[0], args[1], n)
	return nil
}

func publishModule(m *Meta, p *serve.Publisher, args []string) error {
	if len(args) != 3 {
		return errors.New("publish module needs NAMESPACE/NAME/SYSTEM VERSION PATH")
	}
	if err := p.Module(args[0], args[1], args[2]); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "Published module %s %s.\n", args[0], args[1])
	return nil
}

func publishMirror(m *Meta, p *serve.Publisher, args []string) error {
	if len(args) != 1 {
		return errors.New("publish mirror needs DIR")
	}
	return p.Mirror(args[0], func(rel string) { fmt.Fprintf(m.Stdout, "Imported %s\n", rel) })
}
