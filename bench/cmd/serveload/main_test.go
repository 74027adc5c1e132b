package main

import (
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Millisecond
	}
	for _, tc := range []struct {
		name   string
		sorted []time.Duration
		p      int
		want   time.Duration
	}{
		{"empty", nil, 99, 0},
		{"one", []time.Duration{7}, 50, 7},
		{"one p99", []time.Duration{7}, 99, 7},
		{"median of 100", hundred, 50, 50 * time.Millisecond},
		{"p99 of 100", hundred, 99, 99 * time.Millisecond},
		{"max of 100", hundred, 100, 100 * time.Millisecond},
		{"p99 of 3", []time.Duration{1, 2, 3}, 99, 3},
		{"p50 of 3", []time.Duration{1, 2, 3}, 50, 2},
		{"p0 is the smallest", []time.Duration{1, 2, 3}, 0, 1},
	} {
		if got := percentile(tc.sorted, tc.p); got != tc.want {
			t.Errorf("%s: percentile(%d) = %v, want %v", tc.name, tc.p, got, tc.want)
		}
	}
}
