package gobreaker_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance"
)

// The recipes' README's breaker test (TestREADMEBreakerFailure keeps its
// failure text there current).
func TestBreakerConforms(t *testing.T) {
	spec := conformance.BreakerSpec{
		Breaker:           retrytest.Breaker{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1},
		Err:               gobreaker.ErrOpenState,       // while open
		HalfOpenErr:       gobreaker.ErrTooManyRequests, // beyond the probe
		CanceledIsFailure: true,                         // every error counts
	}
	conformance.TestBreaker(t, spec, func(conformance.Seams) conformance.Guard {
		cb := gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{}) // the defaults
		return func(ctx context.Context, op func(context.Context) error) error {
			_, err := cb.Execute(func() (struct{}, error) { return struct{}{}, op(ctx) })
			return err
		}
	}, conformance.RunInBubble()) // gobreaker reads time.Now
}

// With Threshold 5, as a team reading "opens after five failures" would
// declare it, TestBreakerConforms fails one case; the recipes' README
// shows it. The
// run waives that case to read its text without failing.
func TestREADMEBreakerFailure(t *testing.T) {
	spec := defaultsSpec()
	spec.Breaker.Threshold = 5
	spec.IgnoredErr = nil
	const reason = "the README's failure"
	r := conformance.TestBreaker(t, spec, guard(gobreaker.Settings{}), conformance.RunInBubble(),
		conformance.Waive("TripsWhenDeclared/consecutive", reason))
	var msg string
	for _, res := range r.Results {
		for _, c := range res.Cases {
			if c.Verdict == conformance.Waived {
				msg = "--- FAIL: TestBreakerConforms/" + res.Property + "/" + c.Name + "\n" + strings.TrimPrefix(c.Message, reason+"\n")
			}
		}
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if msg == "" || !strings.Contains(string(readme), "```\n"+msg+"\n```\n") {
		t.Errorf("../README.md does not show the breaker failure verbatim; it is now:\n%s", msg)
	}
}

// client is a team's HTTP client with gobreaker's defaults around every
// request: a 5xx response is a failure.
type client struct {
	http *http.Client
	cb   *gobreaker.CircuitBreaker[*http.Response]
}

func (c *client) get(ctx context.Context, url string) (*http.Response, error) {
	return c.cb.Execute(func() (*http.Response, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := c.http.Do(req)
		if err == nil && resp.StatusCode >= 500 {
			resp.Body.Close()
			return nil, errors.New(resp.Status)
		}
		return resp, err
	})
}

// Seed 001, by hand: an endpoint down for good, a call every second.
// gobreaker opens on the sixth 503, at 5s, sends nothing until 1m5s, and
// then one probe a minute.
func TestOpenBreakerSendsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
		c := &client{http: tr.Client(), cb: gobreaker.NewCircuitBreaker[*http.Response](gobreaker.Settings{})}
		for range 150 {
			c.get(t.Context(), "https://api.example.com/v1/items")
			time.Sleep(time.Second)
		}
		retrytest.AssertAttemptsAt(t, tr, 0, time.Second, 2*time.Second, 3*time.Second, 4*time.Second, 5*time.Second, 66*time.Second, 127*time.Second)
		retrytest.AssertNoAttemptsBetween(t, tr, 6*time.Second, 66*time.Second)
	})
}

// The recipes' README shows TestBreakerConforms and
// TestOpenBreakerSendsNothing as they are, and the failure of
// CheckNoAttemptsBetween as retrytest's golden file pins it.
func TestRecipesREADME(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	const marker = "<!-- copied from gobreaker/readme_test.go -->\n```go\n"
	if n := strings.Count(string(readme), marker); n != 2 {
		t.Errorf("../README.md has %d blocks copied from gobreaker/readme_test.go, want 2: TestBreakerConforms and TestOpenBreakerSendsNothing", n)
	}
	for _, part := range strings.Split(string(readme), marker)[1:] {
		block, _, _ := strings.Cut(part, "```\n")
		if !strings.Contains(string(src), block) {
			t.Errorf("../README.md's block copied from gobreaker/readme_test.go is not in it any more; copy it again:\n%s", block)
		}
	}
	golden, err := os.ReadFile("../../../retrytest/testdata/check_no_attempts_between.golden")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```\n"+string(golden)+"```\n") {
		t.Errorf("../README.md does not show retrytest/testdata/check_no_attempts_between.golden verbatim")
	}
}
