// Package retryafter reads the wait hints servers send with 429 and 503
// responses — Retry-After in seconds and in all three HTTP-date forms,
// millisecond fields, the IETF RateLimit field and the reset fields of
// OpenAI, Anthropic, GitHub, X and Discord — and turns them into a delay
// that is safe to sleep: never negative, never NaN, never wrapped, never
// longer than a ceiling, and never 0 because a value was malformed.
//
// Clients get this wrong in the same few ways: a Retry-After of 86400 or
// 9223372037 honoured unclamped (a hang of days) or wrapped to a negative
// delay (an immediate retry burst); NaN, Inf or 1e100 read by a float
// parser and turned into a zero delay; only one of the three HTTP-date
// forms accepted; a zone such as CEST silently read as UTC; a malformed
// value turned into 0 instead of the client's own backoff. This package is
// meant for production code, as clockctx is: the parser you trust there,
// and the reference you test your own parser against.
//
// # Parsing one value
//
// [Parse] reads a Retry-After value relative to an explicit now: there is
// no hidden clock, so results are deterministic. It accepts delay-seconds,
// decimal seconds, and IMF-fixdate, RFC 850 and asctime dates. [ParseStrict]
// accepts only RFC 9110's grammar. A date already past gives 0; a value too
// large for a [time.Duration] gives [Forever]; anything else outside the
// grammar gives an error wrapping [ErrEmpty] or [ErrMalformed] that quotes
// the value and says what was expected:
//
//	d, err := retryafter.Parse(resp.Header.Get("Retry-After"), time.Now())
//	if err != nil {
//		d = backoff(attempt) // never 0: the server sent no usable hint
//	}
//
// [ParseField] reads any other field this package knows, by name, and
// [ParseProtoDuration] reads Google's RetryInfo retryDelay ("22s") from a
// JSON body.
//
// # Reading a response
//
// [FromResponse] reads a whole response in a documented order of
// precedence: Retry-After-Ms, X-Ms-Retry-After-Ms, Retry-After,
// X-Amz-Retry-After, RateLimit, RateLimit-Reset, then the providers' reset
// fields — only for the providers opted in with [WithProviders], because
// the same field name means epoch seconds at one provider and
// seconds-until at another. A malformed source is skipped in favour of the
// next. Only 429 and 503 responses are read unless [WithStatuses] says
// otherwise ([GitHub] adds 403). [WithDateHeader] measures dates against
// the response's Date header to cancel clock skew.
//
// # Deciding the delay
//
// A [Limits] bounds the hint by Min and Max, clamping it (or giving up,
// with [GiveUp]) above Max, and falls back to the caller's own backoff
// whenever there is no usable hint. Its [Wait] says which source won
// and why:
//
//	p := retryafter.Limits{Max: time.Minute, Fallback: myBackoff}
//	d := p.Apply(resp, time.Now(), attempt)
//	if d.GiveUp {
//		return err
//	}
//	sleep(d.Delay) // within [Min, Max]; > 0 whenever d.Err != nil
//
// # Testing
//
// [FormatSeconds] and [FormatHTTPDate] write a hint in each form, so a test
// can script a 429 in any of them. [Corpus] exports retrykit's corpus of
// real and malformed values, each with its expected result and source;
// [Vector.Judge] holds your own func(string, time.Time) (time.Duration,
// error) to one of them, and conformance.TestParser to all of them, each a
// subtest you can waive.
//
// All functions are pure and safe for concurrent use. Outside retrykit the
// package depends only on the standard library.
package retryafter
