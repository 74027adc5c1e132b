package fleetview

import (
	"path/filepath"

	"github.com/tfdeps/tfdeps/lockfile"
	"github.com/tfdeps/tfdeps/moduleinstall/manifest"
)

// Counts are what the table shows of a root after its run: the providers
// its lock file records and the module calls its modules.json records
// (dataDir is TF_DATA_DIR, "" for .terraform, relative to the root).
func Counts(root, dataDir string) (providers, modules int) {
	return lockedProviders(root), installedModules(root, dataDir)
}

func lockedProviders(root string) int {
	locks, _, diags := lockfile.ReadFile(filepath.Join(root, ".terraform.lock.hcl"), lockfile.ReadOptions{})
	if diags.HasErrors() || locks == nil {
		return 0
	}
	return len(locks.Addresses())
}

func installedModules(root, dataDir string) int {
	if dataDir == "" {
		dataDir = ".terraform"
	}
	if !filepath.IsAbs(dataDir) {
		dataDir = filepath.Join(root, dataDir)
	}
	mf, err := manifest.Read(filepath.Join(dataDir, "modules", manifest.FileName))
	if err != nil {
		return 0
	}
	n := 0
	for key := range mf {
		if key != "" {
			n++
		}
	}
	return n
}
