package retryablehttp_test

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	rh "github.com/hashicorp/go-retryablehttp"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// policyBackoff is a go-retryablehttp Backoff that reads the server's hint
// with retrykit's retryafter: all three date forms, clamped to [min, max], and
// DefaultBackoff when there is no usable hint.
func policyBackoff(minWait, maxWait time.Duration, n int, resp *http.Response) time.Duration {
	fallback := func(int) time.Duration { return rh.DefaultBackoff(minWait, maxWait, n, nil) }
	return retryafter.Limits{Min: minWait, Max: maxWait, Fallback: fallback}.Apply(resp, time.Now(), n+1).Delay
}

// What DefaultBackoff does with Retry-After, known gaps included, and the
// same replies through policyBackoff (RetryWaitMin 1s, RetryWaitMax 30s).
func TestRecipeRetryAfter(t *testing.T) {
	in10s := fakeclock.Epoch.Add(10 * time.Second) // the bubble starts at fakeclock.Epoch
	for _, tc := range []struct {
		name                 string
		reply                httpscript.Reply
		wantDefault, wantFix time.Duration
	}{
		{"seconds", httpscript.Respond(429).RetryAfter(7 * time.Second), 7 * time.Second, 7 * time.Second},
		{"IMF-fixdate", httpscript.Respond(503).RetryAfterDate(in10s, retryafter.IMFFixdate), 10 * time.Second, 10 * time.Second},
		{"RFC 850 date: not read", httpscript.Respond(429).RetryAfterDate(in10s, retryafter.RFC850), time.Second, 10 * time.Second},
		{"past date: no wait", httpscript.Respond(429).RetryAfterDate(in10s.Add(-time.Hour), retryafter.IMFFixdate), 0, time.Second},
		{"not clamped (#247)", httpscript.Respond(429).RetryAfter(time.Hour), time.Hour, 30 * time.Second},
		{"9223372037 wraps to no wait", httpscript.Respond(429).Header("Retry-After", "9223372037"), 0, 30 * time.Second},
		{"malformed: backoff", httpscript.Respond(429).Header("Retry-After", "soon"), time.Second, time.Second},
		{"500: ignored", httpscript.Respond(500).RetryAfter(7 * time.Second), time.Second, time.Second},
	} {
		for _, backoff := range []struct {
			name string
			fn   rh.Backoff
			want time.Duration
		}{{"DefaultBackoff", rh.DefaultBackoff, tc.wantDefault}, {"policyBackoff", policyBackoff, tc.wantFix}} {
			t.Run(tc.name+"/"+backoff.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					tr := httpscript.NewTransport(t, tc.reply, httpscript.Respond(200))
					c := client(tr, 1)
					c.Backoff = backoff.fn
					if err := get(t.Context(), c); err != nil {
						t.Fatal(err)
					}
					retrytest.AssertDelays(t, tr, backoff.want)
				})
			})
		}
	}
}
