package ociauth

import (
	"context"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/tfdeps/tfdeps/cliconfig"
)

func authJSON(entries map[string]string, extra string) string {
	var parts []string
	for k, v := range entries {
		parts = append(parts, `"`+k+`":{"auth":"`+base64.StdEncoding.EncodeToString([]byte(v))+`"}`)
	}
	s := `{"auths":{` + strings.Join(parts, ",") + `}`
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func TestLookup(t *testing.T) {
	files := map[string]string{
		"/home/u/.docker/config.json": authJSON(map[string]string{
			"reg.example.com":          "dom:1",
			"reg.example.com/team":     "team:2",
			"reg.example.com/team/app": "app:3",
			"other.example.com/x/y":    "xy:4",
		}, `"credHelpers":{"helped.example.com":"dom"},"credsStore":"global"`),
		"/xdg/containers/auth.json": authJSON(map[string]string{"reg.example.com/team": "podman:9"}, ""),
	}
	env := Env{
		GOOS:   "linux",
		Getenv: func(k string) string { return map[string]string{"HOME": "/home/u", "XDG_CONFIG_HOME": "/xdg"}[k] },
		ReadFile: func(p string) ([]byte, error) {
			if s, ok := files[p]; ok {
				return []byte(s), nil
			}
			return nil, os.ErrNotExist
		},
		Helper: func(_ context.Context, name, url string) (string, string, error) {
			return "helper-" + name, "for " + url, nil
		},
	}
	cfg := &cliconfig.Config{OCICredentials: []*cliconfig.OCICredentials{
		{RepositoryPrefix: "reg.example.com/team/app/deep", Username: "blk", Password: "5"},
		{RepositoryPrefix: "tok.example.com", AccessToken: "a", RefreshToken: "r"},
	}}
	p, err := New(cfg, env)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		domain, repo string
		want         auth.Credential
		notFound     bool
	}{
		{"reg.example.com", "other", auth.Credential{Username: "dom", Password: "1"}, false},
		// Podman's file is searched first: it wins the tie with Docker's.
		{"reg.example.com", "team/x", auth.Credential{Username: "podman", Password: "9"}, false},
		{"reg.example.com", "team/app", auth.Credential{Username: "app", Password: "3"}, false},
		{"reg.example.com", "team/app/deep/er", auth.Credential{Username: "blk", Password: "5"}, false},
		{"reg.example.com", "teamx", auth.Credential{Username: "dom", Password: "1"}, false},
		{"tok.example.com", "a", auth.Credential{AccessToken: "a", RefreshToken: "r"}, false},
		{"helped.example.com", "a", auth.Credential{Username: "helper-dom", Password: "for https://helped.example.com"}, false},
		{"any.example.com", "a", auth.Credential{Username: "helper-global", Password: "for https://any.example.com"}, false},
		{"other.example.com", "x", auth.Credential{Username: "helper-global", Password: "for https://other.example.com"}, false},
	}
	for _, tt := range tests {
		got, err := p.Lookup(context.Background(), tt.domain, tt.repo)
		if err != nil {
			t.Errorf("%s/%s: %v", tt.domain, tt.repo, err)
			continue
		}
		if got != tt.want {
			t.Errorf("%s/%s: got %+v, want %+v", tt.domain, tt.repo, got, tt.want)
		}
	}
	// The repository function never answers for another host.
	c, err := p.RepositoryCredentialFunc("reg.example.com", "team/app")(context.Background(), "evil.example.com")
	if err != nil || c != auth.EmptyCredential {
		t.Errorf("other host: %+v, %v", c, err)
	}
	c, err = p.CredentialFunc()(context.Background(), "reg.example.com")
	if err != nil || c.Username != "dom" {
		t.Errorf("CredentialFunc: %+v, %v", c, err)
	}
}

