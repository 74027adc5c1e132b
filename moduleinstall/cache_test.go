package moduleinstall

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tfdeps/tfdeps/internal/registrytest"
)

// gitLog puts a git wrapper first on PATH that logs each command's
// subcommand to a file, and returns a function counting the logged
// subcommands named sub. It also makes the test's commits reproducible.
func gitLog(t *testing.T) func(sub string) int {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	script := fmt.Sprintf("#!/bin/sh\necho \"$1\" >> %q\nexec %q \"$@\"\n", log, real)
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, kv := range []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + bin} {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return func(sub string) int {
		b, _ := os.ReadFile(log)
		n := 0
		for _, l := range strings.Split(string(b), "\n") {
			if l == sub {
				n++
			}
		}
		return n
	}
}

// git runs git in dir.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// gitRepo makes a bare repository at base/NAME.git with one commit
// holding files, tagged v1.0.0 (annotated) and on branch main.
func gitRepo(t *testing.T, base, name string, files map[string]string) string {
	t.Helper()
	work := filepath.Join(base, name+"-work")
	writeFiles(t, work, files)
	git(t, work, "init", "-q", "-b", "main", ".")
	git(t, work, "add", "-A")
	git(t, work, "commit", "-q", "-m", "v1")
	git(t, work, "tag", "-a", "-m", "v1", "v1.0.0")
	bare := filepath.Join(base, name+".git")
	git(t, base, "clone", "-q", "--bare", work, bare)
	return bare
}

func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// installRoots installs n root modules under base, each with the
// main.tf, with one shared cache, checking each against the first.
func installRoots(t *testing.T, n int, base string, opts Options, mainTF string) {
	t.Helper()
	opts.Cache = OpenCache(filepath.Join(base, "cache"))
	var first []string
	for i := 0; i < n; i++ {
		dir := filepath.Join(base, fmt.Sprintf("root%02d", i))
		root := writeRoot(t, dir, map[string]string{"main.tf": mainTF})
		rec := &recorder{}
		o := opts
		o.Events = rec
		inDir(t, dir, func() {
			if diags := Install(context.Background(), root, o); diags.HasErrors() {
				t.Fatalf("root %d: %s", i, diags)
			}
		})
		got := treeListing(t, filepath.Join(dir, ".terraform", "modules"))
		if i == 0 {
			first = got
			continue
		}
		if diff := cmp.Diff(first, got); diff != "" {
			t.Fatalf("root %d: .terraform/modules differs from root 0 (-root0 +got):\n%s", i, diff)
		}
	}
}

