package grpcconformance_test

import (
	"slices"
	"testing"

	"github.com/retrykit/retrykit/retrytest/conformance"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcconformance"
)

// The correct lab meets every property.
func TestLabCorrect(t *testing.T) {
	r := grpcconformance.TestClient(t, labSpec(), labClient(nil))
	if got := r.Names(conformance.Skipped); len(got) > 0 {
		t.Errorf("the lab skipped %v, want every property and case run", got)
	}
}

// Each planted bug fails its property, and only the properties listed.
func TestLabBugs(t *testing.T) {
	for _, b := range labBugs {
		t.Run(b.bug, func(t *testing.T) {
			r, err := grpcconformance.CheckClient(t, labSpec(), labClient(bugs{b.bug: true}))
			if err != nil {
				t.Fatal(err)
			}
			want := b.fails
			if want == nil {
				want = []string{b.property}
			}
			if got := r.Failed(); !slices.Contains(got, b.property) || !slices.Equal(got, want) {
				t.Errorf("%s failed %v, want %v (%s first of all)\n%s", b.bug, got, want, b.property, r)
			}
		})
	}
}
