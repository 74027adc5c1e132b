package storage

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Lease is a claim, stored as an object, that one process is producing
// another object. Replicas sharing a bucket create the lease object with a
// conditional write, so exactly one of them wins; the others wait for the
// produced object, for the lease to expire (its holder stopped renewing
// it), or, on the holder's machine, for the holder to be known dead
// (Holder.Dead), which breaks the lease at once: a restarted server does
// not wait out the lease of the process it replaces.
type Lease struct {
	store *Store
	key   string
	doc   leaseDoc
}

type leaseDoc struct {
	Owner   string    `json:"owner"`
	Holder  *Holder   `json:"holder,omitempty"`
	Expires time.Time `json:"expires"`
}

// ErrLeaseHeld is returned by AcquireLease when a live lease exists.
var ErrLeaseHeld = errors.New("storage: lease held by another process")

// AcquireLease creates the lease object key for holder, valid for ttl. A
// lease whose expiry has passed, or whose holder is known dead as seen
// from holder's machine, is broken and taken over. It fails with
// ErrLeaseHeld while another live lease exists.
func (s *Store) AcquireLease(ctx context.Context, key string, holder Holder, ttl time.Duration, now func() time.Time) (*Lease, error) {
	for attempt := 0; attempt < 3; attempt++ {
		doc := leaseDoc{Owner: holder.String(), Holder: &holder, Expires: now().Add(ttl).UTC()}
		body, _ := json.Marshal(doc)
		err := s.PutBytes(ctx, key, body, PutOptions{ContentType: "application/json", IfNotExist: true})
		if err == nil {
			return &Lease{store: s, key: key, doc: doc}, nil
		}
		if !errors.Is(err, ErrExists) {
			return nil, err
		}
		held, err := s.ReadAll(ctx, key, 4096)
		if errors.Is(err, ErrNotFound) {
			continue // released meanwhile
		}
		if err != nil {
			return nil, err
		}
		var cur leaseDoc
		if json.Unmarshal(held, &cur) == nil && now().Before(cur.Expires) && (cur.Holder == nil || !cur.Holder.Dead(holder)) {
			return nil, ErrLeaseHeld
		}
		// Expired, unreadable or its holder dead: break it and retry; the
		// conditional write still lets only one breaker win.
		if err := s.Delete(ctx, key); err != nil {
			return nil, err
		}
	}
	return nil, ErrLeaseHeld
}

// Release deletes the lease object.
func (l *Lease) Release(ctx context.Context) error { return l.store.Delete(ctx, l.key) }

// Renew extends the lease by ttl from now (an unconditional overwrite: the
// holder owns the object).
func (l *Lease) Renew(ctx context.Context, ttl time.Duration, now func() time.Time) error {
	l.doc.Expires = now().Add(ttl).UTC()
	body, _ := json.Marshal(l.doc)
	return l.store.PutBytes(ctx, l.key, body, PutOptions{ContentType: "application/json"})
}
