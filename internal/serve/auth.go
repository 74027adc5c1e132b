package serve

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// tokenSet holds bearer tokens as SHA-256 digests, so that comparing a
// presented token takes the same time whatever its length or content.
type tokenSet struct {
	digests [][32]byte
}

func newTokenSet(tokens []string) tokenSet {
	var t tokenSet
	for _, tok := range tokens {
		if tok = strings.TrimSpace(tok); tok != "" {
			t.digests = append(t.digests, sha256.Sum256([]byte(tok)))
		}
	}
	return t
}

// open reports whether no token is configured.
func (t tokenSet) open() bool { return len(t.digests) == 0 }

// allows reports whether the request may proceed: no tokens configured, or
// an "Authorization: Bearer" header with one of them. Every configured
// token is compared, in constant time.
func (t tokenSet) allows(r *http.Request) bool {
	if t.open() {
		return true
	}
	return t.matches(r)
}

// matches reports whether the request carries one of the tokens (false
// when none are configured).
func (t tokenSet) matches(r *http.Request) bool {
	tok, ok := bearer(r)
	if !ok {
		return false
	}
	d := sha256.Sum256([]byte(tok))
	found := 0
	for _, want := range t.digests {
		found |= subtle.ConstantTimeCompare(d[:], want[:])
	}
	return found == 1
}

func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}
