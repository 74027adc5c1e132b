package storage

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// Two replicas sharing a directory store (two Stores on one directory)
// racing to create one key: exactly one write wins, the others get
// ErrExists, and the object holds the winner's bytes. fileblob's own
// IfNotExist checks and then renames, so several won (two upstream
// downloads in TestMirrorConcurrentMissOneDownload).
func TestPutIfNotExistIsExclusive(t *testing.T) {
	dir := t.TempDir()
	stores := make([]*Store, 2)
	for i := range stores {
		st, err := OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		stores[i] = st
	}
	ctx := context.Background()
	for round := 0; round < 200; round++ {
		key := fmt.Sprintf("leases/k%d", round)
		var wins atomic.Int32
		var winner atomic.Value
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < 16; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				<-start
				body := fmt.Sprintf("writer %d", i)
				err := stores[i%2].PutBytes(ctx, key, []byte(body), PutOptions{IfNotExist: true})
				switch {
				case err == nil:
					wins.Add(1)
					winner.Store(body)
				case !errors.Is(err, ErrExists):
					t.Errorf("writer %d: %v", i, err)
				}
			}(i)
		}
		close(start)
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Fatalf("round %d: %d writers created %s, want 1", round, n, key)
		}
		got, err := stores[0].ReadAll(ctx, key, 100)
		if err != nil || string(got) != winner.Load().(string) {
			t.Fatalf("round %d: object holds %q (%v), want %q", round, got, err, winner.Load())
		}
	}
	keys, err := stores[0].List(ctx, "leases/", 1000)
	if err != nil || len(keys) != 200 {
		t.Fatalf("List = %v, %v; want the 200 keys and no temporary files", keys, err)
	}
}
