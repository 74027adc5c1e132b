package serve

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/tfdeps/tfdeps/internal/serve/storage"
)

// Clients send no credentials when they download archives, SHA256SUMS and
// signatures (the registry and mirror protocols say so), so when reading
// needs a token the server hands out file URLs that carry their own
// permission: an expiry and an HMAC over path and expiry, keyed by a
// secret kept in storage so that every replica accepts every other's URLs.

const (
	signingKeyObject = "secrets/url-signing-key"
	signedURLTTL     = time.Hour
)

// urlSigner signs and checks file URLs.
type urlSigner struct {
	store *storage.Store
	now   func() time.Time

	mu  sync.Mutex
	key []byte
}

// secret returns the bucket's signing key, creating it on first use.
func (u *urlSigner) secret(ctx context.Context) ([]byte, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.key != nil {
		return u.key, nil
	}
	fresh := make([]byte, 32)
	rand.Read(fresh)
	err := u.store.PutBytes(ctx, signingKeyObject, []byte(hex.EncodeToString(fresh)), storage.PutOptions{IfNotExist: true})
	if err != nil && !errors.Is(err, storage.ErrExists) {
		return nil, err
	}
	stored, err := u.store.ReadAll(ctx, signingKeyObject, 1024)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(string(stored))
	if err != nil || len(key) < 32 {
		return nil, errors.New("stored URL signing key is invalid")
	}
	u.key = key
	return key, nil
}

func mac(key []byte, path string, exp int64) string {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(path + "\n" + strconv.FormatInt(exp, 10)))
	return hex.EncodeToString(h.Sum(nil))
}

// sign returns the query string ("exp=…&sig=…") granting GET on path.
func (u *urlSigner) sign(ctx context.Context, path string) (string, error) {
	key, err := u.secret(ctx)
	if err != nil {
		return "", err
	}
	exp := u.now().Add(signedURLTTL).Unix()
	return url.Values{"exp": {strconv.FormatInt(exp, 10)}, "sig": {mac(key, path, exp)}}.Encode(), nil
}

// valid reports whether r carries an unexpired signature for its path.
func (u *urlSigner) valid(r *http.Request) bool {
	q := r.URL.Query()
	exp, err := strconv.ParseInt(q.Get("exp"), 10, 64)
	if err != nil || u.now().Unix() > exp {
		return false
	}
	key, err := u.secret(r.Context())
	if err != nil {
		return false
	}
	want := mac(key, r.URL.Path, exp)
	return hmac.Equal([]byte(want), []byte(q.Get("sig")))
}

// fileQuery returns "" when reading is open, else "?" and the query
// string that grants GET on the absolute path.
func (s *Server) fileQuery(ctx context.Context, path string) (string, error) {
	if s.read.open() {
		return "", nil
	}
	q, err := s.signer.sign(ctx, path)
	if err != nil {
		return "", err
	}
	return "?" + q, nil
}
