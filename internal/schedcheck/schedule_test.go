package schedcheck_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/retrykit/retrykit/internal/schedcheck"
)

// record is a source that reports what its fields say.
type record struct {
	at      []time.Duration
	results []string
	waits   []time.Duration
	untimed string
}

func (r record) RetrySchedule() ([]time.Duration, []string, []time.Duration, string) {
	return r.at, r.results, r.waits, r.untimed
}

const ms = time.Millisecond

func TestReadSchedules(t *testing.T) {
	fromWaits := []schedcheck.Attempt{{Index: 1}, {Index: 2, Delay: 500 * ms, At: 500 * ms}, {Index: 3, Delay: time.Second, At: 1500 * ms}}
	for _, tc := range []struct {
		name     string
		src      record
		want     []schedcheck.Attempt
		trailing time.Duration
		waits    int
		waitsOf  string
	}{
		{"waits only: n waits are n+1 attempts", record{waits: []time.Duration{500 * ms, time.Second}}, fromWaits, 0, 0, "record"},
		{"no waits is one attempt", record{}, []schedcheck.Attempt{{Index: 1}}, 0, 0, "record"},
		{"attempts: delays are the gaps", record{at: []time.Duration{0, 500 * ms, 1500 * ms}}, fromWaits, 0, 0, ""},
		{"no attempts", record{at: []time.Duration{}}, []schedcheck.Attempt{}, 0, 0, ""},
		{"a wait before the first attempt is its delay", record{at: []time.Duration{2 * time.Second}, results: []string{"503"}},
			[]schedcheck.Attempt{{Index: 1, Delay: 2 * time.Second, At: 2 * time.Second, Result: "503"}}, 0, 0, ""},
		{"results beside attempts", record{at: []time.Duration{0, time.Second}, results: []string{"503", "ok"}},
			[]schedcheck.Attempt{{Index: 1, Result: "503"}, {Index: 2, Delay: time.Second, At: time.Second, Result: "ok"}}, 0, 0, ""},
		{"waits after the last attempt trail", record{at: []time.Duration{0, time.Second}, waits: []time.Duration{3 * time.Second, time.Second}},
			[]schedcheck.Attempt{{Index: 1}, {Index: 2, Delay: time.Second, At: time.Second}}, 4 * time.Second, 2, ""},
		{"a zero wait after the last attempt trails too", record{at: []time.Duration{0}, waits: []time.Duration{0}},
			[]schedcheck.Attempt{{Index: 1}}, 0, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := schedcheck.Read(tc.src, true, "record")
			assert.Equal(t, tc.want, s.Attempts, "Attempts")
			assert.Equal(t, tc.trailing, s.Trailing, "Trailing")
			assert.Equal(t, tc.waits, s.TrailingWaits, "TrailingWaits")
			assert.Equal(t, tc.waitsOf, s.WaitsOf, "WaitsOf")
			assert.True(t, s.Live, "Live")
		})
	}
}

// TestTrailingZeroWait: a Sleep(0) after the last attempt is a wait after
// it, and the checks say so.
func TestTrailingZeroWait(t *testing.T) {
	s := schedcheck.Read(record{at: []time.Duration{0, time.Second}, waits: []time.Duration{0}}, true, "")
	r := schedcheck.Delays(s, []time.Duration{time.Second})
	if r.Passed() {
		t.Fatal("Delays passed a schedule with a wait after its last attempt")
	}
	if got, want := r.Violations[0].Text, "waited 0s after the last attempt (2 of 2), want no wait after it"; got != want {
		t.Errorf("violation = %q, want %q", got, want)
	}
	if got, want := r.Title, "retry schedule (2 attempts, then a 0s wait)"; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
}

func TestMayChange(t *testing.T) {
	within := []schedcheck.Window{{Min: 0, Max: time.Second}, {Min: 0, Max: time.Second}}
	waits := func(ds ...time.Duration) record { return record{waits: ds} }
	for _, tc := range []struct {
		name string
		src  record
		live bool
		want bool
	}{
		{"plain list, failing", waits(time.Second), false, false},
		{"plain list, passing", waits(time.Second, time.Second), false, false},
		{"source, too few so far", waits(time.Second), true, true},
		{"source, passing", waits(time.Second, time.Second), true, true},
		{"source, a delay outside its window", waits(2 * time.Second), true, false},
		{"source, an extra attempt", waits(time.Second, time.Second, time.Second), true, false},
		{"source, a wait after the last attempt", record{at: []time.Duration{0, time.Second, 2 * time.Second}, waits: []time.Duration{time.Second}}, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := schedcheck.Read(tc.src, tc.live, "record")
			if got := schedcheck.DelaysWithin(s, within).MayChange(); got != tc.want {
				t.Errorf("DelaysWithin(%v).MayChange() = %v, want %v", tc.src, got, tc.want)
			}
		})
	}
}

func TestSpreadBuckets(t *testing.T) {
	sp, err := schedcheck.NormalizeSpread(schedcheck.SpreadSpec{Range: schedcheck.Window{Max: 3 * time.Second}, Buckets: 3})
	if err != nil {
		t.Fatal(err)
	}
	// Each edge value opens its bucket; Max itself is in the last one.
	s := schedcheck.FromDelays([]time.Duration{0, time.Second - 1, time.Second, 2*time.Second - 1, 2 * time.Second, 3 * time.Second})
	r := schedcheck.Spread(s, sp)
	if !r.Passed() {
		t.Fatalf("Spread(%v) failed:\n%v", s.Attempts, r.Violations)
	}
	want := "    bucket    count\n    [0s, 1s)  2      ####################\n    [1s, 2s)  2      ####################\n    [2s, 3s]  2      ####################\n"
	if got := r.Body("  ", true); got != want {
		t.Errorf("Spread body =\n%s\nwant\n%s", got, want)
	}
}

