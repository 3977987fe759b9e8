package retrytest_test

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/internal/circuit"
	"github.com/retrykit/retrykit/retrytest"
)

// Every field a breaker needs, and every contradiction, is an error that
// names the field; nothing panics.
func TestBreakerValidate(t *testing.T) {
	ok := retrytest.Breaker{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1}
	if err := ok.Validate(); err != nil {
		t.Fatalf("sony/gobreaker's defaults: Validate() = %v, want nil", err)
	}
	for _, tc := range []struct {
		name string
		edit func(*retrytest.Breaker)
		want string
	}{
		{"threshold 0", func(b *retrytest.Breaker) { b.Threshold = 0 }, "Threshold 0: the breaker never opens"},
		{"threshold negative", func(b *retrytest.Breaker) { b.Threshold = -1 }, "Threshold -1, want 1 or more"},
		{"threshold and rate", func(b *retrytest.Breaker) { b.FailureRate = 0.5 }, "Threshold 6 and FailureRate 0.5"},
		{"rate above 1", func(b *retrytest.Breaker) { b.Threshold, b.FailureRate = 0, 1.5 }, "FailureRate 1.5, want a share from 0 to 1"},
		{"rate NaN", func(b *retrytest.Breaker) { b.Threshold, b.FailureRate = 0, math.NaN() }, "FailureRate NaN"},
		{"out of below threshold", func(b *retrytest.Breaker) { b.OutOf = 3 }, "Threshold 6 of the last OutOf 3 calls can never fail"},
		{"out of with rate", func(b *retrytest.Breaker) { b.Threshold, b.FailureRate, b.OutOf = 0, 0.5, 10 }, "OutOf 10 with a FailureRate"},
		{"min calls alone", func(b *retrytest.Breaker) { b.MinCalls = 3 }, "MinCalls 3 without a FailureRate"},
		{"interval negative", func(b *retrytest.Breaker) { b.Interval = -time.Second }, "Interval -1s"},
		{"open for 0", func(b *retrytest.Breaker) { b.OpenFor = 0 }, "OpenFor 0s, want how long the breaker stays open"},
		{"growth below 1", func(b *retrytest.Breaker) { b.OpenGrowth = 0.5 }, "OpenGrowth 0.5, want 1 or more"},
		{"open max below open for", func(b *retrytest.Breaker) { b.OpenMax = time.Second }, "OpenMax 1s is below OpenFor 1m"},
		{"probes 0", func(b *retrytest.Breaker) { b.Probes = 0 }, "Probes 0: a half-open breaker that lets no call through never closes"},
		{"probe successes above probes", func(b *retrytest.Breaker) { b.ProbeSuccesses = 2 }, "ProbeSuccesses 2 of 1 Probes can never succeed"},
		{"probe failures above probes", func(b *retrytest.Breaker) { b.ProbeFailures = 3 }, "ProbeFailures 3 of 1 Probes can never fail"},
	} {
		b := ok
		tc.edit(&b)
		err := b.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), "retrytest: Breaker: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate() = %v, want an error naming %q", tc.name, err, tc.want)
		}
	}
	if err := (retrytest.Breaker{}).Validate(); err == nil || !strings.Contains(err.Error(), "Threshold 0") || !strings.Contains(err.Error(), "OpenFor 0s") || !strings.Contains(err.Error(), "Probes 0") {
		t.Errorf("the zero Breaker: Validate() = %v, want Threshold, OpenFor and Probes named", err)
	}
}

func TestBreakerString(t *testing.T) {
	for _, tc := range []struct {
		b    retrytest.Breaker
		want string
	}{
		{retrytest.Breaker{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1}, "opens after 6 consecutive failures, open 1m (half-open after it), 1 probe"},
		{retrytest.Breaker{Threshold: 1, OpenFor: time.Minute, Probes: 1}, "opens on a failure, open 1m, 1 probe"},
		{retrytest.Breaker{Threshold: 3, OutOf: 5, OpenFor: 30 * time.Second, Probes: 3, ProbeSuccesses: 1, ProbeFailures: 3}, "opens after 3 failures of the last 5 calls, open 30s, 3 probes (1 to close, 3 to reopen)"},
		{retrytest.Breaker{FailureRate: 0.6, MinCalls: 3, Interval: time.Minute, OpenFor: time.Minute, OpenGrowth: 2, OpenMax: 10 * time.Minute, Probes: 1}, "opens when 60% of at least 3 calls fail (counts reset every 1m), open 1m x2 a failed probe up to 10m, 1 probe"},
	} {
		if got := tc.b.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

// The two most used Go breakers' defaults, declared.
func ExampleBreaker() {
	gobreaker := retrytest.Breaker{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1}
	failsafe := retrytest.Breaker{Threshold: 1, OpenFor: time.Minute, Probes: 1}
	fmt.Println(gobreaker)
	fmt.Println(failsafe)
	fmt.Println(retrytest.Breaker{Threshold: 6, OpenFor: time.Minute}.Validate())
	// Output:
	// opens after 6 consecutive failures, open 1m (half-open after it), 1 probe
	// opens on a failure, open 1m, 1 probe
	// retrytest: Breaker: Probes 0: a half-open breaker that lets no call through never closes, want 1 or more
}

// No Breaker panics: Validate names what is wrong with any values, String
// prints any, and a valid one runs as a state machine through any calls.
func FuzzBreaker(f *testing.F) {
	f.Add(6, 0, 0.0, 0, int64(0), int64(time.Minute), true, 0.0, int64(0), 1, 0, 0, uint64(0xF0F0))
	f.Add(3, 5, 0.0, 0, int64(time.Minute), int64(time.Second), false, 2.0, int64(time.Hour), 3, 1, 3, uint64(12345))
	f.Add(0, 0, 0.6, 3, int64(0), int64(1), false, 0.0, int64(0), 1, 0, 0, uint64(7))
	f.Fuzz(func(t *testing.T, threshold, outOf int, rate float64, minCalls int, interval, openFor int64, after bool, growth float64, openMax int64, probes, succ, fails int, calls uint64) {
		b := retrytest.Breaker{Threshold: threshold, OutOf: outOf, FailureRate: rate, MinCalls: minCalls, Interval: time.Duration(interval), OpenFor: time.Duration(openFor),
			HalfOpensAfter: after, OpenGrowth: growth, OpenMax: time.Duration(openMax), Probes: probes, ProbeSuccesses: succ, ProbeFailures: fails}
		_ = b.String()
		if b.Validate() != nil || b.Threshold > 1000 || b.OutOf > 1000 || b.Probes > 1000 {
			return
		}
		c := circuit.New(circuit.Params(b), 0)
		at := time.Duration(0)
		for i := range 64 {
			at += time.Duration(calls>>(i%16)&0xF) * time.Second
			if c.Allow(at) {
				c.Record(at, circuit.Outcome(calls>>i&1))
			}
			if h := c.HalfOpenAt(); c.Phase(at) == circuit.Open && h < at {
				t.Fatalf("open at %v, past its half-open instant %v", at, h)
			}
		}
	})
}
