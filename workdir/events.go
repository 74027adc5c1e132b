package workdir

import (
	"sync"

	"github.com/hashicorp/hcl/v2"

	"github.com/tfdeps/tfdeps/moduleinstall"
	"github.com/tfdeps/tfdeps/providerinstall"
)

// Events hear what an initialisation does, as it happens; any field may
// be nil. The callbacks of one step come from one goroutine at a time,
// in the order OpenTofu reports the same events (the provider and fetch
// events may come from the installers' goroutines).
type Events struct {
	// CopyingFromModule: -from-module's copy of the module at src starts.
	CopyingFromModule func(src string)
	// Backend hears the backend step: its start, a backend configured,
	// changed or unset.
	Backend func(BackendEvent)
	// ModulesInstalling: the module step starts (upgrade: with -upgrade).
	ModulesInstalling func(upgrade bool)
	// Modules hears the module installer: a package being downloaded, a
	// module installed.
	Modules moduleinstall.Events
	// ModuleFetches hears remote module packages being fetched, with their
	// bytes (for a live display).
	ModuleFetches *moduleinstall.FetchEvents
	// Providers hears the provider installer: requirements pending, a
	// provider's versions queried, a package installing, installed and
	// verified, a cache used. Its failure callbacks are not called: the
	// failures are returned as diagnostics.
	Providers *providerinstall.Events
	// LockFile: the lock file is about to be written (LockCreated,
	// LockUpdated) after the installation changed the selections.
	LockFile func(LockFileChange)
}

// LockFileChange is what became of the lock file.
type LockFileChange int

const (
	// LockUnchanged: the selections are those recorded.
	LockUnchanged LockFileChange = iota
	// LockCreated: a lock file was written where none (or an empty one)
	// was.
	LockCreated
	// LockUpdated: the lock file was rewritten with changed selections.
	LockUpdated
	// LockNotUpdated: the selections changed but the lock file is
	// read-only (a warning), or the providers changed (an error).
	LockNotUpdated
)

// diagCollector gathers diagnostics from the installers' goroutines.
type diagCollector struct {
	mu    sync.Mutex
	diags hcl.Diagnostics
}

func (c *diagCollector) add(d ...*hcl.Diagnostic) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, x := range d {
		if x != nil {
			c.diags = append(c.diags, x)
		}
	}
}

func (c *diagCollector) all() hcl.Diagnostics {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diags
}
