package workdir_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/versions"
	"github.com/tfdeps/tfdeps/workdir"
)

// Example initialises a directory whose configuration requires one
// provider, found in a local plugin directory (a filesystem mirror with
// the package unpacked), and prints the events and the lock file written.
func Example() {
	dir, err := os.MkdirTemp("", "workdir-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	plugins := filepath.Join(dir, "plugins")
	pkg := filepath.Join(plugins, "registry.opentofu.org", "hashicorp", "null", "3.2.1", addrs.CurrentPlatform().String())
	must(os.MkdirAll(pkg, 0o755))
	must(os.WriteFile(filepath.Join(pkg, "terraform-provider-null_v3.2.1"), []byte("#!/bin/sh\n"), 0o755))
	work := filepath.Join(dir, "work")
	must(os.MkdirAll(work, 0o755))
	must(os.WriteFile(filepath.Join(work, "main.tf"), []byte(`terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "~> 3.2"
    }
  }
}
`), 0o644))
	back, err := os.Getwd()
	must(err)
	must(os.Chdir(work)) // workdir initialises the current directory
	defer os.Chdir(back)

	events := workdir.Events{
		Providers: &providerinstall.Events{
			Installing: func(p addrs.Provider, v versions.Version, _ bool) { fmt.Println("installing", p, v) },
		},
		LockFile: func(c workdir.LockFileChange) { fmt.Println("lock file created:", c == workdir.LockCreated) },
	}
	_, diags, err := workdir.Init(context.Background(), workdir.Options{PluginDirs: []string{plugins}}, events)
	if err != nil {
		fmt.Println(err, diags)
		return
	}
	lock, err := os.ReadFile(workdir.LockFileName)
	must(err)
	fmt.Print(string(lock))
	// Output:
	// installing registry.opentofu.org/hashicorp/null 3.2.1
	// lock file created: true
	// # This file is maintained automatically by "tofu init".
	// # Manual edits may be lost in future updates.
	//
	// provider "registry.opentofu.org/hashicorp/null" {
	//   version     = "3.2.1"
	//   constraints = "~> 3.2"
	//   hashes = [
	//     "h1:Hr2f3yF4F9TEjd4n3m1zEvclpnucMK1DXR0O1i9UN+c=",
	//   ]
	// }
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
