package retrytest_test

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/recorder"
	"go.uber.org/goleak"
)

// Every fake of retrykit, used the way tests use them, leaves no goroutine
// behind: goleak.VerifyNone needs no ignore option for them, as the
// package doc says.
func TestOwnFakesNeedNoIgnores(t *testing.T) {
	before := goleak.IgnoreCurrent()

	t.Run("fakeclock and transport", func(t *testing.T) {
		clk := fakeclock.New(t, fakeclock.WithoutLeakCheck()) // for the parked Sleep below
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Latency(time.Second), httpscript.Respond(200).Latency(time.Hour)).WithClock(clk)
		clk.AfterFunc(time.Second, func() {})
		tick := clk.NewTicker(time.Second)
		defer tick.Stop()
		ctx, cancel := clk.WithTimeout(context.Background(), 1500*time.Millisecond)
		defer cancel()
		done := make(chan error, 1)
		go func() {
			c := newRetryClient(tr)
			c.clock = clk
			_, err := c.get(ctx, apiURL) // the second request's latency outlives the deadline
			done <- err
		}()
		clk.Step(2 * time.Second)
		if err := <-done; err == nil {
			t.Errorf("get = nil, want the deadline")
		}
		clk.Sleep(0)
		go clk.Sleep(time.Hour) // parked until the clock's Cleanup releases it
	})
	t.Run("bubble", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			tr := httpscript.NewTransport(t, httpscript.Respond(429).RetryAfter(time.Second), httpscript.Respond(200))
			sw := recorder.NewStopwatch()
			sw.Attempt()
			c := &http.Client{Transport: tr, Timeout: time.Minute}
			for range 2 {
				resp, err := c.Get(apiURL)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				bubble.SleepAndWait(time.Second)
			}
		})
	})
	if err := goleak.Find(before); err != nil {
		t.Errorf("retrykit's fakes left goroutines behind: %v", err)
	}
}
