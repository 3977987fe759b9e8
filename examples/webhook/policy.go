package webhook

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net/http"
	"time"
)

// The policy's parameters: the written statement of intended behaviour that
// the tests hold Decide to.
const (
	// Base is the ceiling of the first retry's delay.
	Base = 5 * time.Second
	// Cap is the largest ceiling: the ceilings double from Base up to Cap.
	Cap = time.Hour
	// MaxRetries is how many times a delivery is retried before Decide
	// gives up: 13 deliveries in all, the first and 12 retries. (The seed
	// calls it MAX_ATTEMPTS but counts retries, as Celery's max_retries
	// does; the Go name says what it counts.)
	MaxRetries = 12
)

// Decision is what the policy decides after a failed delivery. It has the
// fields of [github.com/retrykit/retrykit/retrytest.Decision] in the same
// order, so a test converts one into the other.
type Decision struct {
	// Retry reports whether the delivery is retried.
	Retry bool
	// Delay is the wait before the retry; it is 0 when Retry is false.
	Delay time.Duration
	// Reason says why: "backoff", "retry-after", "permanent" or
	// "exhausted".
	Reason string
}

// Policy is the shape of a retry policy: Decide, or one of the old
// policies kept in buggy.go.
type Policy func(attempt int, err error, rng *rand.Rand) Decision

// Decide is the retry policy of the webhook worker, as a pure function:
// after the delivery numbered attempt (0 for the first delivery, 1 for the
// first retry, …) failed with err, it decides whether to retry and after
// which delay, drawing any randomness from rng. It reads no clock and does
// no I/O, so a test can call it for every attempt and every error.
//
//   - A permanent error is not retried: a 4xx status other than 408 and 429,
//     and a TLS certificate error, which will not fix itself in an hour.
//   - After MaxRetries retries the delivery is given up ("exhausted").
//   - A 429 whose Retry-After was usable waits what the endpoint asked,
//     but at least Base and at most Cap ("retry-after").
//   - Everything else, a 429 without Retry-After included, backs off with
//     full jitter under a capped ceiling: a delay drawn uniformly from
//     [0, min(Cap, Base·2^attempt)], both ends included ("backoff"). The
//     ceiling is capped first and the jitter drawn under it, so delays at
//     the cap stay spread over the whole hour.
func Decide(attempt int, err error, rng *rand.Rand) Decision {
	if Permanent(err) {
		return Decision{Reason: "permanent"}
	}
	if attempt >= MaxRetries {
		return Decision{Reason: "exhausted"}
	}
	if se, ok := errors.AsType[*StatusError](err); ok && se.StatusCode == http.StatusTooManyRequests && se.HasRetryAfter {
		return Decision{Retry: true, Delay: min(max(se.RetryAfter, Base), Cap), Reason: "retry-after"}
	}
	ceiling := min(Cap, Base<<max(attempt, 0)) // cap first...
	return Decision{Retry: true, Delay: jitter(ceiling, rng), Reason: "backoff"}
}

// jitter draws a delay uniformly from [0, ceiling], both ends included.
func jitter(ceiling time.Duration, rng *rand.Rand) time.Duration {
	return time.Duration(rng.Int64N(int64(ceiling) + 1)) // ...then full jitter under it
}

// Permanent reports whether err is an error that retrying cannot fix:
// a status of 400-499 other than 408 Request Timeout and 429 Too Many
// Requests, or a TLS certificate the client does not trust.
func Permanent(err error) bool {
	if se, ok := errors.AsType[*StatusError](err); ok {
		c := se.StatusCode
		return c >= 400 && c < 500 && c != http.StatusRequestTimeout && c != http.StatusTooManyRequests
	}
	_, verify := errors.AsType[*tls.CertificateVerificationError](err)
	_, authority := errors.AsType[x509.UnknownAuthorityError](err)
	_, invalid := errors.AsType[x509.CertificateInvalidError](err)
	_, host := errors.AsType[x509.HostnameError](err)
	return verify || authority || invalid || host
}
