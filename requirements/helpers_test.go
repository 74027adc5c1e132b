package requirements

import (
	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/versions"
)

// constraintStrings renders provider → canonical constraints for
// comparisons.
func constraintStrings(m map[addrs.Provider]versions.Constraints) map[string]string {
	out := map[string]string{}
	for p, c := range m {
		out[p.String()] = c.String()
	}
	return out
}
