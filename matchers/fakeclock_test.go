package matchers_test

import (
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/matchers"
)

// TestWithFakeClock reads the real fake clock: its Pending for
// HaveNoPendingTimers, its schedule for the schedule matchers. The
// schedule holds the timers that ran their course, not one stopped before
// it fired (a per-attempt timeout).
func TestWithFakeClock(t *testing.T) {
	g := gomega.NewWithT(t)
	clk := fakeclock.New(t)
	g.Expect(clk).To(matchers.HaveNoPendingTimers())

	first := clk.NewTimer(500 * time.Millisecond)
	second := clk.NewTimer(time.Second)
	m := matchers.HaveNoPendingTimers()
	if ok, err := m.Match(clk); ok || err != nil {
		t.Fatalf("Match(clock with 2 timers) = %v, %v, want false, nil", ok, err)
	}
	msg := m.FailureMessage(clk)
	for _, want := range []string{
		"Expected\n    *fakeclock.Clock with 2 waiters pending:\n      Timer 500ms, due at +500ms, armed at fakeclock_test.go:",
		"\n      Timer 1s, due at +1s, armed at fakeclock_test.go:",
		"\nto have no pending timers",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("FailureMessage =\n%s\nwant it to contain\n%s", msg, want)
		}
	}

	timeout := clk.NewTimer(2 * time.Second)
	clk.Advance(time.Second) // first and second run their course
	for name, c := range map[string]<-chan time.Time{"first": first.Chan(), "second": second.Chan()} {
		select {
		case <-c:
		default:
			t.Fatalf("%s timer: nothing on its channel at 1s, want its firing", name)
		}
	}
	// The per-attempt timeout, stopped before it fired.
	if !timeout.Stop() {
		t.Fatal("timeout.Stop() = false, want true: due at 2s, it is pending at 1s")
	}
	g.Expect(clk).To(matchers.HaveNoPendingTimers())
	g.Expect(clk).To(matchers.HaveDelays(500*time.Millisecond, time.Second))
	g.Expect(clk).To(matchers.HaveAttempts(3))
}
