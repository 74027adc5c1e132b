package registry

import (
	"fmt"

	"github.com/tfdeps/tfdeps/internal/nesting"
)

// checkResponseNesting refuses a JSON response nested deeper than
// nesting.MaxResponseDepth levels; the registry protocol's documents nest
// at most five. (encoding/json would stop at 10,000 levels by itself; this
// gives the error a place and keeps the decoders' recursion shallow.)
func checkResponseNesting(body []byte) error {
	if err := nesting.Check(body, nesting.JSON, nesting.MaxResponseDepth); err != nil {
		return fmt.Errorf("response is not valid: %w", err)
	}
	return nil
}
