package initrun

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/flavour"
	"github.com/tfdeps/tfdeps/internal/diagrender"
	"github.com/tfdeps/tfdeps/providerinstall"
	"github.com/tfdeps/tfdeps/versions"
)

// signingNotice is printed after the provider lines when a fresh install
// was signed.
const signingNotice = "\nProviders are signed by their developers.\n" +
	"If you'd like to know more about provider signing, you can read about it here:\n" +
	"https://opentofu.org/docs/cli/plugins/signing/"

// signingNoticeIn is the signing note in flavour f's words.
func signingNoticeIn(f flavour.Flavour) string {
	if f != flavour.Terraform {
		return signingNotice
	}
	return "\nPartner and community providers are signed by their developers.\n" +
		"If you'd like to know more about provider signing, you can read about it here:\n" +
		"https://developer.hashicorp.com/terraform/cli/plugins/signing"
}

// initEvents turns installer events into the view's lines (the
// installer's failures come back from workdir as diagnostics).
type initEvents struct {
	view View
	// flavour words addresses for display.
	flavour flavour.Flavour

	mu sync.Mutex

	// terraformThirdParty: in the Terraform flavour, a fresh install was
	// signed by a partner or self-signed (events_terraform.go).
	terraformThirdParty bool
}

func (e *initEvents) line(kind string, p addrs.Provider, v versions.Version, format string, args ...any) {
	version := ""
	if v != (versions.Version{}) {
		version = v.String()
	}
	e.view.Event(kind, p.ForDisplayIn(e.flavour), version, fmt.Sprintf(format, args...))
}

func (e *initEvents) events() *providerinstall.Events {
	var none versions.Version
	return &providerinstall.Events{
		PendingProviders: func(providerinstall.Requirements) {
			e.view.Event("init_providers", "", "", initProvidersText)
		},
		BuiltInAvailable: func(p addrs.Provider) {
			e.line("builtin", p, none, "- %s is built in to "+e.flavour.Product(), p.ForDisplayIn(e.flavour))
		},
		ReusingPreviousVersion: func(p addrs.Provider) {
			e.line("reusing_version", p, none, "- Reusing previous version of %s from the dependency lock file", p.ForDisplayIn(e.flavour))
		},
		FindingVersions: func(p addrs.Provider, c versions.Constraints) {
			if len(c) == 0 {
				e.line("finding_version", p, none, "- Finding latest version of %s...", p.ForDisplayIn(e.flavour))
				return
			}
			e.line("finding_version", p, none, "- Finding %s versions matching %q...", p.ForDisplayIn(e.flavour), c.String())
		},
		UsingPreviouslyInstalled: func(p addrs.Provider, v versions.Version) {
			e.line("using_installed", p, v, "- Using previously-installed %s v%s", p.ForDisplayIn(e.flavour), v)
		},
		DetectedInCache: func(p addrs.Provider, v versions.Version) {
			e.line("detected_in_cache", p, v, "- Detected previously-installed %s v%s in the shared cache directory", p.ForDisplayIn(e.flavour), v)
		},
		Installing: func(p addrs.Provider, v versions.Version, toCache bool) {
			if toCache {
				e.line("installing", p, v, "- Installing %s v%s to the shared cache directory...", p.ForDisplayIn(e.flavour), v)
				return
			}
			e.line("installing", p, v, "- Installing %s v%s...", p.ForDisplayIn(e.flavour), v)
		},
		WaitingForCacheLock: func(dir string) {
			e.view.Event("waiting_for_lock", "", "", "- Waiting for lock on cache directory "+dir)
		},
		DownloadProgress: func(p addrs.Provider, v versions.Version, done, total int64) {
			e.view.Progress(p.ForDisplayIn(e.flavour), v.String(), done, total)
		},
		Installed: e.installed,
		LinkedFromCache: func(p addrs.Provider, v versions.Version) {
			e.line("linked_from_cache", p, v, "- Using %s v%s from the shared cache directory", p.ForDisplayIn(e.flavour), v)
		},
		ProvidersSigned: e.signingNoticeEvent,
	}
}

func (e *initEvents) installed(p addrs.Provider, v versions.Version, auth *providerinstall.AuthResult) {
	if e.flavour == flavour.Terraform {
		e.terraformInstalled(p, v, auth)
		return
	}
	if auth != nil {
		for _, w := range auth.Warnings {
			e.view.Event("warning", p.ForDisplayIn(e.flavour), v.String(), w)
		}
	}
	switch {
	case auth.SigningSkipped():
		e.line("installed_unsigned", p, v, "- Installed %s v%s. Signature validation was skipped due to the registry not containing GPG keys for this provider", p.ForDisplayIn(e.flavour), v)
	case auth.Signed():
		// OpenTofu makes the key ID bold, resetting before and after.
		color := false
		if c, ok := e.view.(interface{ colored() bool }); ok {
			color = c.colored()
		}
		keyID := fmt.Sprintf(diagrender.Colorize(", key ID [reset][bold]%s[reset]", color), strings.Join(auth.KeyIDs(), ", "))
		e.line("installed", p, v, "- Installed %s v%s (signed%s)", p.ForDisplayIn(e.flavour), v, keyID)
	default:
		e.line("installed", p, v, "- Installed %s v%s (%s)", p.ForDisplayIn(e.flavour), v, auth.Summary())
	}
}
