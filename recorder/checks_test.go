package recorder_test

import (
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// TestChecksSeeEveryWaitAfterTheLast pins what the package documentation
// says of delays recorded after the last attempt: retrytest's checks read
// them one by one, so any of them fails the check — a Sleep(0) and waits
// that add up to zero or less included — and the table shows them.
func TestChecksSeeEveryWaitAfterTheLast(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rec       *recorder.Recorder
		wantFail  bool
		wantTable bool // String shows delays after the last attempt
	}{
		{"no delay after the last attempt", run(attempt, sleep(s), attempt), false, false},
		{"a positive delay after it", run(attempt, sleep(s), attempt, sleep(time.Nanosecond)), true, true},
		{"delays after it that add up to a positive wait", run(attempt, sleep(s), attempt, sleep(-s), sleep(2*s)), true, true},
		{"a zero delay after it", run(attempt, sleep(s), attempt, sleep(0)), true, true},
		{"delays after it that add up to zero", run(attempt, sleep(s), attempt, sleep(s), sleep(-s)), true, true},
		{"a negative delay after it", run(attempt, sleep(s), attempt, sleep(-s)), true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := retrytest.CheckDelays(tc.rec, s)
			if failed := err != nil; failed != tc.wantFail {
				t.Errorf("CheckDelays(rec, 1s) = %v, want failure %v\nrecorder:\n%s", err, tc.wantFail, tc.rec)
			}
			if got := strings.Contains(tc.rec.String(), "after the last attempt)"); got != tc.wantTable {
				t.Errorf("String() shows a row of delays after the last attempt: %v, want %v\n%s", got, tc.wantTable, tc.rec)
			}
		})
	}
}
