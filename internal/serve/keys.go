package serve

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/tfdeps/tfdeps/addrs"
	"github.com/tfdeps/tfdeps/hashes"
	"github.com/tfdeps/tfdeps/internal/serve/storage"
	"github.com/tfdeps/tfdeps/versions"
)

// Storage layout of the mirror, under "mirror/HOST/NAMESPACE/TYPE/":
//
//	versions.json              upstream version list with platforms (cached, refreshed after IndexTTL)
//	VERSION/platforms.json     hashes of every platform, from the registry, checked (immutable)
//	VERSION/OS_ARCH.zip        the archive, authenticated before it was written
//	VERSION/OS_ARCH.json       its record: hashes computed on arrival, authentication summary
//
// and "leases/" + an archive key while one replica downloads it.

func mirrorPrefix(p addrs.Provider) string {
	return "mirror/" + string(p.Hostname) + "/" + p.Namespace + "/" + p.Type + "/"
}

func versionsKey(p addrs.Provider) string { return mirrorPrefix(p) + "versions.json" }

func platformsKey(p addrs.Provider, v versions.Version) string {
	return mirrorPrefix(p) + v.String() + "/platforms.json"
}

func archiveKey(p addrs.Provider, v versions.Version, pl addrs.Platform) string {
	return mirrorPrefix(p) + v.String() + "/" + pl.String() + ".zip"
}

func recordKey(p addrs.Provider, v versions.Version, pl addrs.Platform) string {
	return mirrorPrefix(p) + v.String() + "/" + pl.String() + ".json"
}

func leaseKey(key string) string { return "leases/" + key }

// versionsDoc is the cached upstream version list.
type versionsDoc struct {
	Fetched  time.Time           `json:"fetched"`
	Versions map[string][]string `json:"versions"`
	Warnings []string            `json:"warnings,omitempty"`
}

// platformsDoc is what the registry stated about each platform of a version.
type platformsDoc struct {
	Fetched   time.Time           `json:"fetched"`
	Platforms map[string][]string `json:"platforms"`
}

// packageRecord describes a stored archive.
type packageRecord struct {
	Hashes  []string  `json:"hashes"`
	Size    int64     `json:"size"`
	Auth    string    `json:"authentication"`
	KeyIDs  []string  `json:"key_ids,omitempty"`
	Stored  time.Time `json:"stored"`
	Origin  string    `json:"origin"`
	Warning []string  `json:"warnings,omitempty"`
}

// docLimit bounds the JSON documents the server reads back from storage.
const docLimit = 8 << 20

func readDoc(ctx context.Context, st *storage.Store, key string, v any) error {
	b, err := st.ReadAll(ctx, key, docLimit)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func writeDoc(ctx context.Context, st *storage.Store, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return st.PutBytes(ctx, key, b, storage.PutOptions{ContentType: "application/json"})
}

func isNotFound(err error) bool { return errors.Is(err, storage.ErrNotFound) }

func parseHashList(ss []string) []hashes.Hash {
	var out []hashes.Hash
	for _, s := range ss {
		if h, err := hashes.Parse(s); err == nil {
			out = append(out, h)
		}
	}
	return hashes.SortedUnique(out)
}
