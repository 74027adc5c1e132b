package providerinstall

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/providersource"
	"github.com/tfdeps/tfdeps/registry"
)

// emptyPackageH1 is the "h1:" hash of a package with no files.
const emptyPackageH1 = hashes.Hash("h1:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")

// packageInstall is step 6 of init.md §5: installing one package into a
// Dir (the target or the plugin cache) under the package's lock.
type packageInstall struct {
	task    *fetchTask
	meta    PackageMeta
	into    Dir
	toCache bool
	// allowed are the lock's hashes the package must match (empty: any).
	allowed []hashes.Hash
}

func (pi *packageInstall) dir() string {
	t := pi.task
	return pi.into.PackageDir(t.p, t.v, t.platform())
}

// run installs the package and returns its authentication result and,
// when known, the "h1:" hash of the installed directory. In the Terraform
// flavour the directories a failed install created are removed at the end
// of the run (layout_terraform.go).
func (pi *packageInstall) run(ctx context.Context) (*AuthResult, hashes.Hash, error) {
	if pi.task.run.in.Flavour != flavour.Terraform {
		return pi.install(ctx)
	}
	created := missingDirs(pi.dir())
	auth, h1, err := pi.install(ctx)
	if err != nil {
		pi.task.run.created.add(created)
	}
	return auth, h1, err
}

func (pi *packageInstall) install(ctx context.Context) (*AuthResult, hashes.Hash, error) {
	t := pi.task
	lock, err := pi.into.Lock(ctx, t.p, t.v, t.platform(), LockOptions{OnWait: func() {
		t.pe.sendNow(func(ev *Events) { ev.WaitingForCacheLock(pi.into.Base()) })
	}})
	if err != nil {
		return nil, "", err
	}
	defer lock.Unlock()
	dir := pi.dir()

	if done, auth, h1 := pi.alreadyThere(dir); done {
		return auth, h1, nil
	}
	switch loc := pi.meta.Location.(type) {
	case providersource.HTTPURL:
		return pi.fromHTTP(ctx, loc)
	case providersource.LocalArchive:
		a, err := localArchive(string(loc))
		if err != nil {
			return nil, "", err
		}
		return pi.fromArchive(ctx, a, false, pi.meta.Authentication)
	case providersource.LocalDir:
		return nil, "", pi.fromDir(string(loc))
	case providersource.OCIBlob:
		return pi.fromOCI(ctx, loc)
	}
	return nil, "", fmt.Errorf("unsupported package location %T", pi.meta.Location)
}

// alreadyThere is step 6.2: a package directory that exists may be kept.
func (pi *packageInstall) alreadyThere(dir string) (bool, *AuthResult, hashes.Hash) {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return false, nil, ""
	}
	t := pi.task
	if pi.toCache && len(pi.allowed) == 0 && t.run.in.CacheMayBreakLockFile {
		if _, err := FindExecutable(dir, t.p.Type); err == nil {
			return true, nil, ""
		}
		return false, nil, ""
	}
	if len(pi.allowed) == 0 {
		auth, h1, ok := pi.trustInstalled(dir)
		return ok, auth, h1
	}
	inst := inDir(t.p, t.v, t.platform(), dir, &t.run.in.hasher)
	matching, err := hashes.Matching(inst, pi.allowed)
	if err != nil || len(matching) == 0 {
		return false, nil, ""
	}
	h1, _ := inst.H1()
	res := &AuthResult{}
	res.Add(matching[0], registry.Disposition{VerifiedLocally: true, Platform: t.platform()})
	return true, res, h1
}

// fromHTTP downloads the archive next to the package directory, then
// installs it as a local archive after the source's authentication.
func (pi *packageInstall) fromHTTP(ctx context.Context, loc providersource.HTTPURL) (*AuthResult, hashes.Hash, error) {
	holding, err := newStagingDir(pi.dir())
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(holding)
	a, err := pi.download(ctx, loc, holding)
	if err != nil {
		return nil, "", err
	}
	defer a.Remove()
	return pi.authenticateAndExtract(ctx, a)
}

// fromOCI is fromHTTP for a blob of an OCI repository: a lock that has
// hashes but not the blob's "zh:" refuses it before the download, as
// OpenTofu does.
func (pi *packageInstall) fromOCI(ctx context.Context, loc providersource.OCIBlob) (*AuthResult, hashes.Hash, error) {
	t := pi.task
	if len(pi.allowed) > 0 && !slices.Contains(pi.allowed, loc.ZH()) {
		return nil, "", &ChecksumMismatchError{Provider: t.p, Version: t.v, Flavour: t.run.in.Flavour}
	}
	holding, err := newStagingDir(pi.dir())
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(holding)
	a, err := loc.Fetch(ctx, holding, t.platform())
	if err != nil {
		return nil, "", err
	}
	defer a.Remove()
	return pi.authenticateAndExtract(ctx, a)
}

// authenticateAndExtract authenticates a downloaded archive, then checks
// and extracts it.
func (pi *packageInstall) authenticateAndExtract(ctx context.Context, a *Archive) (*AuthResult, hashes.Hash, error) {
	var auth *AuthResult
	if pi.meta.Authentication != nil {
		var err error
		if auth, err = pi.meta.Authentication.AuthenticateArchive(a); err != nil {
			return nil, "", err
		}
	}
	h1, err := pi.checkAndExtract(ctx, a, true, auth)
	return auth, h1, err
}

