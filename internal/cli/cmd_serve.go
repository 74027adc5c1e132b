package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/tfdeps/tfdeps/internal/serve"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

const serveUsage = `
Usage: tfdeps [global options] serve [options]

  Serves, from one process, a caching provider network mirror for the
  upstream registries (filled on demand, every package authenticated as
  init authenticates it before it is stored) and a private provider and
  module registry for what is published into it with "tfdeps publish".
  Everything lives in the storage, so replicas can share one bucket.

  Upstream registries are reached through the same CLI configuration as
  init: host blocks, credentials, TF_TOKEN_* variables, SSL_CERT_FILE.
  An upstream 429, 5xx or dropped connection is retried (3 tries,
  Retry-After honoured up to 5s); what persists is passed on to the
  client as 429 or 503 with Retry-After, or as 502, and a host that
  asked to wait is not asked again before its Retry-After has passed.

Options:

  -listen=ADDR            Address to listen on (default :8080).
  -storage=DIR|URL        A local directory, or a bucket URL: s3://, gs://,
                          azblob://, file://, mem:// (default ./tfdeps-serve).
  -tls-cert=FILE          Serve HTTPS with this certificate chain...
  -tls-key=FILE           ...and this key. Without them, plain HTTP (for use
                          behind a TLS-terminating proxy).
  -upstream=HOST,...      Registries to mirror and the only ones contacted
                          (default registry.opentofu.org,registry.terraform.io).
  -config=FILE            CLI configuration file (default: as init finds it).
  -read-token-file=FILE   Bearer tokens (one a line) required to read; also
                          TFDEPS_SERVE_READ_TOKENS (comma-separated). Without
                          any, reading is open.
  -publish-token-file=FILE
                          Bearer tokens required to publish; also
                          TFDEPS_SERVE_PUBLISH_TOKENS. Without any,
                          publishing is refused.
  -presign=DURATION       Redirect archive downloads to presigned storage
                          URLs valid this long, where the backend can sign
                          (default 15m; 0 disables).
  -index-ttl=DURATION     How long a cached upstream version list is served
                          before it is refreshed (default 10m).
  -max-archive-size=BYTES Largest archive accepted from upstream or a
                          publisher (default 2 GiB).
  -log-format=json|text   Access log format on stderr (default json).
`

type serveFlags struct {
	listen, storage, tlsCert, tlsKey, upstream, config string
	readTokens, publishTokens, logFormat               string
	presign, indexTTL                                  time.Duration
	maxArchive                                         int64
}

func runServe(m *Meta, args []string) int {
	fs := newFlagSet(m, "serve", serveUsage)
	var f serveFlags
	fs.StringVar(&f.listen, "listen", ":8080", "")
	fs.StringVar(&f.storage, "storage", "tfdeps-serve", "")
	fs.StringVar(&f.tlsCert, "tls-cert", "", "")
	fs.StringVar(&f.tlsKey, "tls-key", "", "")
	fs.StringVar(&f.upstream, "upstream", strings.Join(serve.DefaultUpstreams, ","), "")
	fs.StringVar(&f.config, "config", "", "")
	fs.StringVar(&f.readTokens, "read-token-file", "", "")
	fs.StringVar(&f.publishTokens, "publish-token-file", "", "")
	fs.StringVar(&f.logFormat, "log-format", "json", "")
	fs.DurationVar(&f.presign, "presign", 15*time.Minute, "")
	fs.DurationVar(&f.indexTTL, "index-ttl", 10*time.Minute, "")
	fs.Int64Var(&f.maxArchive, "max-archive-size", 2<<30, "")
	if code, ok := parseFlags(m, fs, args); !ok {
		return code
	}
	if err := serveMain(m, f); err != nil {
		fmt.Fprintf(m.Stderr, "Error: %s\n", err)
		return 1
	}
	return 0
}

func serveMain(m *Meta, f serveFlags) error {
	if (f.tlsCert == "") != (f.tlsKey == "") {
		return errors.New("-tls-cert and -tls-key go together")
	}
	logger, err := serveLogger(m, f.logFormat)
	if err != nil {
		return err
	}
	opts, err := serveOptions(m, f, logger)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve.Run(ctx, serve.Listen{Address: f.listen, Storage: f.storage, TLSCert: f.tlsCert, TLSKey: f.tlsKey}, opts)
}

func serveLogger(m *Meta, format string) (*slog.Logger, error) {
	switch format {
	case "json":
		return slog.New(slog.NewJSONHandler(m.Stderr, nil)), nil
	case "text":
		return slog.New(slog.NewTextHandler(m.Stderr, nil)), nil
	}
	return nil, fmt.Errorf("-log-format must be json or text, not %q", format)
}

// serveOptions turns flags, environment and CLI configuration into
// serve.Options (without storage).
func serveOptions(m *Meta, f serveFlags, logger *slog.Logger) (serve.Options, error) {
	copts := m.cliConfigOptions()
	if f.config != "" {
		copts.Environ = append([]string{"TF_CLI_CONFIG_FILE=" + f.config}, copts.Environ...)
	}
	cfg := loadCLIConfig(m, copts)
	read, err := serveTokens(m, f.readTokens, "TFDEPS_SERVE_READ_TOKENS")
	if err != nil {
		return serve.Options{}, err
	}
	publish, err := serveTokens(m, f.publishTokens, "TFDEPS_SERVE_PUBLISH_TOKENS")
	if err != nil {
		return serve.Options{}, err
	}
	base := registry.Settings{Getenv: m.Getenv, Environ: m.Environ, EmulatedVersion: m.Version(), UserAgent: m.userAgent(), Flavour: m.Flavour}
	return serve.Options{
		Upstreams:      splitList(f.upstream),
		Registry:       providersource.RegistrySettings(cfg, base),
		ReadTokens:     read,
		PublishTokens:  publish,
		Logger:         logger,
		IndexTTL:       f.indexTTL,
		PresignTTL:     f.presign,
		MaxArchiveSize: f.maxArchive,
	}, nil
}

// serveTokens reads tokens from a file (one a line, # comments) and from a
// comma-separated environment variable.
func serveTokens(m *Meta, file, env string) ([]string, error) {
	var out []string
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(string(b), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
				out = append(out, line)
			}
		}
	}
	return append(out, splitList(m.Getenv(env))...), nil
}

func splitList(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}
