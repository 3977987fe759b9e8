package riverjobs

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/riverqueue/river"

	"github.com/retrykit/retrykit/examples/jobs/delivery"
	"github.com/retrykit/retrykit/examples/webhook"
)

// DeliverArgs is the job of delivering one webhook event.
type DeliverArgs struct {
	// ID identifies the event; every delivery sends it as its
	// Idempotency-Key.
	ID string `json:"id"`
	// URL is the endpoint to POST to.
	URL string `json:"url"`
	// Payload is the JSON body.
	Payload json.RawMessage `json:"payload,omitempty"`
}

// Kind is the job's kind in River's tables: "webhook_delivery".
func (DeliverArgs) Kind() string { return "webhook_delivery" }

// DeliverWorker delivers webhook events as River jobs. A failed delivery
// returns its error to River, which retries the job as the client's
// ClientRetryPolicy says (RetryPolicy) until its MaxAttempts; a permanent
// failure (webhook.Permanent: a 4xx other than 408 and 429, a certificate
// the client does not trust) is returned as river.JobCancel, so River
// cancels the job instead of retrying a delivery that cannot succeed.
type DeliverWorker struct {
	river.WorkerDefaults[DeliverArgs]

	// Client sends the deliveries; nil means http.DefaultClient.
	Client *http.Client
}

// Work makes one delivery of the job's event.
func (w *DeliverWorker) Work(ctx context.Context, job *river.Job[DeliverArgs]) error {
	ev := webhook.Event{ID: job.Args.ID, URL: job.Args.URL, Payload: job.Args.Payload}
	err := delivery.Post(ctx, w.Client, ev)
	if err != nil && webhook.Permanent(err) {
		return river.JobCancel(err)
	}
	return err
}
