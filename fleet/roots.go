package fleet

import "github.com/tfdeps/tfdeps/providerlock"

// Roots returns the root modules at or below dir, sorted, relative to dir
// ("." for dir itself), found as providers lock -recursive finds them
// (providerlock.FindRootModules): directories with configuration files
// and a lock file or required_providers, that no other module there calls
// as a local child module; hidden directories are not searched.
func Roots(dir string) ([]string, error) { return providerlock.FindRootModules(dir) }