func TestNormalizeSpread(t *testing.T) {
	h := schedcheck.Window{Max: time.Hour}
	for _, tc := range []struct {
		in      schedcheck.SpreadSpec
		buckets int
		ratio   float64
		err     string
	}{
		{schedcheck.SpreadSpec{Range: h}, 10, 2, ""},
		{schedcheck.SpreadSpec{Range: h, BucketWidth: 5 * time.Minute}, 12, 2, ""},
		{schedcheck.SpreadSpec{Range: h, Buckets: 12, BucketWidth: 5 * time.Minute, MaxRatio: 3}, 12, 3, ""},
		{schedcheck.SpreadSpec{Range: h, Buckets: 10, BucketWidth: 5 * time.Minute}, 0, 0, "10 buckets of 5m do not cover the range [0s, 1h], want 12 buckets"},
		{schedcheck.SpreadSpec{Range: h, BucketWidth: 7 * time.Minute}, 0, 0, "bucket width 7m does not divide the range [0s, 1h] (1h) evenly"},
		{schedcheck.SpreadSpec{Range: schedcheck.Window{Min: time.Hour, Max: time.Hour}}, 0, 0, "range [1h, 1h], want 0s <= Min < Max"},
		{schedcheck.SpreadSpec{Range: schedcheck.Window{Min: -time.Second, Max: time.Hour}}, 0, 0, "range [-1s, 1h], want 0s <= Min < Max"},
		{schedcheck.SpreadSpec{Range: h, Buckets: -1}, 0, 0, "-1 buckets, want a count >= 1"},
		{schedcheck.SpreadSpec{Range: h, BucketWidth: -time.Second}, 0, 0, "bucket width -1s, want a width > 0s"},
		{schedcheck.SpreadSpec{Range: h, MaxRatio: 1}, 0, 0, "max ratio 1, want a ratio > 1"},
		{schedcheck.SpreadSpec{Range: schedcheck.Window{Max: 3}, Buckets: 4}, 0, 0, "4 buckets over [0s, 3ns] are narrower than 1ns"},
	} {
		got, err := schedcheck.NormalizeSpread(tc.in)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("NormalizeSpread(%+v) = %v, want error %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got.Buckets != tc.buckets || got.MaxRatio != tc.ratio {
			t.Errorf("NormalizeSpread(%+v) = %d buckets, ratio %v, %v; want %d, %v, nil", tc.in, got.Buckets, got.MaxRatio, err, tc.buckets, tc.ratio)
		}
	}
}

// TestOpenWindow: an open window holds its Min but not its Max, prints as
// "[0s, 1s)", and one whose Max is its Min holds nothing.
func TestOpenWindow(t *testing.T) {
	open := schedcheck.Window{Min: 0, Max: time.Second, Open: true}
	closed := schedcheck.Window{Min: 0, Max: time.Second}
	for _, tc := range []struct {
		w    schedcheck.Window
		d    time.Duration
		want bool
	}{
		{open, 0, true}, {open, time.Second - 1, true}, {open, time.Second, false}, {open, -1, false},
		{closed, 0, true}, {closed, time.Second, true}, {closed, time.Second + 1, false},
	} {
		if got := tc.w.Contains(tc.d); got != tc.want {
			t.Errorf("%v.Contains(%v) = %v, want %v", tc.w, tc.d, got, tc.want)
		}
	}
	if got, want := open.String(), "[0s, 1s)"; got != want {
		t.Errorf("open window prints %q, want %q", got, want)
	}
	if got, want := closed.String(), "[0s, 1s]"; got != want {
		t.Errorf("closed window prints %q, want %q", got, want)
	}
	err := schedcheck.ValidateWindows([]schedcheck.Window{closed, {Min: time.Second, Max: time.Second, Open: true}})
	if err == nil || err.Error() != "window 2 of 2 is [1s, 1s), which holds no delay, want Min < Max for an open window" {
		t.Errorf("ValidateWindows(empty open window) = %v", err)
	}
	r := schedcheck.DelaysWithin(schedcheck.FromDelays([]time.Duration{time.Second}), []schedcheck.Window{open})
	if r.Passed() || r.Violations[0].Text != "attempt 2 of 2: delay = 1s, want within [0s, 1s)" {
		t.Errorf("DelaysWithin(1s, [0s, 1s)) = %v, want a violation at the open top", r.Violations)
	}
}

// clocked is a source timed on a clock that can say which goroutines wait
// elsewhere.
type clocked struct {
	record
	asked *int
}

func (c clocked) WaitingElsewhere() []string {
	*c.asked++
	return []string{"goroutine 7 waits in a select (at fetch.go:12, in app.fetch)"}
}

// TestNotes: a failed check prints what the source's clock says under its
// table; a check that passes does not ask.
func TestNotes(t *testing.T) {
	asked := 0
	s := schedcheck.Read(clocked{record{at: []time.Duration{0}}, &asked}, true, "clocked")
	if r := schedcheck.Attempts(s, 1); !r.Passed() || asked != 0 {
		t.Fatalf("Attempts(1 of 1): passed %v, notes asked %d times; want passed and never asked", r.Passed(), asked)
	}
	r := schedcheck.Attempts(s, 2)
	want := "  attempt  delay  at  result\n" +
		"  1        0s     0s  -\n" +
		"> 2        -      -   (missing)  <-- got 1 attempt, want 2\n" +
		"goroutines of the code under test waiting on something other than its clock:\n" +
		"    goroutine 7 waits in a select (at fetch.go:12, in app.fetch)\n"
	if got := r.Body("", true); got != want {
		t.Errorf("Body =\n%s\nwant\n%s", got, want)
	}
}
