package moduleaddr

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxBitBucketAnswer bounds the BitBucket API answer read.
const maxBitBucketAnswer = 1 << 20

// bitBucketDetector is go-getter v1.8.6's BitBucketDetector with an
// injectable HTTP client: it asks BitBucket's API whether the repository is
// git or Mercurial. The error texts are go-getter's.
type bitBucketDetector struct{ client *http.Client }

func (d bitBucketDetector) Detect(src, _ string) (string, bool, error) {
	if !strings.HasPrefix(src, "bitbucket.org/") {
		return "", false, nil
	}
	u, err := url.Parse("https://" + src)
	if err != nil {
		return "", true, fmt.Errorf("error parsing BitBucket URL: %w", err)
	}
	client := d.client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Get("https://api.bitbucket.org/2.0/repositories" + u.Path)
	if err != nil {
		return "", true, fmt.Errorf("error looking up BitBucket URL: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusForbidden {
		return "", true, fmt.Errorf("shorthand BitBucket URL can't be used for private repos, please use a full URL")
	}
	var info struct {
		SCM string `json:"scm"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxBitBucketAnswer)).Decode(&info); err != nil {
		return "", true, fmt.Errorf("error looking up BitBucket URL: %w", err)
	}
	switch info.SCM {
	case "git":
		if !strings.HasSuffix(u.Path, ".git") {
			u.Path += ".git"
		}
		return "git::" + u.String(), true, nil
	case "hg":
		return "hg::" + u.String(), true, nil
	default:
		return "", true, fmt.Errorf("unknown BitBucket SCM type: %s", info.SCM)
	}
}
