package matchers_test

import (
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/matchers"
)

// A scripted transport used outside a synctest bubble without a clock
// has no times to show: the matchers print the order of its attempts
// without offsets, fail a check of times asking for a clock (for good:
// more requests cannot time it), and count its attempts as usual.
func TestUntimedTransport(t *testing.T) {
	tr := httpscript.NewTransport(t, httpscript.Respond(429).Times(2), httpscript.Respond(200))
	for range 3 {
		resp, err := tr.Client().Get("https://api.example.com/items")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	m := matchers.HaveAttemptsAt(0, 500*time.Millisecond, 1500*time.Millisecond)
	if ok, err := m.Match(tr); ok || err != nil {
		t.Fatalf("HaveAttemptsAt.Match(untimed transport) = %v, %v, want false, nil", ok, err)
	}
	golden.Check(t, "have_attempts_at_untimed", m.FailureMessage(tr)+"\n")
	if m.(interface{ MatchMayChangeInTheFuture(any) bool }).MatchMayChangeInTheFuture(tr) {
		t.Errorf("MatchMayChangeInTheFuture = true, want false: no later request can time the transport")
	}
	gomega.NewWithT(t).Expect(tr).To(matchers.HaveAttempts(3))
}
