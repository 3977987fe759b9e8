package backoffv4

import (
	"time"

	"github.com/cenkalti/backoff/v4"

	"github.com/retrykit/retrykit/recorder"
)

// NewRecordingTimer returns a [backoff.Timer] that records every wait in rec
// and fires at once, so [backoff.RetryNotifyWithTimer] runs its whole
// schedule without waiting, on the test's goroutine, with no clock at all.
// Mark attempts with rec.Attempt in the operation to get the schedule table.
//
// The library's MaxElapsedTime still reads its Clock: give the
// [backoff.ExponentialBackOff] a fake one ([backoff.WithClockProvider]) or set
// MaxElapsedTime to 0. It panics if rec is nil.
func NewRecordingTimer(rec *recorder.Recorder) backoff.Timer {
	if rec == nil {
		panic("backoffv4: NewRecordingTimer: nil recorder")
	}
	return &recordingTimer{rec: rec}
}

// recordingTimer is a backoff.Timer whose channel has fired by the time Start
// returns.
type recordingTimer struct {
	rec *recorder.Recorder
	c   <-chan time.Time
}

func (r *recordingTimer) Start(d time.Duration) { r.c = r.rec.After(d) }

func (r *recordingTimer) Stop() {}

func (r *recordingTimer) C() <-chan time.Time { return r.c }
