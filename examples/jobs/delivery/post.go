package delivery

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
)

// Post POSTs ev once through client (nil means http.DefaultClient), with
// ev.ID as its Idempotency-Key, and returns the delivery's error: the
// transport's, a *webhook.StatusError for a non-2xx response, or nil. (A
// 429's or 503's Retry-After date is read against the wall clock; neither
// framework's policy here reads it.)
func Post(ctx context.Context, client *http.Client, ev webhook.Event) error {
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ev.URL, bytes.NewReader(ev.Payload))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", ev.ID)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // so the connection is reused
	return webhook.ResponseError(resp, time.Now())
}
