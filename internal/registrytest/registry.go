package registrytest

import (
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
)

func (s *Server) findVersion(ns, typ, version string) (*Provider, *Version) {
	for i := range s.opts.Providers {
		p := &s.opts.Providers[i]
		if p.Namespace != ns || p.Type != typ {
			continue
		}
		for j := range p.Versions {
			if p.Versions[j].Version == version {
				return p, &p.Versions[j]
			}
		}
		return p, nil
	}
	return nil, nil
}

func platformsOf(v *Version) []string {
	if len(v.Platforms) == 0 {
		return DefaultPlatforms()
	}
	return v.Platforms
}

func protocolsOf(v *Version) []string {
	if v.Protocols == nil {
		return []string{"5.0"}
	}
	return v.Protocols
}

func hasPlatform(v *Version, platform string) bool {
	for _, p := range platformsOf(v) {
		if p == platform {
			return true
		}
	}
	return false
}

// Package returns the generated package of a configured provider version
// and platform, computing it on first use.
func (s *Server) Package(ns, typ, version, platform string) (PackageInfo, error) {
	_, v := s.findVersion(ns, typ, version)
	if v == nil || !hasPlatform(v, platform) {
		return PackageInfo{}, fmt.Errorf("no package %s/%s %s %s", ns, typ, version, platform)
	}
	id := packageID{Namespace: ns, Type: typ, Version: version, Platform: platform}
	s.mu.Lock()
	info, ok := s.packages[id]
	s.mu.Unlock()
	if ok {
		return info, nil
	}
	info, deflated, err := computePackage(id, v.Size, v.Deflate)
	if err != nil {
		return PackageInfo{}, err
	}
	s.mu.Lock()
	s.packages[id] = info
	if deflated != nil {
		s.deflated[id] = deflated
	}
	s.mu.Unlock()
	return info, nil
}

// SHA256SUMS returns the checksum document of a version: one "HEX  FILE"
// line per platform, sorted by file name.
func (s *Server) SHA256SUMS(ns, typ, version string) ([]byte, error) {
	_, v := s.findVersion(ns, typ, version)
	if v == nil {
		return nil, fmt.Errorf("no version %s/%s %s", ns, typ, version)
	}
	var lines []string
	for _, platform := range platformsOf(v) {
		info, err := s.Package(ns, typ, version, platform)
		if err != nil {
			return nil, err
		}
		lines = append(lines, fmt.Sprintf("%s  %s\n", info.SHA256, info.Filename))
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][66:] < lines[j][66:] })
	return []byte(strings.Join(lines, "")), nil
}

func (s *Server) serveVersions(w http.ResponseWriter, r *http.Request, rt route, f *Fault) {
	p, _ := s.findVersion(rt.ns, rt.typ, "")
	if p == nil {
		http.NotFound(w, r)
		return
	}
	type platform struct {
		OS   string `json:"os"`
		Arch string `json:"arch"`
	}
	type version struct {
		Version   string     `json:"version"`
		Protocols []string   `json:"protocols"`
		Platforms []platform `json:"platforms"`
	}
	doc := struct {
		Versions []version `json:"versions"`
		Warnings []string  `json:"warnings,omitempty"`
	}{Versions: []version{}, Warnings: s.opts.Warnings}
	for i := range p.Versions {
		v := &p.Versions[i]
		out := version{Version: v.Version, Protocols: protocolsOf(v)}
		for _, pl := range platformsOf(v) {
			osName, arch, _ := strings.Cut(pl, "_")
			out.Platforms = append(out.Platforms, platform{osName, arch})
		}
		doc.Versions = append(doc.Versions, out)
	}
	s.writeJSON(w, r, f, doc)
}

