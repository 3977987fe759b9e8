package recorder

import (
	"sync"
	"time"
)

// InstantTimer is a timer that records every wait in its recorder and fires at
// once, with the method set of cenkalti/backoff's InstantTimer (v4 and v5): pass
// one to backoff.RetryNotifyWithTimer and the library's retry loop runs its
// whole schedule without waiting, with no clock at all. Make one with
// [Recorder.InstantTimer].
type InstantTimer struct {
	r *Recorder

	mu sync.Mutex
	c  <-chan time.Time
}

// InstantTimer returns a [InstantTimer] that records its waits in r.
func (r *Recorder) InstantTimer() *InstantTimer { return &InstantTimer{r: r} }

// Start records d and makes C fire at once, with the recorder's virtual
// time after d (see [Recorder.After]).
func (t *InstantTimer) Start(d time.Duration) {
	c := t.r.After(d)
	t.mu.Lock()
	t.c = c
	t.mu.Unlock()
}

// Stop does nothing: the timer has already fired.
func (t *InstantTimer) Stop() {}

// C returns the channel of the latest Start; nil before the first.
func (t *InstantTimer) C() <-chan time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.c
}
