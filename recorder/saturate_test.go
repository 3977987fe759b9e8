package recorder_test

import (
	"math"
	"testing"
	"time"

	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// longest is the largest time.Duration, the delay retryafter.Parse returns
// (as retryafter.Forever) for a hint too large to hold.
const longest = time.Duration(math.MaxInt64)

// Sums of delays saturate at the largest Duration instead of wrapping to a
// negative offset, so the "at" column never goes backwards after a huge
// wait. The sequence is issue 17's.
func TestOffsetsSaturate(t *testing.T) {
	rec := recorder.New()
	rec.Attempt()
	rec.Sleep(math.MaxInt64)
	rec.Attempt()
	rec.Sleep(time.Hour)
	rec.Attempt()

	want := []recorder.Attempt{
		{Index: 1, At: 0, Delay: 0},
		{Index: 2, At: longest, Delay: longest},
		{Index: 3, At: longest, Delay: time.Hour},
	}
	got := rec.Attempts()
	if len(got) != len(want) {
		t.Fatalf("Attempts() = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Attempts()[%d] = %+v, want %+v", i, got[i], want[i])
		}
		if i > 0 && got[i].At < got[i-1].At {
			t.Errorf("attempt %d at %v comes before attempt %d at %v", i+1, got[i].At, i, got[i-1].At)
		}
	}
	wantTable := `recorder: 3 attempts, 2 delays, total 2562047h47m16.854775807s
  attempt  delay                     at
  1        0s                        0s
  2        2562047h47m16.854775807s  2562047h47m16.854775807s
  3        1h                        2562047h47m16.854775807s`
	if s := rec.String(); s != wantTable {
		t.Errorf("String() =\n%s\nwant\n%s", s, wantTable)
	}
	if err := retrytest.CheckAttemptsAt(rec, 0, longest, longest); err != nil {
		t.Errorf("CheckAttemptsAt(rec, 0, max, max) = %v", err)
	}
	if err := retrytest.CheckTotalDelay(rec, longest); err != nil {
		t.Errorf("CheckTotalDelay(rec, max) = %v", err)
	}
}

// Every other sum saturates too: the delay of an attempt after several
// waits, the waits after the last attempt, the rows of a recorder used
// without Attempt, and the instant After sends.
func TestEverySumSaturates(t *testing.T) {
	t.Run("the delay before an attempt", func(t *testing.T) {
		rec := run(attempt, sleep(longest), sleep(time.Hour), attempt)
		if got := rec.Attempts()[1]; got.Delay != longest || got.At != longest {
			t.Errorf("Attempts()[1] = %+v, want Delay and At %v", got, longest)
		}
	})
	t.Run("the waits after the last attempt", func(t *testing.T) {
		rec := run(attempt, sleep(longest), sleep(time.Hour))
		want := `recorder: 1 attempt, 2 delays, total 2562047h47m16.854775807s; 2 delays (2562047h47m16.854775807s) after the last attempt
  attempt  delay                     at                        result
  1        0s                        0s                        -
  -        2562047h47m16.854775807s  2562047h47m16.854775807s  (2 delays after the last attempt)`
		if got := rec.String(); got != want {
			t.Errorf("String() =\n%s\nwant\n%s", got, want)
		}
		if err := retrytest.CheckTotalDelay(rec, longest); err != nil {
			t.Errorf("CheckTotalDelay(rec, max) = %v", err)
		}
	})
	t.Run("sleeps without attempts", func(t *testing.T) {
		rec := run(sleep(longest), sleep(time.Hour))
		want := `recorder: 0 attempts, 2 delays, total 2562047h47m16.854775807s
  attempt  delay                     at
  -        2562047h47m16.854775807s  2562047h47m16.854775807s
  -        1h                        2562047h47m16.854775807s`
		if got := rec.String(); got != want {
			t.Errorf("String() =\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("After", func(t *testing.T) {
		rec := recorder.New()
		<-rec.After(longest)
		got := <-rec.After(time.Hour)
		want := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(longest)
		if !got.Equal(want) {
			t.Errorf("After(1h) after After(max) sent %v, want %v", got, want)
		}
	})
	t.Run("negative saturates too", func(t *testing.T) {
		rec := run(attempt, sleep(math.MinInt64), attempt, sleep(-time.Hour), attempt)
		if got := rec.Attempts()[2].At; got != math.MinInt64 {
			t.Errorf("At of attempt 3 = %v, want %v", got, time.Duration(math.MinInt64))
		}
	})
}
