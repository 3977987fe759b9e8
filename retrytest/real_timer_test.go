package retrytest_test

import (
	"context"
	"net/http"
	"regexp"
	"testing"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

// fetchOnRealClock is the README's client with the bug of waiting on
// time.After, not on the clock it was handed.
func fetchOnRealClock(ctx context.Context, client *http.Client, url string) {
	delay := 500 * time.Millisecond
	for attempt := 1; attempt <= 3; attempt++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode != http.StatusTooManyRequests {
			return
		}
		resp.Body.Close()
		select {
		case <-ctx.Done():
			return
		case <-time.After(delay): // bug: the real clock
		}
		delay *= 2
	}
}

// TestRealTimerNamedUnderTable: a client that waits on a real time.After
// gets "got 1 attempt, want 2" from a check of its transport, and the note
// under the table names the goroutine and the line of its wait.
func TestRealTimerNamedUnderTable(t *testing.T) {
	clk := fakeclock.New(t)
	tr := httpscript.NewTransport(t, httpscript.Respond(429).Always()).WithClock(clk)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go fetchOnRealClock(ctx, tr.Client(), "https://api.example.com/items")
	clk.Step(500 * time.Millisecond)
	err := retrytest.CheckAttempts(tr, 2)
	if err == nil {
		t.Fatal("CheckAttempts(tr, 2) = nil, want the missing retry")
	}
	msg := regexp.MustCompile(`goroutine \d+`).ReplaceAllString(err.Error(), "goroutine N")
	golden.Check(t, "real_timer_note", msg+"\n")
}
