package serve

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

// Publisher is a client of a server's publishing API (api/v1): it uploads
// provider releases, module versions and the archives of a provider mirror
// directory. It prints nothing; its methods say what they published.
type Publisher struct {
	// Token is sent as a bearer token ("": none).
	Token string

	base   *url.URL
	client *http.Client
}

// NewPublisher is the client of the server at the http or https URL
// server.
func NewPublisher(server string) (*Publisher, error) {
	base, err := url.Parse(strings.TrimSuffix(server, "/") + "/")
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") {
		return nil, fmt.Errorf("invalid -server URL %q", server)
	}
	return &Publisher{base: base, client: &http.Client{Timeout: 30 * time.Minute}}, nil
}

// send performs one publishing request and fails unless it got want (or
// any of want).
func (p *Publisher) send(method, path string, body io.Reader, want ...int) error {
	u := p.base.ResolveReference(&url.URL{Path: "api/v1/" + path})
	req, err := http.NewRequest(method, u.String(), body)
	if err != nil {
		return err
	}
	if p.Token != "" {
		req.Header.Set("Authorization", "Bearer "+p.Token)
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

// ProviderRelease is a provider release to publish: the files
// terraform-provider-TYPE_VERSION_* in Dir (archives, SHA256SUMS and its
// signature), the public key in KeyFile that verifies the signature, and
// the plugin protocols the release speaks. Dir may be a release directory
// as goreleaser makes it: the _manifest.json there (which SHA256SUMS
// lists) gives the protocols when Protocols is empty, and the files the
// protocol does not serve (the manifest, goreleaser's own metadata and
// build directories) are not uploaded.
type ProviderRelease struct {
	Address   string // NAMESPACE/TYPE
	Version   string
	Dir       string
	KeyFile   string
	Protocols []string
}

// Provider publishes r and returns the number of files uploaded.
func (p *Publisher) Provider(r ProviderRelease) (int, error) {
	ns, typ, ok := strings.Cut(r.Address, "/")
	if !ok || strings.Contains(typ, "/") {
		return 0, fmt.Errorf("invalid provider address %q: want NAMESPACE/TYPE", r.Address)
	}
	if r.KeyFile == "" {
		return 0, errors.New("publish provider needs -key=FILE, the public key that verifies the signature")
	}
	armored, err := os.ReadFile(r.KeyFile)
	if err != nil {
		return 0, err
	}
	keyID, err := armoredKeyID(armored)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", r.KeyFile, err)
	}
	prefix := "terraform-provider-" + typ + "_" + r.Version + "_"
	found, err := filepath.Glob(filepath.Join(r.Dir, prefix+"*"))
	if err != nil {
		return 0, err
	}
	var names []string
	for _, name := range found {
		if releaseFileServed(filepath.Base(name), prefix) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return 0, fmt.Errorf("no %s* files in %s", prefix, r.Dir)
	}
	if len(r.Protocols) == 0 {
		if r.Protocols, err = manifestProtocols(filepath.Join(r.Dir, prefix+"manifest.json")); err != nil {
			return 0, err
		}
	}
	for _, name := range names {
		if err := p.upload("providers/"+ns+"/"+typ+"/"+r.Version+"/"+filepath.Base(name), name); err != nil {
			return 0, err
		}
	}
	body, _ := json.Marshal(map[string]any{
		"protocols":       r.Protocols,
		"gpg_public_keys": []map[string]string{{"key_id": keyID, "ascii_armor": string(armored)}},
	})
	if err := p.send(http.MethodPost, "providers/"+ns+"/"+typ+"/"+r.Version, bytes.NewReader(body), http.StatusCreated); err != nil {
		return 0, err
	}
	return len(names), nil
}

// releaseFileServed reports whether a release file is one the registry
// protocol serves: an archive PREFIX_OS_ARCH.zip, PREFIX_SHA256SUMS or its
// .sig.
func releaseFileServed(name, prefix string) bool {
	rest := strings.TrimPrefix(name, prefix)
	if rest == "SHA256SUMS" || rest == "SHA256SUMS.sig" {
		return true
	}
	osArch, ok := strings.CutSuffix(rest, ".zip")
	goos, arch, ok2 := strings.Cut(osArch, "_")
	return ok && ok2 && goos != "" && arch != "" && !strings.ContainsAny(arch, "_/")
}

// manifestProtocols reads the protocol versions of goreleaser's release
// manifest ({"metadata": {"protocol_versions": [...]}}); none when the
// file is missing.
func manifestProtocols(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct {
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc.Metadata.ProtocolVersions, nil
}

func (p *Publisher) upload(path, file string) error {
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

// Module publishes version of the module at addr (NAMESPACE/NAME/SYSTEM)
// from path: a directory, packed here, or an archive sent as it is.
func (p *Publisher) Module(addr, version, path string) error {
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
	return p.send(http.MethodPut, "modules/"+addr+"/"+version, body, http.StatusCreated)
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

// Mirror imports the archives HOST/NAMESPACE/TYPE/*.zip of the providers
// mirror directory dir, calling imported (if not nil) with each one's
// slash-separated path below dir once it is in. A failed upload does not
// stop the others; the errors are joined.
func (p *Publisher) Mirror(dir string, imported func(rel string)) error {
	zips, err := filepath.Glob(filepath.Join(dir, "*", "*", "*", "*.zip"))
	if err != nil {
		return err
	}
	sort.Strings(zips)
	if len(zips) == 0 {
		return fmt.Errorf("no HOST/NAMESPACE/TYPE/*.zip archives in %s", dir)
	}
	var errs []error
	for _, z := range zips {
		rel, _ := filepath.Rel(dir, z)
		if err := p.upload("mirror/"+filepath.ToSlash(rel), z); err != nil {
			errs = append(errs, err)
			continue
		}
		if imported != nil {
			imported(filepath.ToSlash(rel))
		}
	}
	return errors.Join(errs...)
}
