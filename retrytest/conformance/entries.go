package conformance

import (
	"testing"

	"github.com/retrykit/retrykit/retrytest"
)

// The properties of each shape, in the order they run and are reported.

func scheduleProps() []property {
	return []property{
		{name: "FirstAttemptImmediate", run: firstAttemptImmediate},
		{name: "WaitsInWindows", skip: skipOneAttempt, run: waitsInWindows},
		{name: "JitterFromSource", skip: skipJitterFromSource, run: jitterFromSource},
		{name: "CapReached", skip: skipCap, run: capReached},
		{name: "NoSpikeAtCap", skip: skipSpread, run: noSpikeAtCap},
		{name: "AttemptCount", skip: skipAttemptCount, run: attemptCount},
		{name: "NoWaitAfterLastAttempt", skip: skipAttemptCount, run: noWaitAfterLastAttempt},
	}
}

func callProps() []property {
	return []property{
		{name: "CancelDuringWait", skip: skipCancel, run: cancelDuringWait},
		{name: "DeadlineCutsWait", skip: skipDeadline, run: deadlineCutsWait},
		{name: "BudgetHonoured", skip: skipBudget, run: budgetHonoured},
		{name: "FreshEachCall", run: freshEachCall},
		{name: "ConcurrentCalls", run: concurrentCallsProp},
		{name: "NoLeaks", run: noLeaks},
	}
}

var hintProps = []string{"RetryAfterSeconds", "RetryAfterHTTPDate", "RetryAfterClamped", "RetryAfterFloored", "RetryAfterMalformed", "RetryAfterAbsurd"}

func loopProps() []property {
	props := scheduleProps()
	props = append(props, property{name: "PermanentNotRetried", skip: skipPermanent, run: permanentNotRetried})
	return append(props, callProps()...)
}

func clientProps() []property {
	props := scheduleProps()
	props = append(props,
		property{name: "PermanentNotRetried", run: permanentNotRetried},
		property{name: "RetryableStatuses", skip: skipOneAttempt, run: retryableStatuses},
		property{name: "ConnectionErrors", skip: skipOneAttempt, run: connectionErrors},
	)
	for _, h := range hintProps {
		props = append(props, property{name: h, skip: skipHint(h), run: hintProp(h)})
	}
	props = append(props, property{name: "IdempotencyKey", skip: skipIdempotency, run: idempotencyKey})
	return append(props, callProps()...)
}

func policyProps() []property {
	noCall := notInPolicy("makes no call: the code around it does")
	props := []property{
		{name: "FirstAttemptImmediate", skip: notInPolicy("does not make the first attempt: the code around it does")},
		{name: "WaitsInWindows", skip: skipOneAttempt, run: policyWindows},
		{name: "JitterFromSource", skip: skipJitterFromSource, run: policyJitter},
		{name: "CapReached", skip: skipCap, run: policyCap},
		{name: "NoSpikeAtCap", skip: skipSpread, run: policySpread},
		{name: "AttemptCount", skip: skipAttemptCount, run: policyAttempts},
		{name: "NoWaitAfterLastAttempt", skip: notInPolicy("does not wait: AttemptCount checks that it stops after the last attempt")},
		{name: "PermanentNotRetried", run: policyPermanent},
		{name: "RetryableStatuses", skip: skipOneAttempt, run: policyRetryable},
		{name: "ConnectionErrors", skip: skipOneAttempt, run: policyConnErrors},
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
// the contract a policy can show runs as a subtest of t, named for it, and
// the others are skipped, saying why. decide is the policy, adapted to the
// suite's retrytest.Outcome in a few lines:
//
//	conformance.TestPolicy(t, spec, func(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
//		err := o.Err
//		if o.Status != 0 {
//			err = webhook.ResponseError(o.Response(), o.Now)
//		}
//		return retrytest.Decision(webhook.Decide(failed, err, rng))
//	})
func TestPolicy(t *testing.T, spec Spec, decide retrytest.DecideFunc, opts ...Option) {
	t.Helper()
	c, err := newConfig("policy", spec, opts)
	if err == nil && decide == nil {
		err = errNilDecide
	}
	c.decide = decide
	runTest(t, c, err, policyProps())
}

// CheckPolicy is [TestPolicy] returning the [Report] instead of failing a
// t, for an Example. It returns an error for a Spec that contradicts itself
// and for a waiver that names no property.
func CheckPolicy(spec Spec, decide retrytest.DecideFunc, opts ...Option) (*Report, error) {
	c, err := newConfig("policy", spec, opts)
	if err == nil && decide == nil {
		err = errNilDecide
	}
	c.decide = decide
	return runCheck(c, err, policyProps())
}

// TestLoop checks retry code around an operation against spec: every
// property runs as a subtest of t, each on a fresh fake clock (or, with
// InBubble, in a testing/synctest bubble) and a random source of the
// suite's choice. newLoop builds the code under test with the suite's
// seams; it is called once per call the suite makes, but FreshEachCall and
// ConcurrentCalls, which call one Loop several times:
//
//	conformance.TestLoop(t, spec, func(s conformance.Seams) conformance.Loop {
//		r := myretry.New(myretry.WithClock(s.Clock), myretry.WithRand(s.Rand))
//		return r.Do
//	})
func TestLoop(t *testing.T, spec Spec, newLoop func(Seams) Loop, opts ...Option) {
	t.Helper()
	c, err := newConfig("loop", spec, opts)
	if err == nil && newLoop == nil {
		err = errNilAdapter
	}
	c.newLoop = newLoop
	runTest(t, c, err, loopProps())
}

// CheckLoop is [TestLoop] returning the [Report] instead of failing a t,
// for an Example. It cannot open a synctest bubble: with RunInBubble, every
// property that calls the code is skipped.
func CheckLoop(spec Spec, newLoop func(Seams) Loop, opts ...Option) (*Report, error) {
	c, err := newConfig("loop", spec, opts)
	if err == nil && newLoop == nil {
		err = errNilAdapter
	}
	c.newLoop = newLoop
	return runCheck(c, err, loopProps())
}

// TestClient checks a retrying HTTP client against spec: every property
// runs as a subtest of t, the client sending through a scripted transport
// (statuses, Retry-After in every form, connection resets, timeouts) on a
// fresh fake clock (or, with RunInBubble, in a bubble). newClient builds the
// client over the suite's seams:
//
//	conformance.TestClient(t, spec, func(s conformance.Seams) conformance.Do {
//		c := myclient.New(myclient.WithTransport(s.Transport), myclient.WithClock(s.Clock), myclient.WithRand(s.Rand))
//		return c.Do
//	})
func TestClient(t *testing.T, spec Spec, newClient func(Seams) Do, opts ...Option) {
	t.Helper()
	c, err := newConfig("client", spec, opts)
	if err == nil && newClient == nil {
		err = errNilAdapter
	}
	c.newClient = newClient
	runTest(t, c, err, clientProps())
}

// CheckClient is [TestClient] returning the [Report] instead of failing a
// t, for an Example. With InBubble, every property that calls the client
// is skipped.
func CheckClient(spec Spec, newClient func(Seams) Do, opts ...Option) (*Report, error) {
	c, err := newConfig("client", spec, opts)
	if err == nil && newClient == nil {
		err = errNilAdapter
	}
	c.newClient = newClient
	return runCheck(c, err, clientProps())
}
