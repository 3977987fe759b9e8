package epoch_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/internal/epoch"
)

// TestBubbleStartsAtEpoch: a synctest bubble's clock starts at epoch.Time.
func TestBubbleStartsAtEpoch(t *testing.T) {
	if got, want := epoch.Time, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("epoch.Time = %v, want %v", got, want)
	}
	synctest.Test(t, func(t *testing.T) {
		if now := time.Now(); !now.Equal(epoch.Time) {
			t.Errorf("time.Now() at the start of a bubble = %v, want epoch.Time %v", now, epoch.Time)
		}
	})
}
