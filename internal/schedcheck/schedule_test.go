package schedcheck_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/retrykit/retrykit/internal/schedcheck"
	"github.com/retrykit/retrykit/recorder"
)

type delaysOnly []time.Duration

func (d delaysOnly) Delays() []time.Duration { return d }

type attemptsOnly []recorder.Attempt

func (a attemptsOnly) Attempts() []recorder.Attempt { return a }

type both struct {
	delays   []time.Duration
	attempts []recorder.Attempt
}

func (b *both) Delays() []time.Duration      { return b.delays }
func (b *both) Attempts() []recorder.Attempt { return b.attempts }

type panicky struct{}

func (*panicky) Delays() []time.Duration { panic("boom") }

const ms = time.Millisecond

func TestReadSchedules(t *testing.T) {
	fromDelays := []recorder.Attempt{{Index: 1}, {Index: 2, Delay: 500 * ms, At: 500 * ms}, {Index: 3, Delay: time.Second, At: 1500 * ms}}
	recorded := []recorder.Attempt{{Index: 7, Result: "503"}, {Index: 9, Delay: 2 * time.Second, At: 2 * time.Second, Result: "ok"}}
	renumbered := []recorder.Attempt{{Index: 1, Result: "503"}, {Index: 2, Delay: 2 * time.Second, At: 2 * time.Second, Result: "ok"}}
	for _, tc := range []struct {
		name     string
		got      any
		want     []recorder.Attempt
		wantLive bool
	}{
		{"delays", []time.Duration{500 * ms, time.Second}, fromDelays, false},
		{"no delays is one attempt", []time.Duration(nil), []recorder.Attempt{{Index: 1}}, false},
		{"attempts renumbered by position", recorded, renumbered, false},
		{"no attempts", []recorder.Attempt{}, []recorder.Attempt{}, false},
		{"delays provider", delaysOnly{500 * ms, time.Second}, fromDelays, true},
		{"attempts provider", attemptsOnly(recorded), renumbered, true},
		{"both: attempts win", &both{delays: []time.Duration{2 * time.Second}, attempts: recorded}, renumbered, true},
		{"both: no attempts, delays", &both{delays: []time.Duration{500 * ms, time.Second}}, fromDelays, true},
		{"both: nothing recorded is no attempt", &both{}, []recorder.Attempt{}, true},
		{"attempts provider with none", attemptsOnly(nil), []recorder.Attempt{}, true},
		{"delays provider with none is one attempt", delaysOnly(nil), []recorder.Attempt{{Index: 1}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schedcheck.Read(tc.got, false)
			if err != nil {
				t.Fatalf("Read(%T) = %v", tc.got, err)
			}
			assert.Equal(t, tc.want, s.Attempts, "Read(%T).Attempts", tc.got)
			if s.Live != tc.wantLive {
				t.Errorf("Read(%T).Live = %v, want %v", tc.got, s.Live, tc.wantLive)
			}
		})
	}
}

// TestReadTrailing reads the wait a provider with both methods recorded
// after its last attempt, and which providers are read from their waits.
func TestReadTrailing(t *testing.T) {
	recorded := []recorder.Attempt{{Index: 1}, {Index: 2, Delay: time.Second, At: time.Second}}
	for _, tc := range []struct {
		name     string
		got      any
		trailing time.Duration
		waitsOf  string
		unmarked bool
	}{
		{"no wait after the last attempt", &both{delays: []time.Duration{time.Second}, attempts: recorded}, 0, "", false},
		{"a wait after the last attempt", &both{delays: []time.Duration{time.Second, 4 * time.Second}, attempts: recorded}, 4 * time.Second, "", false},
		{"two waits after the last attempt", &both{delays: []time.Duration{time.Second, time.Second, 3 * time.Second}, attempts: recorded}, 4 * time.Second, "", false},
		{"a wait before the first attempt is no trailing wait", &both{delays: []time.Duration{time.Second}, attempts: []recorder.Attempt{{Delay: time.Second, At: time.Second}}}, 0, "", false},
		{"fewer waits than the attempts say", &both{delays: nil, attempts: recorded}, 0, "", false},
		{"saturating", &both{delays: []time.Duration{1<<63 - 1, 1<<63 - 1}, attempts: []recorder.Attempt{{Delay: -1 << 63}}}, 1<<63 - 1, "", false},
		{"attempts only", attemptsOnly(recorded), 0, "", false},
		{"delays only", delaysOnly{time.Second}, 0, "schedcheck_test.delaysOnly", false},
		{"both, no attempt marked", &both{delays: []time.Duration{time.Second}}, 0, "*schedcheck_test.both", true},
		{"a slice of delays", []time.Duration{time.Second}, 0, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schedcheck.Read(tc.got, false)
			if err != nil {
				t.Fatalf("Read(%T) = %v", tc.got, err)
			}
			if s.Trailing != tc.trailing || s.WaitsOf != tc.waitsOf || s.Unmarked != tc.unmarked {
				t.Errorf("Read(%T) = Trailing %v, WaitsOf %q, Unmarked %v, want %v, %q, %v",
					tc.got, s.Trailing, s.WaitsOf, s.Unmarked, tc.trailing, tc.waitsOf, tc.unmarked)
			}
		})
	}
}