// treeListing lists a tree: each entry's path, mode and content hash
// (inside .git only the path: its logs and index hold clone times).
func treeListing(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		line := rel + " " + info.Mode().String()
		if strings.Contains(filepath.ToSlash(rel), ".git/") {
			out = append(out, rel)
			return nil
		}
		if info.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			line += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		out = append(out, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMonorepoGitPackagesFetchedOnce: 6 root modules calling 5 git
// repositories (a tag twice, a branch with a subdirectory, the default
// branch, a shallow clone) clone each package once through the shared
// cache; later roots only ask "git ls-remote" for the commit. Each root
// gets the same .terraform/modules, with .git in the first install of a
// package and not in its copy, as tofu leaves it.
func TestMonorepoGitPackagesFetchedOnce(t *testing.T) {
	count := gitLog(t)
	base := t.TempDir()
	var b strings.Builder
	for i := 0; i < 5; i++ {
		repo := gitRepo(t, base, fmt.Sprintf("r%d", i), map[string]string{"main.tf": fmt.Sprintf("# repo %d\n", i), "modules/sub/main.tf": ""})
		for _, s := range []struct{ name, src string }{
			{"tag", "?ref=v1.0.0"}, {"again", "?ref=v1.0.0"}, {"branch", "//modules/sub?ref=main"}, {"head", ""}, {"shallow", "?ref=v1.0.0&depth=1"},
		} {
			if i > 0 && s.name != "tag" {
				continue
			}
			fmt.Fprintf(&b, "module \"%s%d\" {\n  source = \"git::file://%s%s\"\n}\n", s.name, i, filepath.ToSlash(repo), s.src)
		}
	}
	before := count("clone")
	installRoots(t, 6, base, Options{}, b.String())
	// r0 has 4 packages (tag and again share one), r1–r4 one each.
	if got := count("clone") - before; got != 8 {
		t.Errorf("%d git clones for 6 roots, want 8 (one per package)", got)
	}
	mods := filepath.Join(base, "root05", ".terraform", "modules")
	for dir, want := range map[string]bool{"again0": true, "tag0": false, "shallow0": true, "branch0": true, "tag3": true} {
		if got := isDir(filepath.Join(mods, dir, ".git")); got != want {
			t.Errorf("%s/.git exists = %v, want %v", dir, got, want)
		}
	}
	if got := git(t, filepath.Join(mods, "tag3"), "rev-parse", "HEAD"); got != git(t, filepath.Join(base, "r3.git"), "rev-parse", "v1.0.0^{commit}") {
		t.Errorf("tag3 checked out at %s, not v1.0.0", got)
	}
}

// TestGitCacheFollowsRef: a branch that moves on is a new commit, so a
// root installed after the push gets the new content, not the cached one.
func TestGitCacheFollowsRef(t *testing.T) {
	count := gitLog(t)
	base := t.TempDir()
	repo := gitRepo(t, base, "r", map[string]string{"main.tf": "# one\n"})
	cache := OpenCache(filepath.Join(base, "cache"))
	mainTF := fmt.Sprintf("module \"m\" {\n  source = \"git::file://%s?ref=main\"\n}\n", filepath.ToSlash(repo))
	install := func(name string) string {
		dir := filepath.Join(base, name)
		root := writeRoot(t, dir, map[string]string{"main.tf": mainTF})
		inDir(t, dir, func() {
			if diags := Install(context.Background(), root, Options{Cache: cache, Events: &recorder{}}); diags.HasErrors() {
				t.Fatal(diags)
			}
		})
		b, err := os.ReadFile(filepath.Join(dir, ".terraform", "modules", "m", "main.tf"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	before := count("clone")
	install("a")
	install("b")
	if got := count("clone") - before; got != 1 {
		t.Fatalf("%d clones before the push, want 1", got)
	}
	work := filepath.Join(base, "r-work")
	writeFiles(t, work, map[string]string{"main.tf": "# two\n"})
	git(t, work, "commit", "-q", "-am", "v2")
	git(t, work, "push", "-q", repo, "main")
	if got := install("c"); got != "# two\n" {
		t.Errorf("after the push: main.tf = %q, want the new commit's", got)
	}
	if got := count("clone") - before; got != 2 {
		t.Errorf("%d clones, want 2", got)
	}
}

// httpModules serves 5 archives (tar.gz, zip, one with a checksum, one
// with ?archive=) and returns the calls of a root.
func httpModules(t *testing.T) (*registrytest.Server, Options, string) {
	var mods []registrytest.Module
	for i := 0; i < 5; i++ {
		format := "tar.gz"
		if i%2 == 1 {
			format = "zip"
		}
		mods = append(mods, registrytest.Module{Namespace: "acme", Name: fmt.Sprintf("h%d", i), System: "aws", Versions: []registrytest.ModuleVersion{{
			Version: "1.0.0", Format: format,
			Files: map[string]string{"main.tf": fmt.Sprintf("# h%d\n", i), "run.sh*": "#!/bin/sh\n"},
		}}})
	}
	srv, opts := fakeRegistry(t, mods)
	var b strings.Builder
	for i, m := range mods {
		src := srv.ModuleArchiveURL(m.Namespace, m.Name, m.System, m.Versions[0])
		switch i {
		case 2:
			body, err := registrytest.BuildModuleArchive(m.Versions[0].Format, "", m.Versions[0].Files)
			if err != nil {
				t.Fatal(err)
			}
			src += fmt.Sprintf("?checksum=sha256:%x", sha256.Sum256(body))
		case 4:
			src += "?archive=tar.gz"
		}
		fmt.Fprintf(&b, "module \"h%d\" {\n  source = %q\n}\nmodule \"twice%d\" {\n  source = %q\n}\n", i, src, i, src)
	}
	return srv, opts, b.String()
}

// TestMonorepoHTTPPackagesFetchedOnce: 20 root modules calling the same 5
// http(s) packages download each archive once through the shared cache.
func TestMonorepoHTTPPackagesFetchedOnce(t *testing.T) {
	srv, opts, mainTF := httpModules(t)
	base := t.TempDir()
	installRoots(t, 20, base, opts, mainTF)
	if got := archiveGets(srv); got != 5 {
		t.Errorf("%d archive downloads for 20 roots, want 5 (one per package)", got)
	}
	info, err := os.Stat(filepath.Join(base, "root19", ".terraform", "modules", "twice1", "run.sh"))
	if err != nil || info.Mode().Perm() != 0o755 {
		t.Errorf("run.sh from the cache: %v %v, want mode 0755", info, err)
	}
}

// TestUpgradeRefreshesHTTPPackages: an upgrade downloads again the http
// packages whose address does not pin their content, and not the one
// with a checksum.
func TestUpgradeRefreshesHTTPPackages(t *testing.T) {
	srv, opts, mainTF := httpModules(t)
	dir := t.TempDir()
	opts.Cache = OpenCache(filepath.Join(dir, "cache"))
	opts.Events = &recorder{}
	root := writeRoot(t, filepath.Join(dir, "root"), map[string]string{"main.tf": mainTF})
	inDir(t, filepath.Join(dir, "root"), func() {
		for _, upgrade := range []bool{false, true} {
			o := opts
			o.Upgrade = upgrade
			if diags := Install(context.Background(), root, o); diags.HasErrors() {
				t.Fatal(diags)
			}
		}
	})
	if got := archiveGets(srv); got != 9 {
		t.Errorf("%d archive downloads, want 9 (5, then 4 again: all but the checksummed one)", got)
	}
}

// TestCorruptCacheEntryIsRefetched: an entry whose files were changed is
// detected while copied out, removed, and the package fetched again.
func TestCorruptCacheEntryIsRefetched(t *testing.T) {
	srv, opts := fakeRegistry(t, sharedModules()[:1])
	base := t.TempDir()
	opts.Cache = OpenCache(filepath.Join(base, "cache"))
	opts.Events = &recorder{}
	mainTF := "module \"m\" {\n  source = \"acme/m0/aws\"\n}\n"
	for i, tamper := range []bool{false, true} {
		dir := filepath.Join(base, fmt.Sprint(i))
		root := writeRoot(t, dir, map[string]string{"main.tf": mainTF})
		if tamper {
			files, _ := filepath.Glob(filepath.Join(base, "cache", "v1", "*", "pkg", "main.tf"))
			if len(files) != 1 {
				t.Fatalf("cache entries: %v", files)
			}
			if err := os.WriteFile(files[0], []byte("tampered"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		inDir(t, dir, func() {
			if diags := Install(context.Background(), root, opts); diags.HasErrors() {
				t.Fatal(diags)
			}
		})
		b, _ := os.ReadFile(filepath.Join(dir, ".terraform", "modules", "m", "main.tf"))
		if strings.Contains(string(b), "tampered") {
			t.Fatalf("root %d installed the tampered file", i)
		}
	}
	if got := archiveGets(srv); got != 2 {
		t.Errorf("%d archive downloads, want 2 (the second after the tampering)", got)
	}
}

// TestResolveGitRef: the commit the clone will check out, as go-getter
// chooses it, or not resolvable without cloning.
func TestResolveGitRef(t *testing.T) {
	gitLog(t)
	base := t.TempDir()
	repo := gitRepo(t, base, "r", map[string]string{"main.tf": ""})
	work := filepath.Join(base, "r-work")
	first := git(t, work, "rev-parse", "HEAD")
	// A branch named like the tag, one commit ahead.
	git(t, work, "checkout", "-q", "-b", "v1.0.0")
	git(t, work, "commit", "-q", "--allow-empty", "-m", "ahead")
	ahead := git(t, work, "rev-parse", "HEAD")
	git(t, work, "push", "-q", repo, "refs/heads/v1.0.0")
	url := "git::file://" + filepath.ToSlash(repo)
	for _, tc := range []struct{ name, pkg, want string }{
		{"tag before branch", url + "?ref=v1.0.0", first},
		{"branch before tag with depth", url + "?ref=v1.0.0&depth=1", ahead},
		{"default branch", url, first},
		{"branch", url + "?ref=main", first},
		{"full commit", url + "?ref=" + first, first},
		{"short commit", url + "?ref=" + first[:7], ""},
		{"unknown", url + "?ref=nope", ""},
		{"ssh key", url + "?ref=main&sshkey=AAAA", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resolveGitRef(context.Background(), tc.pkg)
			if tc.want == "" {
				if err == nil {
					t.Errorf("resolved to %s, want not resolvable", got)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %q, %v; want %s", got, err, tc.want)
			}
		})
	}
}
