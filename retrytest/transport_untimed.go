package retrytest

import "github.com/retrykit/retrykit/internal/schedcheck"

// A Transport with no clock that receives a request outside a synctest
// bubble keeps the order of its requests but not their times (see
// Transport.Attempts); the checks and matchers learn of it through
// schedcheck.Untimed, which reads the schedule of every provider.
func init() { schedcheck.Untimed = untimedTransport }

// untimedTransport is schedcheck.Untimed for a *Transport: why it has no
// times, or "" when it has them (or got is not a *Transport).
func untimedTransport(got any) string {
	tr, ok := got.(*Transport)
	if !ok || tr == nil {
		return ""
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if !tr.untimed {
		return ""
	}
	return "the retrytest.Transport received requests outside a testing/synctest bubble and has no clock, " +
		"so it knows their order but not their times: make it inside the bubble, or give it a clock with WithClock"
}
