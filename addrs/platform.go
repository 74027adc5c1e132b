package addrs

import (
	"errors"
	"runtime"
	"strings"
)

// Platform is a target operating system and architecture, written
// "os_arch" (e.g. "linux_amd64"). Values are used as given: OpenTofu does
// not normalise their case.
type Platform struct {
	OS   string
	Arch string
}

// ParsePlatform parses "OS_ARCH". The error texts are OpenTofu's (callers
// wrap them, e.g. in "Invalid target platform").
func ParsePlatform(s string) (Platform, error) {
	parts := strings.Split(s, "_")
	if len(parts) != 2 {
		return Platform{}, errors.New("must be two words separated by an underscore")
	}
	if strings.ContainsAny(parts[0], " \t\n\r") {
		return Platform{}, errors.New("OS portion must not contain whitespace")
	}
	if strings.ContainsAny(parts[1], " \t\n\r") {
		return Platform{}, errors.New("architecture portion must not contain whitespace")
	}
	return Platform{OS: parts[0], Arch: parts[1]}, nil
}

// CurrentPlatform is the platform the running tfdeps binary was built for.
func CurrentPlatform() Platform {
	return Platform{OS: runtime.GOOS, Arch: runtime.GOARCH}
}

// String returns "OS_ARCH".
func (p Platform) String() string { return p.OS + "_" + p.Arch }

// LessThan orders platforms by OS, then architecture.
func (p Platform) LessThan(other Platform) bool {
	if p.OS != other.OS {
		return p.OS < other.OS
	}
	return p.Arch < other.Arch
}
