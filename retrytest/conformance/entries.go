package conformance

import (
	"testing"

	"github.com/retrykit/retrykit/retrytest"
)

// The properties of each shape, in the order they run and are reported.

func scheduleProps() []property {
	return []property{
		{name: probeName, skip: skipProbe, run: waitsOnTheClock, waits: true},
		{name: "FirstAttemptImmediate", run: firstAttemptImmediate},
		{name: "WaitsInWindows", skip: skipOneAttempt, run: waitsInWindows, waits: true},
		{name: "JitterFromSource", skip: skipJitterFromSource, run: jitterFromSource, waits: true},
		{name: "CapReached", skip: skipCap, run: capReached, waits: true},
		{name: "NoSpikeAtCap", skip: skipSpread, run: noSpikeAtCap, waits: true},
		{name: "AttemptCount", skip: skipAttemptCount, run: attemptCount, waits: true},
		{name: "NoWaitAfterLastAttempt", skip: skipAttemptCount, run: noWaitAfterLastAttempt, waits: true},
	}
}

func callProps() []property {
	return []property{
		{name: "CancelDuringWait", skip: skipCancel, run: cancelDuringWait, waits: true},
		{name: "DeadlineCutsWait", skip: skipDeadline, run: deadlineCutsWait, waits: true},
		{name: "BudgetHonoured", skip: skipBudget, run: budgetHonoured, waits: true},
		{name: "AttemptTimeout", skip: skipAttemptTimeout, run: attemptTimeout, waits: true},
		{name: "FreshEachCall", skip: skipIndependentCalls, run: freshEachCall, waits: true},
		{name: "ConcurrentCalls", skip: skipIndependentCalls, run: concurrentCallsProp, waits: true},
		{name: "NoLeaks", run: noLeaks, waits: true},
	}
}

var hintProps = []string{"RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd", "HintFields"}

func loopProps() []property {
	props := scheduleProps()
	props = append(props, property{name: "PermanentNotRetried", skip: skipPermanent, run: permanentNotRetried})
	return append(props, callProps()...)
}

func clientProps() []property {
	props := scheduleProps()
	props = append(props,
		property{name: "PermanentNotRetried", skip: skipPermanent, run: permanentNotRetried},
		property{name: "RetryableStatuses", skip: skipRetryable, run: retryableStatuses, waits: true},
		property{name: "ConnectionErrors", skip: skipOneAttempt, run: connectionErrors, waits: true},
		property{name: "RetrySignals", skip: skipSignals, run: retrySignals, waits: true},
	)
	for _, h := range hintProps {
		props = append(props, property{name: h, skip: skipHint(h), run: hintProp(h), waits: true})
	}
	props = append(props, property{name: "IdempotencyKey", skip: skipIdempotency, run: idempotencyKey, waits: true})
	return append(props, callProps()...)
}

func policyProps() []property {
	noCall := notInPolicy("makes no call: the code around it does")
	props := []property{
		{name: probeName, skip: notInPolicy("does not wait: the code around it does")},
		{name: "FirstAttemptImmediate", skip: notInPolicy("does not make the first attempt: the code around it does")},
		{name: "WaitsInWindows", skip: skipOneAttempt, run: policyWindows},
		{name: "JitterFromSource", skip: skipJitterFromSource, run: policyJitter},
		{name: "CapReached", skip: skipCap, run: policyCap},
		{name: "NoSpikeAtCap", skip: skipSpread, run: policySpread},
		{name: "AttemptCount", skip: skipAttemptCount, run: policyAttempts},
		{name: "NoWaitAfterLastAttempt", skip: notInPolicy("does not wait: AttemptCount checks that it stops after the last attempt")},
		{name: "PermanentNotRetried", skip: skipPermanent, run: policyPermanent},
		{name: "RetryableStatuses", skip: skipRetryable, run: policyRetryable},
		{name: "ConnectionErrors", skip: skipOneAttempt, run: policyConnErrors},
		{name: "RetrySignals", skip: skipSignals, run: policySignals},
	}
	for _, h := range hintProps {
		props = append(props, property{name: h, skip: skipHint(h), run: policyHint(h)})
	}
	props = append(props, property{name: "IdempotencyKey", skip: notInPolicy("sends no request")})
	for _, p := range callProps() {
		props = append(props, property{name: p.name, skip: noCall})
	}
	return props
}

