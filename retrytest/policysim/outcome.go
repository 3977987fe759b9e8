package policysim

import (
	"time"

	"github.com/retrykit/retrykit/internal/epoch"
	"github.com/retrykit/retrykit/retrytest"
)

// transient is the outcome a simulated job's failed attempt shows its
// policy: a 503 with no header (so no Retry-After), at the instant at after
// the job's start, on the clock every fake clock and bubble start at.
func transient(at time.Duration) retrytest.Outcome {
	return retrytest.Outcome{Status: 503, Now: epoch.Time.Add(at)}
}
