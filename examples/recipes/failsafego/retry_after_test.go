package failsafego_test

import (
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/failsafehttp"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

// policyDelay is a DelayFunc that reads the server's hint with retrykit's
// retryafter — every date form, at most a minute — and leaves the builder's
// delay in force when there is no usable hint.
func policyDelay(exec failsafe.ExecutionAttempt[*http.Response]) time.Duration {
	d := retryafter.Limits{Max: time.Minute}.Apply(exec.LastResult(), time.Now(), exec.Attempts())
	if d.Origin != retryafter.OriginHint {
		return -1
	}
	return d.Delay
}

// What failsafehttp's DelayFunc does with Retry-After (429 and 503, integer
// seconds only, no cap), and the same replies through policyDelay; the
// builder's own delay is 250ms.
func TestRecipeRetryAfter(t *testing.T) {
	in10s := fakeclock.Epoch.Add(10 * time.Second) // the bubble starts at fakeclock.Epoch
	for _, tc := range []struct {
		name                 string
		reply                httpscript.Reply
		wantDefault, wantFix time.Duration
	}{
		{"seconds", httpscript.Respond(429).RetryAfter(2 * time.Second), 2 * time.Second, 2 * time.Second},
		{"IMF-fixdate: not read", httpscript.Respond(503).RetryAfterDate(in10s, retryafter.IMFFixdate), 250 * time.Millisecond, 10 * time.Second},
		{"not capped", httpscript.Respond(429).RetryAfter(time.Hour), time.Hour, time.Minute},
		{"negative: no wait", httpscript.Respond(429).Header("Retry-After", "-5"), 0, 250 * time.Millisecond},
		{"500: ignored", httpscript.Respond(500).RetryAfter(2 * time.Second), 250 * time.Millisecond, 250 * time.Millisecond},
	} {
		for _, delay := range []struct {
			name string
			fn   failsafe.DelayFunc[*http.Response]
			want time.Duration
		}{{"failsafehttp.DelayFunc", failsafehttp.DelayFunc, tc.wantDefault}, {"policyDelay", policyDelay, tc.wantFix}} {
			t.Run(tc.name+"/"+delay.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					tr := httpscript.NewTransport(t, tc.reply, httpscript.Respond(200))
					rp := failsafehttp.NewRetryPolicyBuilder().WithDelay(250 * time.Millisecond).WithDelayFunc(delay.fn).WithMaxRetries(1).Build()
					req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, "https://api.example.com/v1/items", nil)
					resp, err := failsafehttp.NewRequest(req, tr.Client(), rp).Do()
					if err != nil {
						t.Fatal(err)
					}
					resp.Body.Close()
					retrytest.AssertDelays(t, tr, delay.want)
				})
			})
		}
	}
}