// TestPolicy checks a pure retry policy against spec: every property of
// the contract a policy can show runs as a subtest of t, named for it
// (its cases as subtests of that one), and the others are skipped, saying
// why. It returns the [Report] of the run. decide is the policy, adapted
// to the suite's retrytest.Outcome in a few lines:
//
//	conformance.TestPolicy(t, spec, func(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
//		err := o.Err
//		if o.Status != 0 {
//			err = webhook.ResponseError(o.Response(), o.Now)
//		}
//		return retrytest.Decision(webhook.Decide(failed, err, rng))
//	})
func TestPolicy(t *testing.T, spec Spec, decide retrytest.DecideFunc, opts ...Option) *Report {
	t.Helper()
	c, err := policyConfig(spec, decide, opts)
	return runTest(t, c, err, policyProps())
}

// CheckPolicy is [TestPolicy] returning the [Report] instead of failing a
// t, for an Example. It returns an error for a Spec the suite cannot run
// and for a waiver that names no property.
func CheckPolicy(spec Spec, decide retrytest.DecideFunc, opts ...Option) (*Report, error) {
	c, err := policyConfig(spec, decide, opts)
	return runCheck(c, err, policyProps())
}

func policyConfig(spec Spec, decide retrytest.DecideFunc, opts []Option) (*config, error) {
	c, err := newConfig("policy", spec, opts)
	if err == nil && decide == nil {
		err = errNilDecide
	}
	c.decide = decide
	return c, err
}

// TestLoop checks retry code around an operation against spec: every
// property runs as a subtest of t (its cases as subtests of that one),
// each on a fresh fake clock (or, with RunInBubble, in a testing/synctest
// bubble) and a random source of the suite's choice, and it returns the
// [Report] of the run. newLoop builds the code under test with the
// suite's seams; it is called once per call the suite makes, but
// FreshEachCall and ConcurrentCalls, which call one Loop several times:
//
//	conformance.TestLoop(t, spec, func(s conformance.Seams) conformance.Loop {
//		r := myretry.New(myretry.WithClock(s.Clock), myretry.WithRand(rand.New(s.Rand)))
//		return r.Do
//	})
func TestLoop(t *testing.T, spec Spec, newLoop func(Seams) Loop, opts ...Option) *Report {
	t.Helper()
	c, err := loopConfig(spec, newLoop, opts)
	return runTest(t, c, err, loopProps())
}

// CheckLoop is [TestLoop] returning the [Report] instead of failing a t,
// for an Example. It cannot open a synctest bubble: with RunInBubble it
// returns an error; use TestLoop, which returns the Report too.
func CheckLoop(spec Spec, newLoop func(Seams) Loop, opts ...Option) (*Report, error) {
	c, err := loopConfig(spec, newLoop, opts)
	return runCheck(c, err, loopProps())
}

func loopConfig(spec Spec, newLoop func(Seams) Loop, opts []Option) (*config, error) {
	c, err := newConfig("loop", spec, opts)
	if err == nil && newLoop == nil {
		err = errNilAdapter
	}
	c.newLoop = newLoop
	return c, err
}

// TestClient checks a retrying HTTP client against spec: every property
// runs as a subtest of t (its cases as subtests of that one), the client
// sending through a scripted transport (statuses, Retry-After in every
// form, connection resets, timeouts) on a fresh fake clock (or, with
// RunInBubble, in a bubble), and it returns the [Report] of the run.
// newClient builds the client over the suite's seams:
//
//	conformance.TestClient(t, spec, func(s conformance.Seams) conformance.Do {
//		c := myclient.New(myclient.WithTransport(s.Transport), myclient.WithClock(s.Clock), myclient.WithRand(rand.New(s.Rand)))
//		return c.Do
//	})
func TestClient(t *testing.T, spec Spec, newClient func(Seams) Do, opts ...Option) *Report {
	t.Helper()
	c, err := clientConfig(spec, newClient, opts)
	return runTest(t, c, err, clientProps())
}

// CheckClient is [TestClient] returning the [Report] instead of failing a
// t, for an Example. With RunInBubble it returns an error; use
// TestClient, which returns the Report too.
func CheckClient(spec Spec, newClient func(Seams) Do, opts ...Option) (*Report, error) {
	c, err := clientConfig(spec, newClient, opts)
	return runCheck(c, err, clientProps())
}

func clientConfig(spec Spec, newClient func(Seams) Do, opts []Option) (*config, error) {
	c, err := newConfig("client", spec, opts)
	if err == nil && newClient == nil {
		err = errNilAdapter
	}
	c.newClient = newClient
	return c, err
}
