package serve

import (
	"context"
	"encoding/json"
	"sync"
)

// docCache keeps, in memory, JSON documents that never change once
// written (platform hashes, package records, published releases), so warm
// metadata requests do not read storage. It only ever holds what storage
// holds: absence is not cached, and every replica fills its own.
type docCache struct {
	mu   sync.RWMutex
	docs map[string][]byte
}

// maxCachedDocs bounds the cache; when full it starts over.
const maxCachedDocs = 50000

func (c *docCache) get(key string) ([]byte, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	b, ok := c.docs[key]
	return b, ok
}

func (c *docCache) put(key string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.docs == nil || len(c.docs) >= maxCachedDocs {
		c.docs = map[string][]byte{}
	}
	c.docs[key] = b
}

// readImmutable is readDoc for documents that are never rewritten.
func (s *Server) readImmutable(ctx context.Context, key string, v any) error {
	if b, ok := s.docs.get(key); ok {
		return json.Unmarshal(b, v)
	}
	b, err := s.store.ReadAll(ctx, key, docLimit)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return err
	}
	s.docs.put(key, b)
	return nil
}
