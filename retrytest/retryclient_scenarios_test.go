package retrytest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/onsi/gomega"

	"github.com/retrykit/retrykit/bubble"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retryafter"
	"github.com/retrykit/retrykit/retrytest"
)

const apiURL = "https://api.example.com/v1/chat/completions"

// requestsSoFar is how many requests tr has received.
func requestsSoFar(tr *httpscript.Transport) int { return len(tr.Requests()) }

// startGet runs c.get in a goroutine of the bubble and returns a channel
// that receives its error.
func startGet(c *retryClient, ctx context.Context) <-chan error {
	done := make(chan error, 1)
	go func() {
		_, err := c.get(ctx, apiURL)
		done <- err
	}()
	return done
}

// Seed 003: "retry-after must win". A 429 with Retry-After in any form
// waits exactly what it says: one request at 6.999s, two at 7s.
func TestClientHonoursRetryAfter(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func() httpscript.Reply // built inside the bubble, on its clock
	}{
		{"seconds", func() httpscript.Reply { return httpscript.Respond(429).RetryAfter(7 * time.Second) }},
		{"IMF-fixdate", func() httpscript.Reply {
			return httpscript.Respond(429).RetryAfterDate(time.Now().Add(7*time.Second), retryafter.IMFFixdate)
		}},
		{"RFC 850", func() httpscript.Reply {
			return httpscript.Respond(429).RetryAfterDate(time.Now().Add(7*time.Second), retryafter.RFC850)
		}},
		{"asctime", func() httpscript.Reply {
			return httpscript.Respond(429).RetryAfterDate(time.Now().Add(7*time.Second), retryafter.Asctime)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := httpscript.NewTransport(t, tc.reply(), httpscript.Respond(200))
				done := startGet(newRetryClient(tr), t.Context())

				bubble.SleepAndWait(6999 * time.Millisecond)
				if got := requestsSoFar(tr); got != 1 {
					t.Errorf("requests at 6.999s = %d, want 1", got)
				}
				bubble.SleepAndWait(time.Millisecond)
				if got := requestsSoFar(tr); got != 2 {
					t.Errorf("requests at 7s = %d, want 2", got)
				}
				if err := <-done; err != nil {
					t.Errorf("get = %v, want nil", err)
				}
				retrytest.AssertAttemptsAt(t, tr, 0, 7*time.Second)
				gomega.NewWithT(t).Expect(tr).To(matchers.HaveAttempts(2))
			})
		})
	}
}

// The HTTP-date form against a pinned time on a fake clock, outside any
// bubble: the clock stands at 08:59:53 and the server names 09:00:00.
func TestClientRetryAfterDateOnFakeClock(t *testing.T) {
	pinned := time.Date(2026, 8, 12, 8, 59, 53, 0, time.UTC)
	clk := fakeclock.New(t, fakeclock.WithTime(pinned))
	tr := httpscript.NewTransport(t,
		httpscript.Respond(429).Header("Retry-After", "Wed, 12 Aug 2026 09:00:00 GMT"),
		httpscript.Respond(200),
	).WithClock(clk)
	c := newRetryClient(tr)
	c.clock = clk
	done := startGet(c, context.Background())

	// The client has made its first request once it waits on the clock.
	if err := clk.WaitForTimers(t.Context(), 1); err != nil {
		t.Fatal(err)
	}
	clk.Step(6999 * time.Millisecond)
	if got := requestsSoFar(tr); got != 1 {
		t.Errorf("requests at 6.999s = %d, want 1", got)
	}
	clk.Step(time.Millisecond)
	if err := <-done; err != nil {
		t.Errorf("get = %v, want nil", err)
	}
	retrytest.AssertAttemptsAt(t, tr, 0, 7*time.Second)
	if got, want := tr.Requests()[1].At, pinned.Add(7*time.Second); !got.Equal(want) {
		t.Errorf("second request at %v, want %v", got, want)
	}
	retrytest.AssertDelays(t, clk, 7*time.Second)
}

// A malformed or empty Retry-After falls back to the computed delay
// (500ms, then 1s), never to 0.
func TestClientMalformedRetryAfterFallsBack(t *testing.T) {
	for _, value := range []string{"soon", "", "-1", "NaN", "1e3", "Wed, 12 Aug 2026 09:00:00 CEST"} {
		t.Run(value, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := httpscript.NewTransport(t,
					httpscript.Respond(429).Header("Retry-After", value).Times(2),
					httpscript.Respond(200),
				)
				if _, err := newRetryClient(tr).get(t.Context(), apiURL); err != nil {
					t.Fatalf("get = %v, want nil", err)
				}
				retrytest.AssertDelays(t, tr, 500*time.Millisecond, time.Second)
			})
		})
	}
}