func TestReadCopies(t *testing.T) {
	in := []recorder.Attempt{{Index: 1, Result: "a"}}
	s, _ := schedcheck.Read(in, false)
	in[0].Result = "changed"
	if got := s.Attempts[0].Result; got != "a" {
		t.Errorf("Read kept a reference to its input: Result = %q, want %q", got, "a")
	}
}

func TestReadCount(t *testing.T) {
	s, err := schedcheck.Read(5, true)
	if err != nil || !s.CountOnly || s.Len() != 5 {
		t.Errorf("Read(5, true) = %+v, %v, want a count of 5", s, err)
	}
	if _, err := schedcheck.Read(5, false); kind(err) != schedcheck.WrongType {
		t.Errorf("Read(5, false) = %v, want a WrongType error", err)
	}
	if _, err := schedcheck.Read(-1, true); kind(err) != schedcheck.BadArgument {
		t.Errorf("Read(-1, true) = %v, want a BadArgument error", err)
	}
}

func TestReadRejects(t *testing.T) {
	var nilBoth *both
	var nilProvider schedcheck.Schedule // not a provider at all
	for _, tc := range []struct {
		name string
		got  any
		kind schedcheck.InputKind
		text string
	}{
		{"nil", nil, schedcheck.WrongType, "got nil"},
		{"int", 3, schedcheck.WrongType, "got int"},
		{"other struct", nilProvider, schedcheck.WrongType, "got schedcheck.Schedule"},
		{"[]int64", []int64{1}, schedcheck.WrongType, "got []int64"},
		{"nil pointer provider", nilBoth, schedcheck.NilProvider, "got a nil *schedcheck_test.both"},
		{"nil slice provider", delaysOnly(nil), -1, ""},
		{"panicking provider", &panicky{}, schedcheck.ProviderPanic, "(*schedcheck_test.panicky).Delays panicked: boom"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schedcheck.Read(tc.got, false)
			if tc.kind == -1 {
				if err != nil {
					t.Errorf("Read(%#v) = %v, want no error", tc.got, err)
				}
				return
			}
			if kind(err) != tc.kind || err.Error() != tc.text {
				t.Errorf("Read(%#v) = %v (kind %d), want %q (kind %d)", tc.got, err, kind(err), tc.text, tc.kind)
			}
		})
	}
}

func kind(err error) schedcheck.InputKind {
	var ie *schedcheck.InputError
	if errors.As(err, &ie) {
		return ie.Kind
	}
	return 0
}

func TestMayChange(t *testing.T) {
	within := []schedcheck.Window{{Min: 0, Max: time.Second}, {Min: 0, Max: time.Second}}
	for _, tc := range []struct {
		name string
		got  any
		want bool
	}{
		{"plain slice, failing", []time.Duration{time.Second}, false},
		{"plain slice, passing", []time.Duration{time.Second, time.Second}, false},
		{"provider, too few so far", delaysOnly{time.Second}, true},
		{"provider, passing", delaysOnly{time.Second, time.Second}, true},
		{"provider, a delay outside its window", delaysOnly{2 * time.Second}, false},
		{"provider, an extra attempt", delaysOnly{time.Second, time.Second, time.Second}, false},
		{"provider, a wait after the last attempt", &both{delays: []time.Duration{time.Second, time.Second, time.Second},
			attempts: []recorder.Attempt{{}, {Delay: time.Second, At: time.Second}, {Delay: time.Second, At: 2 * time.Second}}}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schedcheck.Read(tc.got, false)
			if err != nil {
				t.Fatal(err)
			}
			if got := schedcheck.DelaysWithin(s, within).MayChange(); got != tc.want {
				t.Errorf("DelaysWithin(%v).MayChange() = %v, want %v", tc.got, got, tc.want)
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
