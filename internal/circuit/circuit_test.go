package circuit

import (
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// call makes a call at at that ends with o, if the breaker lets it
// through; it reports whether it did and whether the breaker opened.
func call(c *Circuit, at time.Duration, o Outcome) (allowed, opened bool) {
	if !c.Allow(at) {
		return false, false
	}
	return true, c.Record(at, o)
}

// sony/gobreaker's defaults: the sixth consecutive failure opens it, for
// a minute; at trip+1m it is still open, at trip+1m+1ns one probe goes
// through, and its failure opens it again for a full minute.
func TestGobreakerDefaults(t *testing.T) {
	c := New(Params{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1}, 0)
	for i := 1; i <= 5; i++ {
		if ok, opened := call(c, 0, Failure); !ok || opened {
			t.Fatalf("failure %d: allowed %v, opened %v, want allowed and still closed", i, ok, opened)
		}
	}
	if _, opened := call(c, time.Second, Failure); !opened {
		t.Fatal("the sixth consecutive failure did not open it")
	}
	if got := c.HalfOpenAt(); got != time.Minute+time.Second+1 {
		t.Errorf("HalfOpenAt = %v, want 1m1.000000001s", got)
	}
	if c.Allow(time.Minute + time.Second) {
		t.Error("a call at trip+1m was let through, want refused: still open")
	}
	if !c.Allow(time.Minute + time.Second + 1) {
		t.Fatal("the probe at trip+1m+1ns was refused")
	}
	if c.Allow(time.Minute + time.Second + 1) {
		t.Error("a second call beside the one probe was let through")
	}
	if !c.Record(time.Minute+time.Second+1, Failure) {
		t.Fatal("a failed probe did not open it again")
	}
	if got := c.HalfOpenAt(); got != 2*time.Minute+time.Second+2 {
		t.Errorf("HalfOpenAt after the failed probe = %v, want 2m1.000000002s", got)
	}
}

// failsafe-go's defaults: one failure opens it; it half-opens at exactly
// trip+1m, and one success closes it with fresh counts.
func TestFailsafeDefaults(t *testing.T) {
	c := New(Params{Threshold: 1, OpenFor: time.Minute, Probes: 1}, 0)
	if _, opened := call(c, 0, Failure); !opened {
		t.Fatal("one failure did not open it")
	}
	if c.Allow(time.Minute - 1) {
		t.Error("a call 1ns before trip+1m was let through")
	}
	if !c.Allow(time.Minute) {
		t.Fatal("the probe at trip+1m was refused")
	}
	c.Record(time.Minute, Success)
	if got := c.Phase(time.Minute); got != Closed {
		t.Fatalf("after a successful probe: %v, want closed", got)
	}
}

// Threshold 3 of the last 5: failures apart still open it; one that
// slides out of the last five no longer counts.
func TestRatio(t *testing.T) {
	p := Params{Threshold: 3, OutOf: 5, OpenFor: time.Minute, Probes: 1}
	c := New(p, 0)
	for i, o := range []Outcome{Failure, Success, Failure, Success} {
		if _, opened := call(c, 0, o); opened {
			t.Fatalf("call %d opened it", i+1)
		}
	}
	if _, opened := call(c, 0, Failure); !opened {
		t.Error("F S F S F did not open a 3-of-5 breaker")
	}
	c = New(p, 0)
	for _, o := range []Outcome{Failure, Failure, Success, Success, Success, Failure, Failure} {
		if _, opened := call(c, 0, o); opened {
			t.Fatal("a failure that slid out of the last 5 still counted")
		}
	}
	if _, opened := call(c, 0, Failure); !opened {
		t.Error("F F S S S F F F did not open it on the last failure (3 of the last 5)")
	}
}

// gobreaker's README: 60% of at least 3.
func TestRate(t *testing.T) {
	p := Params{FailureRate: 0.6, MinCalls: 3, OpenFor: time.Minute, Probes: 1}
	c := New(p, 0)
	if _, opened := call(c, 0, Failure); opened {
		t.Fatal("1 failure of 1 call opened it, below MinCalls")
	}
	call(c, 0, Failure)
	if _, opened := call(c, 0, Failure); !opened {
		t.Error("3 failures of 3 calls did not open it")
	}
	c = New(p, 0)
	for range 3 {
		call(c, 0, Success)
	}
	for i := range 4 {
		if _, opened := call(c, 0, Failure); opened {
			t.Fatalf("%d failures of %d calls opened it, below 60%%", i+1, i+4)
		}
	}
	if _, opened := call(c, 0, Failure); !opened {
		t.Error("5 failures of 8 calls (62.5%) did not open it")
	}
}

// The counts reset Interval after they began: after it, not at it.
func TestInterval(t *testing.T) {
	p := Params{Threshold: 2, Interval: time.Minute, OpenFor: time.Minute, Probes: 1}
	c := New(p, 0)
	call(c, 0, Failure)
	if _, opened := call(c, time.Minute, Failure); !opened {
		t.Error("a failure at the Interval's end did not count with one at its start")
	}
	c = New(p, 0)
	call(c, 0, Failure)
	if _, opened := call(c, time.Minute+1, Failure); opened {
		t.Error("a failure one Interval old still counted")
	}
}

// A growing open duration, capped, and reset when the breaker closes.
func TestOpenGrowth(t *testing.T) {
	p := Params{Threshold: 1, OpenFor: time.Minute, OpenGrowth: 2, OpenMax: 3 * time.Minute, Probes: 2, ProbeSuccesses: 1, ProbeFailures: 2}
	c := New(p, 0)
	call(c, 0, Failure)
	want := []time.Duration{2 * time.Minute, 3 * time.Minute, 3 * time.Minute}
	for i, w := range want {
		h := c.HalfOpenAt()
		call(c, h, Failure)
		if got := c.Phase(h); got != HalfOpen {
			t.Fatalf("after one of two failed probes: %v, want half-open", got)
		}
		call(c, h, Failure)
		if got := c.OpenFor(); got != w {
			t.Errorf("open %d: OpenFor = %v, want %v", i+2, got, w)
		}
	}
	h := c.HalfOpenAt()
	call(c, h, Success)
	if got := c.OpenFor(); got != time.Minute {
		t.Errorf("OpenFor after closing = %v, want 1m again", got)
	}
}

// Ignored outcomes neither open a breaker nor reset it.
func TestIgnored(t *testing.T) {
	c := New(Params{Threshold: 2, OpenFor: time.Minute, Probes: 1}, 0)
	call(c, 0, Failure)
	for range 10 {
		if _, opened := call(c, 0, Ignored); opened {
			t.Fatal("an ignored outcome opened it")
		}
	}
	if _, opened := call(c, 0, Failure); !opened {
		t.Error("ignored outcomes reset the consecutive count")
	}
}

func TestPhaseString(t *testing.T) {
	for p, want := range map[Phase]string{Closed: "closed", Open: "open", HalfOpen: "half-open"} {
		if got := p.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", p, got, want)
		}
	}
}
