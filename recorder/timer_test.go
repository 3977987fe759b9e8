package recorder_test

import (
	"slices"
	"testing"
	"time"

	"github.com/retrykit/retrykit/recorder"
)

// backoffTimer is cenkalti/backoff's Timer interface, written out: a
// recorder.Timer must satisfy it.
type backoffTimer interface {
	Start(duration time.Duration)
	Stop()
	C() <-chan time.Time
}

var _ backoffTimer = (*recorder.InstantTimer)(nil)

// TestTimer: every Start is a recorded wait that has fired by the time Start
// returns.
func TestTimer(t *testing.T) {
	rec := recorder.New()
	tm := rec.InstantTimer()
	if tm.C() != nil {
		t.Errorf("C() before Start = %v, want nil", tm.C())
	}
	rec.Attempt()
	tm.Start(500 * time.Millisecond)
	<-tm.C()
	rec.Attempt()
	tm.Start(time.Second)
	tm.Stop()
	<-tm.C()
	rec.Attempt()
	if got, want := rec.Delays(), []time.Duration{500 * time.Millisecond, time.Second}; !slices.Equal(got, want) {
		t.Errorf("Delays() = %v, want %v", got, want)
	}
	if got := rec.Attempts()[2].At; got != 1500*time.Millisecond {
		t.Errorf("attempt 3 at %v, want 1.5s", got)
	}
}
