package backend

import (
	"context"

	"github.com/hashicorp/hcl/v2"
)

func validateAzure(s settings) hcl.Diagnostics { return nil }

func openAzure(ctx context.Context, s settings) (remoteClient, hcl.Diagnostics) {
	return nil, hcl.Diagnostics{sourceless("not yet")}
}
