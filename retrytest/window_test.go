package retrytest_test

import (
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
)

func TestWindow(t *testing.T) {
	for _, tc := range []struct {
		w       retrytest.Window
		d       time.Duration
		want    bool
		wantStr string
	}{
		{win(50*ms, 150*ms), 50 * ms, true, "[50ms, 150ms]"},
		{win(50*ms, 150*ms), 150 * ms, true, "[50ms, 150ms]"},
		{win(50*ms, 150*ms), 50*ms - 1, false, "[50ms, 150ms]"},
		{win(50*ms, 150*ms), 150*ms + 1, false, "[50ms, 150ms]"},
		{win(time.Second, time.Second), time.Second, true, "[1s, 1s]"},
		{win(0, time.Hour), 90 * time.Minute, false, "[0s, 1h]"},
		{win(5*time.Second, time.Second), 3 * time.Second, false, "[5s, 1s]"},
	} {
		if got := tc.w.Contains(tc.d); got != tc.want {
			t.Errorf("%v.Contains(%v) = %v, want %v", tc.w, tc.d, got, tc.want)
		}
		if got := tc.w.String(); got != tc.wantStr {
			t.Errorf("Window%+v.String() = %q, want %q", tc.w, got, tc.wantStr)
		}
	}
}
