package asynqjobs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/hibiken/asynq"

	"github.com/retrykit/retrykit/examples/jobs/delivery"
	"github.com/retrykit/retrykit/examples/webhook"
)

// TypeDeliver is the task type of a webhook delivery.
const TypeDeliver = "webhook:deliver"

// NewTask returns the task that delivers ev, with the seed's MaxRetry.
func NewTask(ev webhook.Event, opts ...asynq.Option) (*asynq.Task, error) {
	payload, err := json.Marshal(ev)
	if err != nil {
		return nil, fmt.Errorf("asynqjobs: encoding event %q: %w", ev.ID, err)
	}
	return asynq.NewTask(TypeDeliver, payload, append([]asynq.Option{asynq.MaxRetry(MaxRetry)}, opts...)...), nil
}

// Handler delivers webhook events as asynq tasks. A failed delivery
// returns its error to asynq, which retries the task after the server's
// RetryDelayFunc (RetryDelay) until its MaxRetry; a permanent failure
// (webhook.Permanent: a 4xx other than 408 and 429, a certificate the
// client does not trust) is returned wrapping asynq.SkipRetry, so asynq
// archives the task instead of retrying a delivery that cannot succeed.
type Handler struct {
	// Client sends the deliveries; nil means http.DefaultClient.
	Client *http.Client
}

// ProcessTask makes one delivery of the task's event.
func (h *Handler) ProcessTask(ctx context.Context, t *asynq.Task) error {
	var ev webhook.Event
	if err := json.Unmarshal(t.Payload(), &ev); err != nil {
		return fmt.Errorf("asynqjobs: task payload %q: %w: %w", t.Payload(), err, asynq.SkipRetry)
	}
	err := delivery.Post(ctx, h.Client, ev)
	if err != nil && webhook.Permanent(err) {
		return fmt.Errorf("%w: %w", err, asynq.SkipRetry)
	}
	return err
}