func localArchive(path string) (*Archive, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	return &Archive{Path: path, Size: info.Size()}, nil
}

// fromArchive installs a local zip: authentication, the lock-hash check,
// then extraction (or keeping an identical existing directory).
// a.SHA256 must be set when hashed is true.
func (pi *packageInstall) fromArchive(ctx context.Context, a *Archive, hashed bool, authn providersource.Authentication) (*AuthResult, hashes.Hash, error) {
	t := pi.task
	needZH := authn != nil || slices.ContainsFunc(pi.allowed, func(h hashes.Hash) bool { return h.Scheme() == hashes.SchemeZip })
	if needZH && !hashed {
		if err := sha256File(a); err != nil {
			return nil, "", fmt.Errorf("failed to calculate checksum for %s %s package at %s: %s", t.p, t.v, a.Path, err)
		}
	}
	var auth *AuthResult
	if authn != nil {
		var err error
		if auth, err = authn.AuthenticateArchive(a); err != nil {
			return nil, "", err
		}
	}
	h1, err := pi.checkAndExtract(ctx, a, needZH, auth)
	return auth, h1, err
}

// checkAndExtract checks the archive against the lock's hashes and
// extracts it. hashed says whether a.SHA256 is set; auth is the archive's
// authentication result (nil: none).
func (pi *packageInstall) checkAndExtract(ctx context.Context, a *Archive, hashed bool, auth *AuthResult) (hashes.Hash, error) {
	t := pi.task
	zhOK := len(pi.allowed) == 0 || (hashed && slices.Contains(pi.allowed, a.ZH()))
	if !zhOK && !slices.ContainsFunc(pi.allowed, func(h hashes.Hash) bool { return h.Scheme() == hashes.SchemeH1 }) {
		return "", &ChecksumMismatchError{Provider: t.p, Version: t.v, Flavour: t.run.in.Flavour}
	}
	var known hashes.Hash
	if hashed {
		known = pi.knownH1(a, auth)
	}
	return pi.extractChecked(ctx, a, zhOK, known)
}

// extractChecked unpacks the archive into a holding directory beside the
// package directory, checks its "h1:" against the lock unless zhOK, and
// moves it into place — or keeps an existing identical directory. known,
// when set, is the package's "h1:" as knownH1 found it: the files are then
// written without hashing them (unless a directory is already there).
func (pi *packageInstall) extractChecked(ctx context.Context, a *Archive, zhOK bool, known hashes.Hash) (hashes.Hash, error) {
	t := pi.task
	dir := pi.dir()
	if _, err := os.Lstat(dir); err == nil {
		known = "" // compared with the archive's content below: compute it
	}
	holding, err := newStagingDir(dir)
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(holding)
	unpacked := filepath.Join(holding, "package")
	var h1 hashes.Hash
	shared := t.run.in.Packages != nil && a.SHA256 != ([32]byte{})
	if sp := t.run.in.Packages; shared {
		// Extracted once for the run, linked here (SharedPackages).
		var src string
		if src, h1, err = sp.extracted(ctx, a, t.run.in.Extract); err == nil {
			err = sp.linkTree(src, unpacked)
		}
	} else {
		h1, err = extractArchive(ctx, a, unpacked, t.run.in.Extract, known == "")
	}
	if err == nil && known != "" {
		h1 = known
	}
	if err != nil {
		return "", err
	}
	if !zhOK && !slices.Contains(pi.allowed, h1) {
		return "", &ChecksumMismatchError{Provider: t.p, Version: t.v, Flavour: t.run.in.Flavour}
	}
	var stamps []fileStamp
	if memoSupported {
		_, stamps, _ = stampPackage(unpacked) // fingerprints for the memo, taken in private
	}
	if existing, err := existingPackageHash(&t.run.in.hasher, dir); err != nil {
		return "", err
	} else if existing != "" {
		if existing != h1 {
			return "", fmt.Errorf("existing cached package at %s does not match the content of the downloaded package; does it contain local modifications?", dir)
		}
		return h1, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := commitStaging(unpacked, dir); err != nil {
		return "", err
	}
	if stamps != nil {
		t.run.in.hasher.rememberWritten(dir, h1, stamps)
		if shared {
			t.run.in.Packages.noteLinked(&t.run.in.hasher, dir, h1, stamps)
		}
	}
	return h1, nil
}

// existingPackageHash returns the "h1:" of the package directory at dir,
// or "" when there is none or it is empty.
func existingPackageHash(hasher *dirHasher, dir string) (hashes.Hash, error) {
	if _, err := os.Lstat(dir); err != nil {
		return "", nil
	}
	h, err := hasher.H1(dir, hasher.memoPath(dir))
	if err != nil {
		return "", fmt.Errorf("failed to calculate checksum for existing cached provider package at %s: %s", dir, err)
	}
	if h == emptyPackageH1 {
		return "", nil
	}
	return h, nil
}

// sha256File sets a.SHA256 from the file's bytes.
func sha256File(a *Archive) error {
	f, err := os.Open(a.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, struct{ io.Reader }{f}, make([]byte, 256<<10)); err != nil {
		return err
	}
	copy(a.SHA256[:], h.Sum(nil))
	return nil
}
