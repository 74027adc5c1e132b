package workdir

import (
	"testing"

	"github.com/tfdeps/tfdeps/flavour"
)

func TestDecideBackend(t *testing.T) {
	tests := []struct {
		name    string
		s       backendSituation
		want    backendAction
		summary string
	}{
		{"no block, nothing saved", backendSituation{}, backendLocalDefault, ""},
		{"first configuration", backendSituation{config: "http", hash: 1}, backendConfigure, ""},
		{"first configuration over local state", backendSituation{config: "http", hash: 1, localStates: true}, backendRefused, "State migration is not supported by tfdeps"},
		{"unchanged", backendSituation{config: "http", hash: 1, saved: "http", savedHash: 1, sameConfig: true}, backendUnchanged, ""},
		{"same hash with overrides, same settings", backendSituation{config: "http", hash: 1, saved: "http", savedHash: 1, sameConfig: true, overrides: true}, backendRehash, ""},
		{"same hash with overrides, other settings", backendSituation{config: "http", hash: 1, saved: "http", savedHash: 1, overrides: true}, backendRefused, "Backend configuration changed"},
		{"argument moved to -backend-config", backendSituation{config: "http", hash: 2, saved: "http", savedHash: 1, sameConfig: true, overrides: true}, backendRehash, ""},
		{"changed", backendSituation{config: "http", hash: 2, saved: "http", savedHash: 1}, backendRefused, "Backend configuration changed"},
		{"changed, -reconfigure", backendSituation{config: "http", hash: 2, saved: "http", savedHash: 1, reconfigure: true}, backendConfigure, ""},
		{"changed, -migrate-state", backendSituation{config: "http", hash: 2, saved: "http", savedHash: 1, migrateState: true}, backendRefused, "State migration is not supported by tfdeps"},
		{"type changed", backendSituation{config: "local", hash: 2, saved: "http", savedHash: 1}, backendRefused, "Backend configuration changed"},
		{"type changed, -reconfigure", backendSituation{config: "local", hash: 2, saved: "http", savedHash: 1, reconfigure: true}, backendConfigure, ""},
		{"removed", backendSituation{saved: "http", savedHash: 1}, backendRefused, "Backend configuration changed"},
		{"removed, -migrate-state", backendSituation{saved: "http", savedHash: 1, migrateState: true}, backendRefused, "State migration is not supported by tfdeps"},
		{"changed, -migrate-state, nothing to copy", backendSituation{config: "http", hash: 2, saved: "local", savedHash: 1, migrateState: true, sourceEmpty: true}, backendMigrateEmpty, ""},
		{"removed, -migrate-state, nothing to copy", backendSituation{saved: "http", savedHash: 1, migrateState: true, sourceEmpty: true}, backendUnset, ""},
		{"cloud removed, -migrate-state, nothing to copy", backendSituation{saved: "cloud", savedHash: 1, migrateState: true, sourceEmpty: true}, backendRefused, "Invalid command-line option"},
		{"removed, -reconfigure", backendSituation{saved: "http", savedHash: 1, reconfigure: true}, backendLocalDefault, ""},
		{"cloud first", backendSituation{config: "cloud", hash: 1}, backendConfigure, ""},
		{"cloud first, -reconfigure", backendSituation{config: "cloud", hash: 1, reconfigure: true}, backendRefused, "Invalid command-line option"},
		{"cloud changed", backendSituation{config: "cloud", hash: 2, saved: "cloud", savedHash: 1}, backendCloudUpdate, ""},
		{"cloud changed, -migrate-state", backendSituation{config: "cloud", hash: 2, saved: "cloud", savedHash: 1, migrateState: true}, backendRefused, "Invalid command-line option"},
		{"into cloud", backendSituation{config: "cloud", hash: 2, saved: "http", savedHash: 1}, backendRefused, "State migration is not supported by tfdeps"},
		{"cloud removed", backendSituation{saved: "cloud", savedHash: 1}, backendRefused, "State migration is not supported by tfdeps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, diags := decideBackend(tt.s, productOf(flavour.OpenTofu))
			if got != tt.want {
				t.Errorf("action %d, want %d", got, tt.want)
			}
			summary := ""
			if len(diags) > 0 {
				summary = diags[0].Summary
			}
			if summary != tt.summary {
				t.Errorf("summary %q, want %q", summary, tt.summary)
			}
			if (got == backendRefused) != diags.HasErrors() {
				t.Errorf("refused %v with errors %v", got == backendRefused, diags.HasErrors())
			}
		})
	}
}
