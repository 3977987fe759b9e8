package retrytest

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Breaker is a declared circuit breaker: which failures open it, how long
// it stays open, and how it probes and closes again. It is the one breaker
// type of retrykit, as [Policy] is the one backoff: the conformance suite
// holds a breaker's code to it (conformance.BreakerSpec), and package
// policysim gives one to each client of a fleet.
//
// Closed, the breaker counts the calls it lets through. It opens on the
// failure that makes Threshold consecutive failures, or Threshold of the
// last OutOf calls, or, with a FailureRate instead, a share of at least
// FailureRate of the calls counted since its counts last reset (at least
// MinCalls of them). Open, it refuses every call for OpenFor, measured
// from that failure; then it is half-open: it lets Probes calls through,
// and ProbeSuccesses successes close it (its counts fresh) while
// ProbeFailures failures open it again, for OpenFor grown by OpenGrowth.
//
// sony/gobreaker v2's defaults, and failsafe-go's:
//
//	retrytest.Breaker{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1} // ConsecutiveFailures > 5
//	retrytest.Breaker{Threshold: 1, OpenFor: time.Minute, Probes: 1}
type Breaker struct {
	// Threshold is how many failures open the breaker: consecutive ones
	// (a success resets the count), or, with OutOf, among the last
	// OutOf calls counted. 0 with a FailureRate.
	Threshold int
	// OutOf makes Threshold a ratio over a rolling count: Threshold
	// failures of the last OutOf calls open the breaker, as failsafe-go's
	// WithFailureThresholdRatio(Threshold, OutOf) does; 0 means
	// consecutive failures.
	OutOf int
	// FailureRate, from 0 to 1, opens the breaker instead of Threshold:
	// on the failure that makes at least that share of the calls counted
	// since the counts last reset fail, once MinCalls were counted (the
	// ReadyToTrip of sony/gobreaker's README is 0.6 of at least 3).
	FailureRate float64
	// MinCalls is how many calls a FailureRate needs counted first; 0
	// means 1.
	MinCalls int
	// Interval resets a closed breaker's counts that long after they
	// began (sony/gobreaker's Interval): a failure at the start of the
	// counts no longer counts one Interval later. 0 means never, but
	// for consecutive failures, whose count a success resets.
	Interval time.Duration
	// OpenFor is how long the breaker stays open, from the failure that
	// opened it, before it lets a probe through. Required.
	OpenFor time.Duration
	// HalfOpensAfter says the breaker is still open at the instant open +
	// OpenFor and half-opens just after it, as sony/gobreaker's
	// expiry.Before(now) does; false, that it half-opens at open +
	// OpenFor, as failsafe-go's elapsed >= delay does.
	HalfOpensAfter bool
	// OpenGrowth multiplies the open duration each time a failed probe
	// opens the breaker again, up to OpenMax (0 means no cap); 0 or 1
	// means every open lasts OpenFor. Closing the breaker resets it.
	OpenGrowth float64
	OpenMax    time.Duration
	// Probes is how many calls the half-open breaker lets through: it
	// refuses every call beyond them, at once too. Required.
	Probes int
	// ProbeSuccesses is how many successful probes close the breaker; 0
	// means Probes (sony/gobreaker's MaxRequests). ProbeFailures is how
	// many failed probes open it again; 0 means 1 (failsafe-go with a
	// Threshold of 5 and no success threshold needs 5, and closes on one
	// success).
	ProbeSuccesses int
	ProbeFailures  int
}

