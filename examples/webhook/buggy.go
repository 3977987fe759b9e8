package webhook

import (
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

// The old implementations below are the policy as it ran in production
// for a year, one function per bug it had, each otherwise identical to
// Decide. They are kept so that the tests prove retrykit catches each bug:
// the checks that pass on Decide fail on them. Do not use them.

// DecideJitterAfterCap is the old implementation with the jitter added
// after capping: min(Cap, Base·2^attempt + jitter). From attempt 10 on,
// where Base·2^attempt passes the cap, every delay is exactly Cap, so all
// the jobs at the cap retry in step.
func DecideJitterAfterCap(attempt int, err error, rng *rand.Rand) Decision {
	if Permanent(err) {
		return Decision{Reason: "permanent"}
	}
	if attempt >= MaxRetries {
		return Decision{Reason: "exhausted"}
	}
	if se, ok := errors.AsType[*StatusError](err); ok && se.StatusCode == http.StatusTooManyRequests && se.HasRetryAfter {
		return Decision{Retry: true, Delay: min(max(se.RetryAfter, Base), Cap), Reason: "retry-after"}
	}
	return Decision{Retry: true, Delay: min(Cap, Base<<max(attempt, 0)+jitter(Base, rng)), Reason: "backoff"} // bug
}

// DecideMinuteCap is the old implementation with a cap of 60 seconds
// instead of the intended 60 minutes.
func DecideMinuteCap(attempt int, err error, rng *rand.Rand) Decision {
	const oldCap = 60 * time.Second // bug: the cap is an hour
	if Permanent(err) {
		return Decision{Reason: "permanent"}
	}
	if attempt >= MaxRetries {
		return Decision{Reason: "exhausted"}
	}
	if se, ok := errors.AsType[*StatusError](err); ok && se.StatusCode == http.StatusTooManyRequests && se.HasRetryAfter {
		return Decision{Retry: true, Delay: min(max(se.RetryAfter, Base), oldCap), Reason: "retry-after"}
	}
	return Decision{Retry: true, Delay: jitter(min(oldCap, Base<<max(attempt, 0)), rng), Reason: "backoff"}
}

// DecideNoDelayOn429 is the old implementation that treated every 429 as
// carrying a Retry-After: without the field, RetryAfter is 0 and the
// delivery was retried at once, against an endpoint that had just said it
// was overloaded.
func DecideNoDelayOn429(attempt int, err error, rng *rand.Rand) Decision {
	if Permanent(err) {
		return Decision{Reason: "permanent"}
	}
	if attempt >= MaxRetries {
		return Decision{Reason: "exhausted"}
	}
	if se, ok := errors.AsType[*StatusError](err); ok && se.StatusCode == http.StatusTooManyRequests { // bug: && se.HasRetryAfter
		return Decision{Retry: true, Delay: min(se.RetryAfter, Cap), Reason: "retry-after"}
	}
	return Decision{Retry: true, Delay: jitter(min(Cap, Base<<max(attempt, 0)), rng), Reason: "backoff"}
}
