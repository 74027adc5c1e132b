package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
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
  will, before the version appears.

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
  -protocols=LIST    provider: plugin protocol versions (default 5.0).
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
	fs.StringVar(&f.protocols, "protocols", "5.0", "")
	if code, ok := parseFlags(m, fs, args[1:]); !ok {
		return code
	}
	p, err := newPublisher(m, f)
	if err == nil {
		switch kind {
		case "provider":
			err = p.provider(fs.Args())
		case "module":
			err = p.module(fs.Args())
		case "mirror":
			err = p.mirror(fs.Args())
		}
	}
	if err != nil {
		fmt.Fprintf(m.Stderr, "Error: %s\n", err)
		return 1
	}
	return 0
}

type publisher struct {
	m      *Meta
	base   *url.URL
	token  string
	flags  publishFlags
	client *http.Client
}

func newPublisher(m *Meta, f publishFlags) (*publisher, error) {
	if f.server == "" {
		return nil, errors.New("no server: use -server=URL or TFDEPS_SERVER")
	}
	base, err := url.Parse(strings.TrimSuffix(f.server, "/") + "/")
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") {
		return nil, fmt.Errorf("invalid -server URL %q", f.server)
	}
	token := m.Getenv("TFDEPS_PUBLISH_TOKEN")
	if f.tokenFile != "" {
		b, err := os.ReadFile(f.tokenFile)
		if err != nil {
			return nil, err
		}
		token = strings.TrimSpace(string(b))
	}
	return &publisher{m: m, base: base, token: token, flags: f, client: &http.Client{Timeout: 30 * time.Minute}}, nil
}

// send performs one publishing request and fails unless it got want (or
// any of want).
func (p *publisher) send(method, path string, body io.Reader, want ...int) error {
	u := p.base.ResolveReference(&url.URL{Path: "api/v1/" + path})
	req, err := http.NewRequest(method, u.String(), body)
	if err != nil {
		return err
	}
	if p.token != "" {
		req.Header.Set("Authorization", "Bearer "+p.token)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	for _, w := range want {
		if resp.StatusCode == w {
			return nil
		}
	}
	return fmt.Errorf("%s %s: %s: %s", method, u.Path, resp.Status, strings.TrimSpace(string(msg)))
}

func (p *publisher) provider(args []string) error {
	if len(args) != 3 {
		return errors.New("publish provider needs NAMESPACE/TYPE VERSION DIR")
	}
	addr, version, dir := args[0], args[1], args[2]
	ns, typ, ok := strings.Cut(addr, "/")
	if !ok || strings.Contains(typ, "/") {
		return fmt.Errorf("invalid provider address %q: want NAMESPACE/TYPE", addr)
	}
	if p.flags.key == "" {
		return errors.New("publish provider needs -key=FILE, the public key that verifies the signature")
	}
	armored, err := os.ReadFile(p.flags.key)
	if err != nil {
		return err
	}
	keyID, err := armoredKeyID(armored)
	if err != nil {
		return fmt.Errorf("%s: %w", p.flags.key, err)
	}
	prefix := "terraform-provider-" + typ + "_" + version + "_"
	names, err := filepath.Glob(filepath.Join(dir, prefix+"*"))
	if err != nil {
		return err
	}
	sort.Strings(names)
	if len(names) == 0 {
		return fmt.Errorf("no %s* files in %s", prefix, dir)
	}
	for _, name := range names {
		if err := p.upload("providers/"+ns+"/"+typ+"/"+version+"/"+filepath.Base(name), name); err != nil {
			return err
		}
	}
	body, _ := json.Marshal(map[string]any{
		"protocols":       splitList(p.flags.protocols),
		"gpg_public_keys": []map[string]string{{"key_id": keyID, "ascii_armor": string(armored)}},
	})
	if err := p.send(http.MethodPost, "providers/"+ns+"/"+typ+"/"+version, bytes.NewReader(body), http.StatusCreated); err != nil {
		return err
	}
	fmt.Fprintf(p.m.Stdout, "Published %s %s (%d files).\n", addr, version, len(names))
	return nil
}

func (p *publisher) upload(path, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	return p.send(http.MethodPut, path, f, http.StatusCreated, http.StatusOK)
}

func armoredKeyID(armored []byte) (string, error) {
	ring, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(armored))
	if err != nil {
		return "", err
	}
	if len(ring) == 0 || ring[0].PrimaryKey == nil {
		return "", errors.New("no public key")
	}
	return fmt.Sprintf("%016X", ring[0].PrimaryKey.KeyId), nil
}

func (p *publisher) module(args []string) error {
	if len(args) != 3 {
		return errors.New("publish module needs NAMESPACE/NAME/SYSTEM VERSION PATH")
	}
	addr, version, path := args[0], args[1], args[2]
	if strings.Count(addr, "/") != 2 {
		return fmt.Errorf("invalid module address %q: want NAMESPACE/NAME/SYSTEM", addr)
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	var body io.Reader
	if info.IsDir() {
		packed, err := packModuleDir(path)
		if err != nil {
			return err
		}
		body = bytes.NewReader(packed)
	} else {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		body = f
	}
	if err := p.send(http.MethodPut, "modules/"+addr+"/"+version, body, http.StatusCreated); err != nil {
		return err
	}
	fmt.Fprintf(p.m.Stdout, "Published module %s %s.\n", addr, version)
	return nil
}

// packModuleDir packs a directory as .tar.gz, leaving out hidden files and
// directories (.git, .terraform) and anything that is not a regular file
// or directory.
func packModuleDir(dir string) ([]byte, error) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if !info.Mode().IsRegular() && !info.IsDir() {
			return nil
		}
		hdr, err := tar.FileInfoHeader(info, "")
		if err != nil {
			return err
		}
		hdr.Name = filepath.ToSlash(rel)
		if info.IsDir() {
			hdr.Name += "/"
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if info.IsDir() {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(tw, f)
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := errors.Join(tw.Close(), gz.Close()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// mirror imports HOST/NAMESPACE/TYPE/*.zip from a providers mirror
// directory.
func (p *publisher) mirror(args []string) error {
	if len(args) != 1 {
		return errors.New("publish mirror needs DIR")
	}
	zips, err := filepath.Glob(filepath.Join(args[0], "*", "*", "*", "*.zip"))
	if err != nil {
		return err
	}
	sort.Strings(zips)
	if len(zips) == 0 {
		return fmt.Errorf("no HOST/NAMESPACE/TYPE/*.zip archives in %s", args[0])
	}
	var errs []error
	for _, z := range zips {
		rel, _ := filepath.Rel(args[0], z)
		if err := p.upload("mirror/"+filepath.ToSlash(rel), z); err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(p.m.Stdout, "Imported %s\n", filepath.ToSlash(rel))
	}
	return errors.Join(errs...)
}
