// Package outcome turns one of the suite's outcomes into what a
// framework's adapter sees of it, for the adapters' conformance tests.
package outcome

import (
	"net/http"

	"github.com/retrykit/retrykit/retrytest"
)

// Transport is a transport that answers every request with o: its
// response, or for an outcome with no status its error.
func Transport(o retrytest.Outcome) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		if o.Status == 0 {
			return nil, o.Err
		}
		resp := o.Response()
		resp.Request = req
		return resp, nil
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