func (s *Server) servePackageMeta(w http.ResponseWriter, r *http.Request, rt route, f *Fault) {
	_, v := s.findVersion(rt.ns, rt.typ, rt.version)
	if v == nil || !hasPlatform(v, rt.platform) {
		http.NotFound(w, r)
		return
	}
	doc, err := s.packageMeta(rt, v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	s.writeJSON(w, r, f, doc)
}

func (s *Server) packageMeta(rt route, v *Version) (map[string]any, error) {
	info, err := s.Package(rt.ns, rt.typ, rt.version, rt.platform)
	if err != nil {
		return nil, err
	}
	p, _ := s.findVersion(rt.ns, rt.typ, "")
	keys, err := s.publishedKeys(p)
	if err != nil {
		return nil, err
	}
	base := fmt.Sprintf("%s/files/%s/%s/%s/", s.srv.URL, rt.ns, rt.typ, rt.version)
	sumsName := fmt.Sprintf("terraform-provider-%s_%s_SHA256SUMS", rt.typ, rt.version)
	osName, arch, _ := strings.Cut(rt.platform, "_")
	doc := map[string]any{
		"protocols":             protocolsOf(v),
		"os":                    osName,
		"arch":                  arch,
		"filename":              info.Filename,
		"download_url":          base + info.Filename,
		"shasums_url":           base + sumsName,
		"shasums_signature_url": base + sumsName + ".sig",
		"shasum":                info.SHA256,
		"signing_keys":          map[string]any{"gpg_public_keys": keys},
	}
	if !s.opts.NoPackagesMap && !s.opts.TerraformStyle {
		pkgs := map[string]any{}
		for _, pl := range platformsOf(v) {
			pi, err := s.Package(rt.ns, rt.typ, rt.version, pl)
			if err != nil {
				return nil, err
			}
			pkgs[pl] = map[string]any{"hashes": []string{pi.ZH(), pi.H1}, "package_size": pi.Size}
		}
		doc["packages"] = pkgs
	}
	return doc, nil
}

// signerKey is the key that signs p's SHA256SUMS.
func (s *Server) signerKey(p *Provider) Key {
	if p != nil && p.SignWith != TestKey {
		return p.SignWith
	}
	return s.opts.SignWith
}

func (s *Server) publishedKeys(p *Provider) ([]map[string]string, error) {
	keys := []map[string]string{}
	if s.opts.NoSigningKeys {
		return keys, nil
	}
	signer := s.signerKey(p)
	if s.keys[signer] == nil {
		return nil, fmt.Errorf("unknown test key %d", signer)
	}
	if s.opts.TerraformStyle {
		if signer == OtherKey {
			signer = TestKey
		}
		entry, err := s.terraformKeyEntry(signer, p != nil && p.BadTrustSignature)
		if err != nil {
			return nil, err
		}
		return append(keys, entry), nil
	}
	keys = append(keys, map[string]string{"key_id": s.testKey.KeyID(), "ascii_armor": s.testKey.publicPEM})
	if signer != TestKey && signer != OtherKey {
		keys = append(keys, map[string]string{"key_id": s.keys[signer].KeyID(), "ascii_armor": s.keys[signer].publicPEM})
	}
	return keys, nil
}

// terraformKeyEntry is a gpg_public_keys entry as the Terraform registry
// writes it.
func (s *Server) terraformKeyEntry(k Key, badTrust bool) (map[string]string, error) {
	key := s.keys[k]
	entry := map[string]string{
		"key_id":          key.KeyID(),
		"ascii_armor":     key.publicPEM,
		"trust_signature": "",
		"source":          "tfdeps test",
		"source_url":      "https://tfdeps.invalid/test-keys",
	}
	if k == PartnerKey {
		sig, err := key.trustSignature(badTrust)
		if err != nil {
			return nil, err
		}
		entry["trust_signature"] = sig
	}
	return entry, nil
}

func (s *Server) serveSums(w http.ResponseWriter, r *http.Request, rt route, f *Fault) {
	doc, err := s.SHA256SUMS(rt.ns, rt.typ, rt.version)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	signed := doc
	if f != nil && f.Kind == Tamper {
		doc = tamperSums(doc)
	}
	body := doc
	if rt.endpoint == Signature {
		if f != nil && f.Kind == BadSignature {
			signed = append(append([]byte(nil), signed...), "tampered\n"...)
		}
		p, _ := s.findVersion(rt.ns, rt.typ, "")
		signer := s.keys[s.signerKey(p)]
		if signer == nil {
			http.Error(w, "unknown test key", http.StatusInternalServerError)
			return
		}
		if body, err = signer.sign(signed); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
	}
	s.writeBody(w, r, f, "application/octet-stream", int64(len(body)), bytesGen(body))
}

// archiveID recovers the package from an archive file name.
func archiveID(rt route) (packageID, bool) {
	prefix := "terraform-provider-" + rt.typ + "_"
	name, ok := strings.CutPrefix(rt.file, prefix)
	if !ok || !strings.HasSuffix(name, ".zip") {
		return packageID{}, false
	}
	parts := strings.Split(strings.TrimSuffix(name, ".zip"), "_")
	if len(parts) < 3 {
		return packageID{}, false
	}
	n := len(parts)
	return packageID{
		Namespace: rt.ns, Type: rt.typ,
		Version:  strings.Join(parts[:n-2], "_"),
		Platform: parts[n-2] + "_" + parts[n-1],
	}, true
}

func (s *Server) serveArchive(w http.ResponseWriter, r *http.Request, rt route, file string, f *Fault) {
	id, ok := archiveID(rt)
	if !ok || (rt.version != "" && id.Version != rt.version) {
		http.NotFound(w, r)
		return
	}
	info, err := s.Package(id.Namespace, id.Type, id.Version, id.Platform)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	_, v := s.findVersion(id.Namespace, id.Type, id.Version)
	s.writeBody(w, r, f, "application/zip", info.Size, func(out io.Writer) error {
		if f != nil && f.Kind == Tamper {
			out = &tamperWriter{w: out, at: info.Size / 2}
		}
		s.mu.Lock()
		deflated := s.deflated[id]
		s.mu.Unlock()
		if deflated != nil {
			return writeDeflatedZip(out, id, deflated)
		}
		_, err := writeZip(out, id, v.Size)
		return err
	})
}

// tamperSums replaces every checksum in a SHA256SUMS document with zeros.
func tamperSums(doc []byte) []byte {
	lines := strings.SplitAfter(string(doc), "\n")
	for i, l := range lines {
		if len(l) > 64 {
			lines[i] = strings.Repeat("0", 64) + l[64:]
		}
	}
	return []byte(strings.Join(lines, ""))
}