// Validate reports a breaker that contradicts itself or that never opens
// or closes, naming each field and what it expects.
func (b Breaker) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	switch {
	case b.Threshold < 0:
		bad("Threshold %d, want 1 or more", b.Threshold)
	case b.Threshold == 0 && b.FailureRate == 0:
		bad("Threshold 0: the breaker never opens, want the failures that open it (or a FailureRate)")
	case b.Threshold > 0 && b.FailureRate != 0:
		bad("Threshold %d and FailureRate %v: a breaker opens on one or the other, want one of them", b.Threshold, b.FailureRate)
	}
	if !(b.FailureRate >= 0 && b.FailureRate <= 1) {
		bad("FailureRate %v, want a share from 0 to 1 (0 means Threshold)", b.FailureRate)
	}
	switch {
	case b.OutOf < 0:
		bad("OutOf %d, want 0 (consecutive failures) or more", b.OutOf)
	case b.OutOf > 0 && b.FailureRate != 0:
		bad("OutOf %d with a FailureRate: OutOf makes Threshold a ratio, want one of them", b.OutOf)
	case b.OutOf > 0 && b.OutOf < b.Threshold:
		bad("Threshold %d of the last OutOf %d calls can never fail, want OutOf >= Threshold", b.Threshold, b.OutOf)
	}
	switch {
	case b.MinCalls < 0:
		bad("MinCalls %d, want 0 or more", b.MinCalls)
	case b.MinCalls > 0 && b.FailureRate == 0:
		bad("MinCalls %d without a FailureRate, want a FailureRate or MinCalls 0", b.MinCalls)
	}
	if b.Interval < 0 {
		bad("Interval %s, want >= 0s (0 means the counts never reset on a timer)", schedfmt.Duration(b.Interval))
	}
	if b.OpenFor <= 0 {
		bad("OpenFor %s, want how long the breaker stays open, > 0s", schedfmt.Duration(b.OpenFor))
	}
	if b.OpenGrowth != 0 && !(b.OpenGrowth >= 1 && !math.IsInf(b.OpenGrowth, 0)) {
		bad("OpenGrowth %v, want 1 or more (0 means every open lasts OpenFor)", b.OpenGrowth)
	}
	switch {
	case b.OpenMax < 0:
		bad("OpenMax %s, want >= 0s (0 means no cap)", schedfmt.Duration(b.OpenMax))
	case b.OpenMax > 0 && b.OpenMax < b.OpenFor:
		bad("OpenMax %s is below OpenFor %s, want OpenMax >= OpenFor", schedfmt.Duration(b.OpenMax), schedfmt.Duration(b.OpenFor))
	}
	switch {
	case b.Probes < 0:
		bad("Probes %d, want 1 or more", b.Probes)
	case b.Probes == 0:
		bad("Probes 0: a half-open breaker that lets no call through never closes, want 1 or more")
	}
	switch {
	case b.ProbeSuccesses < 0:
		bad("ProbeSuccesses %d, want 1 or more (0 means Probes)", b.ProbeSuccesses)
	case b.Probes > 0 && b.ProbeSuccesses > b.Probes:
		bad("ProbeSuccesses %d of %d Probes can never succeed, want ProbeSuccesses <= Probes", b.ProbeSuccesses, b.Probes)
	}
	switch {
	case b.ProbeFailures < 0:
		bad("ProbeFailures %d, want 1 or more (0 means 1)", b.ProbeFailures)
	case b.Probes > 0 && b.ProbeFailures > b.Probes:
		bad("ProbeFailures %d of %d Probes can never fail, want ProbeFailures <= Probes", b.ProbeFailures, b.Probes)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("retrytest: Breaker: %w", err)
	}
	return nil
}

// String describes the breaker in a few words: "opens after 6
// consecutive failures, open 1m (half-open after it), 1 probe".
func (b Breaker) String() string {
	var s strings.Builder
	switch {
	case b.FailureRate > 0:
		fmt.Fprintf(&s, "opens when %s%% of at least %s fail", strconv.FormatFloat(b.FailureRate*100, 'g', -1, 64), schedfmt.Count(max(b.MinCalls, 1), "call"))
	case b.OutOf > 0:
		fmt.Fprintf(&s, "opens after %d failures of the last %d calls", b.Threshold, b.OutOf)
	case b.Threshold == 1:
		s.WriteString("opens on a failure")
	default:
		fmt.Fprintf(&s, "opens after %d consecutive failures", b.Threshold)
	}
	if b.Interval > 0 {
		fmt.Fprintf(&s, " (counts reset every %s)", schedfmt.Duration(b.Interval))
	}
	fmt.Fprintf(&s, ", open %s", schedfmt.Duration(b.OpenFor))
	if b.HalfOpensAfter {
		s.WriteString(" (half-open after it)")
	}
	if b.OpenGrowth > 1 {
		fmt.Fprintf(&s, " x%s a failed probe", strconv.FormatFloat(b.OpenGrowth, 'g', -1, 64))
		if b.OpenMax > 0 {
			fmt.Fprintf(&s, " up to %s", schedfmt.Duration(b.OpenMax))
		}
	}
	fmt.Fprintf(&s, ", %s", schedfmt.Count(b.Probes, "probe"))
	succ, fail := b.ProbeSuccesses, max(b.ProbeFailures, 1)
	if succ == 0 {
		succ = b.Probes
	}
	if b.Probes > 1 || fail > 1 {
		fmt.Fprintf(&s, " (%d to close, %d to reopen)", succ, fail)
	}
	return s.String()
}
