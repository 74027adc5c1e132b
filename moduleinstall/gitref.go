package moduleinstall

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// gitRefs resolves the ref of a git package to the commit go-getter's
// clone would check out, with one "git ls-remote" per package and run
// (no clone), so that the shared cache can key git packages by commit.
type gitRefs struct {
	mu sync.Mutex
	m  map[string]*onceResult[string]
}

// errNotResolvable: the ref cannot be resolved without cloning (an
// abbreviated commit, an ssh key, an ambiguous or unknown name); the
// package is then fetched without the cache.
var errNotResolvable = errors.New("git ref not resolvable without cloning")

var fullCommitID = regexp.MustCompile("^[0-9a-f]{40}$")

func (g *gitRefs) commit(ctx context.Context, pkg string) (string, error) {
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*onceResult[string]{}
	}
	o := g.m[pkg]
	if o == nil {
		o = &onceResult[string]{}
		g.m[pkg] = o
	}
	g.mu.Unlock()
	o.once.Do(func() { o.val, o.err = resolveGitRef(ctx, pkg) })
	return o.val, o.err
}

// gitSource is a git package as go-getter's git getter reads it: the URL
// given to git (without ref, depth and sshkey) and those parameters.
type gitSource struct {
	remote, ref, sshKey string
	depth               int
}

func parseGitSource(pkg string) (gitSource, error) {
	u, err := url.Parse(strings.TrimPrefix(pkg, "git::"))
	if err != nil {
		return gitSource{}, err
	}
	var s gitSource
	if q := u.Query(); len(q) > 0 {
		s.ref, s.sshKey = q.Get("ref"), q.Get("sshkey")
		if n, err := strconv.Atoi(q.Get("depth")); err == nil {
			s.depth = n
		}
		q.Del("ref")
		q.Del("sshkey")
		q.Del("depth")
		u.RawQuery = q.Encode()
	}
	s.remote = u.String()
	return s, nil
}

// resolveGitRef follows go-getter: without depth the clone checks out
// the commit that REF names in the clone (a tag before a branch), with
// depth "git clone --branch REF" (a branch before a tag); no ref is the
// remote's HEAD.
func resolveGitRef(ctx context.Context, pkg string) (string, error) {
	s, err := parseGitSource(pkg)
	if err != nil {
		return "", err
	}
	if s.sshKey != "" || strings.HasPrefix(s.ref, "-") {
		return "", errNotResolvable
	}
	if s.ref == "" {
		refs, err := lsRemote(ctx, s.remote, "--symref", "HEAD")
		if err != nil {
			return "", err
		}
		return pick(refs, "HEAD")
	}
	if fullCommitID.MatchString(s.ref) && s.depth <= 0 {
		return s.ref, nil
	}
	heads, tags := "refs/heads/"+s.ref, "refs/tags/"+s.ref
	refs, err := lsRemote(ctx, s.remote, "", heads, tags, tags+"^{}")
	if err != nil {
		return "", err
	}
	order := []string{tags + "^{}", tags, heads}
	if s.depth > 0 {
		order = []string{heads, tags + "^{}", tags}
	}
	return pick(refs, order...)
}

// pick returns the commit of the first name listed.
func pick(refs map[string]string, names ...string) (string, error) {
	for _, n := range names {
		if c, ok := refs[n]; ok {
			return c, nil
		}
	}
	return "", errNotResolvable
}

// lsRemote runs "git ls-remote [FLAG] -- REMOTE PATTERNS..." and returns
// ref name → object ID. It never prompts for credentials (over ssh only
// when no ssh command is configured through the environment).
func lsRemote(ctx context.Context, remote, flag string, patterns ...string) (map[string]string, error) {
	args := []string{"ls-remote"}
	if flag != "" {
		args = append(args, flag)
	}
	args = append(append(args, "--", remote), patterns...)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
	if os.Getenv("GIT_SSH_COMMAND") == "" && os.Getenv("GIT_SSH") == "" {
		// No passphrase or host-key prompt either: a failure only means the
		// package is fetched without the cache (the clone may prompt).
		cmd.Env = append(cmd.Env, "GIT_SSH_COMMAND=ssh -o BatchMode=yes")
	}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("git ls-remote: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	refs := map[string]string{}
	for _, line := range strings.Split(out.String(), "\n") {
		id, name, ok := strings.Cut(line, "\t")
		if ok && fullCommitID.MatchString(id) {
			refs[name] = id
		}
	}
	return refs, nil
}

// gitHead is the commit checked out in dir.
func gitHead(ctx context.Context, dir string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", "rev-parse", "HEAD")
	cmd.Dir = dir
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}
