package fleet_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tfdeps/tfdeps/fleet"
)

// Example finds the root modules of a repository and runs a function in
// each, two at a time; each root's output comes out whole and in root
// order, and the failed roots are listed at the end.
func Example() {
	repo, err := os.MkdirTemp("", "fleet-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(repo)
	for _, dir := range []string{"envs/prod", "envs/staging", "modules/net"} {
		os.MkdirAll(filepath.Join(repo, dir), 0o755)
	}
	roots := `terraform {
  required_providers {
    null = { source = "hashicorp/null" }
  }
}
module "net" { source = "../../modules/net" }
`
	os.WriteFile(filepath.Join(repo, "envs/prod/main.tf"), []byte(roots), 0o644)
	os.WriteFile(filepath.Join(repo, "envs/staging/main.tf"), []byte(roots), 0o644)
	os.WriteFile(filepath.Join(repo, "modules/net/main.tf"), []byte("terraform {\n  required_providers {\n    null = { source = \"hashicorp/null\" }\n  }\n}\n"), 0o644)

	found, err := fleet.Roots(repo) // modules/net is called by the others: not a root
	if err != nil {
		panic(err)
	}
	sum := fleet.Run(context.Background(), found, func(ctx context.Context, t *fleet.Task) fleet.Outcome {
		// The real work (workdir.Init in filepath.Join(repo, t.Root),
		// rendering into t.Stdout and t.Stderr) goes here.
		fmt.Fprintf(t.Stdout, "initialising %s\n", t.Root)
		if t.Root == "envs/staging" {
			return fleet.Outcome{Err: errors.New("backend unreachable")}
		}
		return fleet.Outcome{Providers: 1, Modules: 1}
	}, fleet.Options{Parallelism: 2, Release: func(r fleet.RootResult) {
		fmt.Printf("== %s\n", r.Root)
		r.Output.WriteTo(os.Stdout, os.Stderr)
	}})
	for _, r := range sum.Failed() {
		fmt.Printf("failed: %s: %v\n", r.Root, r.Err)
	}
	// Output:
	// == envs/prod
	// initialising envs/prod
	// == envs/staging
	// initialising envs/staging
	// failed: envs/staging: backend unreachable
}
