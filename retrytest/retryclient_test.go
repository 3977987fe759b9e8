package retrytest_test

// The code under test of the harness tests: a small retrying HTTP client
// shaped like the ones teams write, with the usual knobs and the usual
// bugs behind flags, so each test can show the harness catching one.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/clockctx"
	"github.com/retrykit/retrykit/retryafter"
)

var errBreakerOpen = errors.New("circuit breaker open")

// retryClient retries idempotent-keyed requests on transport errors, 429
// and 5xx, waiting what the server's hint says (through retryafter.Limits)
// or its own exponential backoff.
type retryClient struct {
	http        *http.Client
	clock       clockwork.Clock // the real clock (fake inside a bubble) unless set
	maxAttempts int             // attempts, not retries
	base, cap   time.Duration
	budget      time.Duration // if > 0, give up when the next wait would end past it
	breaker     *breaker      // optional

	// Bugs, off by default.
	keyPerAttempt   bool // a new Idempotency-Key on every attempt
	noKey           bool // no Idempotency-Key at all
	sleepIgnoresCtx bool // waits with Sleep, deaf to the context

	keys atomic.Int64 // makes the idempotency keys
}

func newRetryClient(rt http.RoundTripper) *retryClient {
	return &retryClient{
		http:        &http.Client{Transport: rt},
		clock:       clockwork.NewRealClock(),
		maxAttempts: 5,
		base:        500 * time.Millisecond,
		cap:         8 * time.Second,
	}
}

// backoff is the client's own delay before the attempt after attempt.
func (c *retryClient) backoff(attempt int) time.Duration {
	d := c.base
	for i := 1; i < attempt && d < c.cap; i++ {
		d *= 2
	}
	return min(d, c.cap)
}

func retryable(resp *http.Response, err error) bool {
	if err != nil {
		return !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
	}
	return resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
}

// Do sends the request, retrying it; the caller closes the body of the
// response it gets.
func (c *retryClient) Do(ctx context.Context, method, url, body string) (*http.Response, error) {
	key := fmt.Sprintf("op-%d", c.keys.Add(1))
	hints := retryafter.Limits{Max: time.Minute, Fallback: c.backoff}
	start := c.clock.Now()
	for attempt := 1; ; attempt++ {
		if c.breaker != nil && !c.breaker.allow() {
			return nil, errBreakerOpen
		}
		req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
		if err != nil {
			return nil, err
		}
		switch {
		case c.noKey:
		case c.keyPerAttempt:
			req.Header.Set("Idempotency-Key", fmt.Sprintf("op-%d", c.keys.Add(1)))
		default:
			req.Header.Set("Idempotency-Key", key)
		}
		resp, err := c.http.Do(req)
		now := c.clock.Now()
		if !retryable(resp, err) {
			c.breaker.record(err == nil)
			return resp, err
		}
		c.breaker.record(false)
		if attempt >= c.maxAttempts {
			return resp, err
		}
		d := hints.Apply(resp, now, attempt)
		if resp != nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		if d.GiveUp {
			return nil, fmt.Errorf("server asked for %s, more than we wait", d.Hint.Delay)
		}
		if c.budget > 0 && c.clock.Since(start)+d.Delay > c.budget {
			return nil, fmt.Errorf("retry budget of %s spent after %d attempts", c.budget, attempt)
		}
		if err := c.sleep(ctx, d.Delay); err != nil {
			return nil, err
		}
	}
}

func (c *retryClient) sleep(ctx context.Context, d time.Duration) error {
	if c.sleepIgnoresCtx {
		c.clock.Sleep(d)
		return ctx.Err()
	}
	return clockctx.Sleep(ctx, c.clock, d)
}

// get is Do for a GET whose body the caller does not want.
func (c *retryClient) get(ctx context.Context, url string) (int, error) {
	resp, err := c.Do(ctx, http.MethodGet, url, "")
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// sdk wraps the retry client in a vendor SDK that retries too: the nested
// retries that multiply.
type sdk struct {
	inner    *retryClient
	attempts int
}

func (s *sdk) get(ctx context.Context, url string) (int, error) {
	var code int
	var err error
	for range s.attempts {
		code, err = s.inner.get(ctx, url)
		if err == nil && code < 500 {
			return code, nil
		}
	}
	return code, err
}

// breaker opens after threshold failures in a row and stays open.
type breaker struct {
	mu        sync.Mutex
	threshold int
	failures  int
}

func (b *breaker) allow() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.failures < b.threshold
}

func (b *breaker) record(ok bool) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if ok {
		b.failures = 0
	} else {
		b.failures++
	}
}
