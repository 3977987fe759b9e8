package httpscript

import (
	"errors"
	"net/http"

	"github.com/retrykit/retrykit/retrytest"
)

// FromOutcome returns a RoundTripper that answers every request with o,
// one of the outcomes the conformance suite hands a pure policy
// (retrytest.DecideFunc): a fresh response of o's status, header and body,
// its Request the very request; or, for an outcome with no status, o.Err
// and no response. It is the bridge from a policy's outcome to code that
// reads its failures off an HTTP client, such as a job framework's worker
// whose error decides what the framework retries:
//
//	conformance.TestPolicy(t, spec, func(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision {
//		w := &DeliverWorker{Client: &http.Client{Transport: httpscript.FromOutcome(o)}}
//		err := w.Work(ctx, job) // what the worker makes of o
//		…
//	})
//
// Unlike a [Transport] it keeps no script and records nothing: every
// request gets the same answer, at once. An outcome with neither a status
// nor an error is answered with an error saying so, never a nil response
// with a nil error.
func FromOutcome(o retrytest.Outcome) http.RoundTripper {
	return outcomeTripper(o)
}

type outcomeTripper retrytest.Outcome

func (t outcomeTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	o := retrytest.Outcome(t)
	if o.Status == 0 {
		if o.Err == nil {
			return nil, errors.New("httpscript: FromOutcome: the outcome has neither a status nor an error")
		}
		return nil, o.Err
	}
	resp := o.Response()
	resp.Request = req
	return resp, nil
}