func TestNoAmbientAndErrors(t *testing.T) {
	env := Env{GOOS: "linux", Getenv: func(string) string { return "/h" },
		ReadFile: func(string) ([]byte, error) { return []byte(`{`), nil }}
	// A searched file that does not parse makes every searched file ignored.
	p, err := New(nil, env)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Lookup(context.Background(), "r.example.com", "a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("want not found, got %v", err)
	}
	if c, err := p.CredentialFunc()(context.Background(), "r.example.com"); err != nil || c != auth.EmptyCredential {
		t.Errorf("CredentialFunc without credentials: %+v %v", c, err)
	}
	// A listed file that does not parse is an error.
	cfg := &cliconfig.Config{OCIDefaultCredentials: []*cliconfig.OCIDefaultCredentials{{DiscoverAmbientCredentials: true, DockerStyleConfigFiles: []string{"/x.json"}}}}
	if _, err := New(cfg, env); err == nil || !strings.Contains(err.Error(), "failed to read Docker-style config files: parsing /x.json: invalid JSON syntax") {
		t.Errorf("listed file: %v", err)
	}
	// Discovery off: nothing is read.
	cfg = &cliconfig.Config{OCIDefaultCredentials: []*cliconfig.OCIDefaultCredentials{{}}}
	p, err = New(cfg, Env{ReadFile: func(string) ([]byte, error) { t.Fatal("read"); return nil, nil }})
	if err != nil || len(p.Sources()) != 0 {
		t.Errorf("discovery off: %v %v", p.Sources(), err)
	}
	// An auth entry without a colon is reported, naming the file, not the secret.
	env.ReadFile = func(string) ([]byte, error) {
		return []byte(`{"auths":{"r.example.com":{"auth":"` + base64.StdEncoding.EncodeToString([]byte("secretnocolon")) + `"}}}`), nil
	}
	p, _ = New(nil, env)
	_, err = p.Lookup(context.Background(), "r.example.com", "a")
	if err == nil || strings.Contains(err.Error(), "secretnocolon") || !strings.Contains(err.Error(), "does not have base64-encoded username:password pair") {
		t.Errorf("bad auth entry: %v", err)
	}
}

func TestSearchLocations(t *testing.T) {
	env := Env{GOOS: "linux", Getenv: func(k string) string {
		return map[string]string{"HOME": "/h", "XDG_RUNTIME_DIR": "/run/u"}[k]
	}}
	got := strings.Join(SearchLocations(env), " ")
	want := "/run/u/containers/auth.json /h/.config/containers/auth.json /h/.docker/config.json /h/.dockercfg"
	if got != want {
		t.Errorf("linux: %s", got)
	}
	env.GOOS = "darwin"
	got = strings.Join(SearchLocations(env), " ")
	want = "/h/.config/containers/auth.json /h/.config/containers/auth.json /h/.docker/config.json /h/.dockercfg"
	if got != want {
		t.Errorf("darwin: %s", got)
	}
}

// TestHelperProgram runs a real docker-credential-NAME program.
func TestHelperProgram(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("shell script helper")
	}
	dir := t.TempDir()
	script := "#!/bin/sh\nread url\necho '{\"ServerURL\":\"'$url'\",\"Username\":\"hu\",\"Secret\":\"hs\"}'\n"
	if err := os.WriteFile(filepath.Join(dir, "docker-credential-fake"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	cfg := &cliconfig.Config{
		OCIDefaultCredentials: []*cliconfig.OCIDefaultCredentials{{DefaultDockerCredentialHelper: "fake"}},
		OCICredentials:        []*cliconfig.OCICredentials{{RepositoryPrefix: "m.example.com", DockerCredentialHelper: "missing"}},
	}
	p, err := New(cfg, Env{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := p.Lookup(context.Background(), "r.example.com", "a")
	if err != nil || c.Username != "hu" || c.Password != "hs" {
		t.Errorf("helper: %+v %v", c, err)
	}
	if _, err := p.Lookup(context.Background(), "m.example.com", "a"); err == nil || !strings.Contains(err.Error(), `from "missing" credential helper: "missing" credential helper failed`) {
		t.Errorf("missing helper: %v", err)
	}
}
