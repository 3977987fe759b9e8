package matchers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/retrytest"
)

// spacedOut is a "breaker" that spaces its failures out instead of
// sending nothing: five requests 1s apart, then one every 10s.
var spacedOut = []time.Duration{time.Second, time.Second, time.Second, time.Second, 10 * time.Second, 10 * time.Second, 40 * time.Second}

func TestHaveNoAttemptsBetween(t *testing.T) {
	m := matchers.HaveNoAttemptsBetween(5*time.Second, 64*time.Second)
	ok, err := m.Match(spacedOut)
	if err != nil || ok {
		t.Fatalf("Match = %v, %v, want false, nil", ok, err)
	}
	msg := m.FailureMessage(spacedOut)
	golden.Check(t, "have_no_attempts_between", msg+"\n")
	sameReport(t, msg, retrytest.CheckNoAttemptsBetween(retrytest.Waits(spacedOut...), 5*time.Second, 64*time.Second))
	if m.(interface{ MatchMayChangeInTheFuture(any) bool }).MatchMayChangeInTheFuture(spacedOut) {
		t.Error("MatchMayChangeInTheFuture = true for a plain slice with an attempt in the span, want false")
	}

	open := []time.Duration{time.Second, time.Second, time.Second, time.Second, 60 * time.Second}
	g := gomega.NewWithT(t)
	g.Expect(open).To(matchers.HaveNoAttemptsBetween(5*time.Second, 64*time.Second))
	g.Expect(spacedOut).NotTo(matchers.HaveNoAttemptsBetween(5*time.Second, 64*time.Second))
	neg := matchers.HaveNoAttemptsBetween(5*time.Second, 64*time.Second)
	if ok, _ := neg.Match(open); !ok {
		t.Fatal("Match(open) = false, want true")
	}
	if got := neg.NegatedFailureMessage(open); !strings.HasSuffix(got, "not to have no attempt in [5s, 1m4s)") || strings.Contains(got, "> ") {
		t.Errorf("NegatedFailureMessage = %q, want the unmarked table and the phrase", got)
	}
	if _, err := matchers.HaveNoAttemptsBetween(time.Minute, time.Second).Match(open); err == nil || !strings.Contains(err.Error(), "[1m, 1s) holds no instant") {
		t.Errorf("a span that holds no instant: Match error = %v, want it named", err)
	}
}
