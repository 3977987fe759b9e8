package matchers_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/matchers"
)

// waiter and clock follow the fakeclock contract: Pending returns a slice
// of values with a String method.
type waiter struct {
	kind string
	d    time.Duration
	site string
}

func (w waiter) String() string { return fmt.Sprintf("%s %v, armed at %s", w.kind, w.d, w.site) }

type clock struct{ pending []waiter }

func (c *clock) Pending() []waiter { return c.pending }

// ptrWaiter has a pointer String method.
type ptrWaiter struct{ name string }

func (w *ptrWaiter) String() string { return w.name }

type ptrClock struct{}

func (ptrClock) Pending() []ptrWaiter { return []ptrWaiter{{"ticker"}} }

type badPending struct{}

func (badPending) Pending() []int { return []int{1} }

type panickyClock struct{}

func (panickyClock) Pending() []waiter { panic("clock closed") }

func TestHaveNoPendingTimers(t *testing.T) {
	g := gomega.NewWithT(t)
	busy := &clock{pending: []waiter{{"Timer", 1500 * time.Millisecond, "retry.go:42"}, {"Sleep", 500 * time.Millisecond, "client.go:10"}}}
	idle := &clock{}
	g.Expect(idle).To(matchers.HaveNoPendingTimers())
	g.Expect(busy).NotTo(matchers.HaveNoPendingTimers())
	g.Expect(ptrClock{}).NotTo(matchers.HaveNoPendingTimers())

	m := matchers.HaveNoPendingTimers()
	if ok, err := m.Match(busy); ok || err != nil {
		t.Fatalf("Match(busy) = %v, %v, want false, nil", ok, err)
	}
	golden.Check(t, "have_no_pending_timers", m.FailureMessage(busy)+"\n")
	if ok, err := m.Match(idle); !ok || err != nil {
		t.Fatalf("Match(idle) = %v, %v, want true, nil", ok, err)
	}
	golden.Check(t, "have_no_pending_timers_negated", m.NegatedFailureMessage(idle)+"\n")
	if ok, err := m.Match(ptrClock{}); ok || err != nil {
		t.Fatalf("Match(ptrClock) = %v, %v, want false, nil", ok, err)
	}
	if got, want := m.FailureMessage(nil), "Expected\n    matchers_test.ptrClock with 1 waiter pending:\n      ticker\nto have no pending timers"; got != want {
		t.Errorf("FailureMessage = %q, want %q", got, want)
	}
}

func TestHaveNoPendingTimersWrongInput(t *testing.T) {
	var nilClock *clock
	const expects = "HaveNoPendingTimers matcher expects a *fakeclock.Clock or a value whose Pending() returns waiters with a String method.  Got:\n"
	for _, tc := range []struct {
		actual any
		want   string
	}{
		{nil, expects + "    <nil>: nil"},
		{[]time.Duration{time.Second}, expects + "    <[]time.Duration | len:1, cap:1>: [1000000000]"},
		{badPending{}, expects + "    <matchers_test.badPending>: {}"},
		{nilClock, "HaveNoPendingTimers matcher expects a clock that is not nil.  Got:\n    <*matchers_test.clock | 0x0>: nil"},
		{panickyClock{}, "HaveNoPendingTimers matcher: matchers_test.panickyClock.Pending panicked: clock closed"},
	} {
		ok, err := matchers.HaveNoPendingTimers().Match(tc.actual)
		if ok || err == nil || err.Error() != tc.want {
			t.Errorf("Match(%#v) = %v, %v,\nwant false, %s", tc.actual, ok, err, tc.want)
		}
	}
}
