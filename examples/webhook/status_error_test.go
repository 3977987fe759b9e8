package webhook_test

import (
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
)

func TestResponseError(t *testing.T) {
	now := time.Date(2026, 9, 18, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		status     int
		retryAfter string
		want       error
	}{
		{200, "", nil},
		{204, "", nil},
		{299, "", nil},
		{300, "", status(300)}, // a delivery is a 2xx, nothing else
		{304, "", status(304)},
		{404, "120", status(404)}, // only a 429 or a 503 is read for a hint
		{503, "", status(503)},
		{429, "soon", status(429)}, // malformed: no hint, so the policy backs off
		{429, "120", rateLimited(2 * time.Minute)},
		{429, "0", rateLimited(0)}, // a hint of 0, which the policy raises to its base
		{503, "Fri, 18 Sep 2026 12:00:30 GMT", &webhook.StatusError{StatusCode: 503, RetryAfter: 30 * time.Second, HasRetryAfter: true}},
	} {
		resp := &http.Response{StatusCode: tc.status, Header: http.Header{"Retry-After": {tc.retryAfter}}}
		if got := webhook.ResponseError(resp, now); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ResponseError(%d, Retry-After: %q) = %#v, want %#v", tc.status, tc.retryAfter, got, tc.want)
		}
	}
}