// Seed 001: "three attempts wrapping three attempts is nine requests".
// Counting at the transport shows which retry layer is active.
func TestNestedRetriesMultiply(t *testing.T) {
	for _, tc := range []struct {
		name         string
		innerRetries int
		want         int
	}{
		{"both layers retry", 3, 9},
		{"inner retries off", 1, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
				inner := newRetryClient(tr)
				inner.maxAttempts = tc.innerRetries
				s := &sdk{inner: inner, attempts: 3}
				if code, err := s.get(t.Context(), apiURL); err != nil || code != 503 {
					t.Fatalf("sdk.get = %d, %v, want 503, nil", code, err)
				}
				retrytest.AssertAttempts(t, tr, tc.want)
			})
		})
	}
}

// The nested bug, as the failure a team would read.
func TestNestedRetriesFailureText(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
		inner := newRetryClient(tr)
		inner.maxAttempts = 3
		inner.base = time.Second
		s := &sdk{inner: inner, attempts: 3}
		s.get(t.Context(), apiURL)
		golden.Check(t, "harness_nested_retries", retrytest.CheckAttempts(tr, 3).Error()+"\n")
	})
}

// A breaker that is open sends nothing: zero requests, not fewer.
func TestOpenBreakerSendsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Times(3))
		c := newRetryClient(tr)
		c.maxAttempts = 3
		c.breaker = &breaker{threshold: 3}
		if _, err := c.get(t.Context(), apiURL); err != nil {
			t.Fatalf("first get = %v, want the last 503", err)
		}
		retrytest.AssertAttempts(t, tr, 3)

		// The breaker is open now: the next call must not reach the server.
		quiet := httpscript.NewTransport(t) // any request would fail the test
		c.http.Transport = quiet
		if _, err := c.get(t.Context(), apiURL); !errors.Is(err, errBreakerOpen) {
			t.Errorf("get with the breaker open = %v, want %v", err, errBreakerOpen)
		}
		retrytest.AssertAttempts(t, quiet, 0)
	})
}

// Seed 001: a retried POST with an idempotency key is applied once; the
// same client without a key, or with a new key per attempt, applies it
// on every attempt that reached the server.
func TestRetriedPostAppliedOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		bug    func(*retryClient)
		golden string // "" when the check must pass
	}{
		{"one key for all attempts", func(*retryClient) {}, ""},
		{"a new key per attempt", func(c *retryClient) { c.keyPerAttempt = true }, "harness_ledger_key_per_attempt"},
		{"no key", func(c *retryClient) { c.noKey = true }, "harness_ledger_no_key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ledger := httpscript.NewLedger()
				tr := httpscript.NewTransport(t,
					httpscript.Respond(500),                // the charge went through, the reply did not
					httpscript.Respond(429).NoSideEffect(), // the rate limiter answered
					httpscript.ConnReset(),                 // lost on the way back
					httpscript.Respond(201).Body(`{"id":"ch_1"}`),
				).WithLedger(ledger)
				c := newRetryClient(tr)
				tc.bug(c)
				resp, err := c.Do(t.Context(), http.MethodPost, "https://api.example.com/v1/charges", `{"amount":100}`)
				if err != nil {
					t.Fatalf("Do = %v, want nil", err)
				}
				resp.Body.Close()
				retrytest.AssertAttempts(t, tr, 4)
				err = ledger.CheckExactlyOnce()
				if tc.golden == "" {
					if err != nil {
						t.Errorf("CheckExactlyOnce = %v, want nil", err)
					}
					if got := ledger.Duplicates(); got != 2 {
						t.Errorf("Duplicates() = %d, want 2", got)
					}
					return
				}
				if err == nil {
					t.Fatalf("CheckExactlyOnce = nil, want an error")
				}
				golden.Check(t, tc.golden, err.Error()+"\n")
			})
		})
	}
}

// Seed 003: "assert that a total budget aborts the loop mid-wait". With
// delays of 500ms, 1s, 2s, a 2s budget ends during the third wait.
func TestDeadlineAbortsMidWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
		c := newRetryClient(tr)
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		call := recorder.Start(nil, func() error {
			_, err := c.get(ctx, apiURL)
			return err
		})
		bubble.SleepAndWait(time.Minute)
		retrytest.AssertStopped(t, tr, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
		retrytest.AssertAttemptsAt(t, tr, 0, 500*time.Millisecond, 1500*time.Millisecond)
	})
}

// A loop whose wait is deaf to the context finishes its wait and makes
// one more attempt after the deadline.
func TestDeadlineIgnoredFailureText(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
		c := newRetryClient(tr)
		c.sleepIgnoresCtx = true
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		defer cancel()
		call := recorder.Start(nil, func() error {
			_, err := c.get(ctx, apiURL)
			return err
		})
		bubble.SleepAndWait(time.Minute)
		err := retrytest.CheckStopped(tr, call, retrytest.Stop{At: 2 * time.Second, Err: context.DeadlineExceeded})
		if err == nil {
			t.Fatal("CheckStopped = nil, want an error")
		}
		golden.Check(t, "harness_stopped_ignored", err.Error()+"\n")
	})
}
