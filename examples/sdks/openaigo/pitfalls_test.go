package openaigo_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/retrykit/retrykit/httpscript"
)

// The wait between attempts runs on the attempt's own context
// (internal/requestconfig/requestconfig.go:666-668, 727), so a wait longer
// than what is left of WithRequestTimeout ends the call with
// context.DeadlineExceeded and loses the server's answer: with a 1s
// per-attempt timeout, a 429 asking for 2s is never retried.
func TestPitfallWaitOnTheAttemptsTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(429).RetryAfter(2*time.Second), httpscript.Respond(200))
		c := openai.NewClient(option.WithAPIKey("sk-test"), option.WithBaseURL("https://api.example.com/v1/"),
			option.WithHTTPClient(tr.Client()), option.WithRequestTimeout(time.Second))
		start := time.Now()
		err := c.Get(t.Context(), "models/x", nil, nil)
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Second {
			t.Errorf("Get = %v after %s, want context.DeadlineExceeded after 1s: the 2s wait is cut by the attempt's timeout", err, time.Since(start))
		}
		if n := len(tr.Requests()); n != 1 {
			t.Errorf("%d attempts, want 1", n)
		}
	})
}
