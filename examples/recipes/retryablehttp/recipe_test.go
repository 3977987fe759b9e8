package retryablehttp_test

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	rh "github.com/hashicorp/go-retryablehttp"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

const url = "https://api.example.com/v1/items"

// client returns a go-retryablehttp client whose requests go to tr, waiting
// 1s doubling to 30s between attempts, at most retryMax retries.
func client(tr *httpscript.Transport, retryMax int) *rh.Client {
	c := rh.NewClient()
	c.HTTPClient, c.Logger = tr.Client(), nil
	c.RetryWaitMin, c.RetryWaitMax, c.RetryMax = time.Second, 30*time.Second, retryMax
	return c
}

// get makes one GET with c and closes the response's body.
func get(ctx context.Context, c *rh.Client) error {
	req, err := rh.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

// DefaultBackoff without hints: 1s doubling, capped at RetryWaitMax, no
// jitter; RetryMax counts retries, so 5 make 6 attempts.
func TestRecipeDefaultSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
		c := client(tr, 5)
		c.RetryWaitMax = 5 * time.Second
		if err := get(t.Context(), c); err == nil {
			t.Error("Do() = nil error after 6 503s, want one")
		}
		retrytest.AssertDelaysWithin(t, tr, retrytest.Policy{First: time.Second, Growth: 2, Cap: 5 * time.Second, Attempts: 6}.Windows()...)
	})
}

// An overall deadline ends the wait at the deadline with
// context.DeadlineExceeded.
func TestRecipeDeadlineAbortsTheWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
		call := recorder.Start(nil, func() error {
			return get(ctx, client(tr, 5)) // attempts at 0s and 1s, then a wait of 2s
		})
		bubble.SleepAndWait(time.Minute)
		retrytest.AssertStopped(t, tr, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
	})
}
