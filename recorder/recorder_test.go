package recorder_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/retrykit/retrykit/recorder"
)

// The shapes retry code takes its sleep from; each must accept a Recorder.
var (
	_ func(time.Duration)                        = recorder.New().Sleep
	_ func(context.Context, time.Duration) error = recorder.New().SleepContext
	_ func()                                     = recorder.New().Attempt
	_ interface {
		After(time.Duration) <-chan time.Time
	} = recorder.New()
	_ fmt.Stringer = recorder.New()
)

// op is one call on a Recorder in a scripted test.
type op struct {
	sleep   time.Duration
	attempt bool
	result  bool
	err     error
}

func sleep(d time.Duration) op { return op{sleep: d} }

var (
	attempt = op{attempt: true}
	ok      = op{result: true}
)

func failed(msg string) op { return op{result: true, err: errors.New(msg)} }

func run(ops ...op) *recorder.Recorder {
	rec := recorder.New()
	for _, o := range ops {
		switch {
		case o.attempt:
			rec.Attempt()
		case o.result:
			rec.AttemptResult(o.err)
		default:
			rec.Sleep(o.sleep)
		}
	}
	return rec
}

const s = time.Second

func TestAttemptsAndDelays(t *testing.T) {
	for _, tc := range []struct {
		name         string
		ops          []op
		wantAttempts []recorder.Attempt
		wantDelays   []time.Duration
	}{
		{
			name:         "nothing recorded",
			wantAttempts: []recorder.Attempt{},
			wantDelays:   []time.Duration{},
		},
		{
			name:         "sleeps without attempts",
			ops:          []op{sleep(s), sleep(2 * s)},
			wantAttempts: []recorder.Attempt{},
			wantDelays:   []time.Duration{s, 2 * s},
		},
		{
			name: "five attempts, four waits",
			ops:  []op{attempt, sleep(s), attempt, sleep(2 * s), attempt, sleep(4 * s), attempt, sleep(8 * s), attempt},
			wantAttempts: []recorder.Attempt{
				{Index: 1},
				{Index: 2, Delay: s, At: s},
				{Index: 3, Delay: 2 * s, At: 3 * s},
				{Index: 4, Delay: 4 * s, At: 7 * s},
				{Index: 5, Delay: 8 * s, At: 15 * s},
			},
			wantDelays: []time.Duration{s, 2 * s, 4 * s, 8 * s},
		},
		{
			name:         "two waits between attempts are summed",
			ops:          []op{attempt, sleep(s), sleep(2 * s), attempt},
			wantAttempts: []recorder.Attempt{{Index: 1}, {Index: 2, Delay: 3 * s, At: 3 * s}},
			wantDelays:   []time.Duration{s, 2 * s},
		},
		{
			name:         "a wait before the first attempt",
			ops:          []op{sleep(s), attempt},
			wantAttempts: []recorder.Attempt{{Index: 1, Delay: s, At: s}},
			wantDelays:   []time.Duration{s},
		},
		{
			name:         "a wait after the last attempt is in Delays only",
			ops:          []op{attempt, sleep(s), attempt, sleep(2 * s)},
			wantAttempts: []recorder.Attempt{{Index: 1}, {Index: 2, Delay: s, At: s}},
			wantDelays:   []time.Duration{s, 2 * s},
		},
		{
			name:         "zero and negative delays are recorded as given",
			ops:          []op{attempt, sleep(-s), attempt, sleep(0), attempt},
			wantAttempts: []recorder.Attempt{{Index: 1}, {Index: 2, Delay: -s, At: -s}, {Index: 3, At: -s}},
			wantDelays:   []time.Duration{-s, 0},
		},
		{
			name: "results: nil is ok, an error its text, the last call wins",
			ops:  []op{attempt, failed("429 Too Many Requests"), sleep(s), attempt, failed("first"), ok},
			wantAttempts: []recorder.Attempt{
				{Index: 1, Result: "429 Too Many Requests"},
				{Index: 2, Delay: s, At: s, Result: "ok"},
			},
			wantDelays: []time.Duration{s},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := run(tc.ops...)
			if got := rec.Attempts(); !reflect.DeepEqual(got, tc.wantAttempts) {
				t.Errorf("Attempts() = %+v, want %+v", got, tc.wantAttempts)
			}
			if got := rec.Delays(); !reflect.DeepEqual(got, tc.wantDelays) {
				t.Errorf("Delays() = %v, want %v", got, tc.wantDelays)
			}
		})
	}
}

func TestSleepContext(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel2()
	live, cancel3 := context.WithCancel(context.Background())
	defer cancel3()
	for _, tc := range []struct {
		name       string
		ctx        context.Context
		wantErr    error
		wantDelays []time.Duration
	}{
		{"live context records and returns nil", live, nil, []time.Duration{s}},
		{"canceled context records nothing", canceled, context.Canceled, []time.Duration{}},
		{"expired context records nothing", expired, context.DeadlineExceeded, []time.Duration{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := recorder.New()
			if err := rec.SleepContext(tc.ctx, s); !errors.Is(err, tc.wantErr) {
				t.Errorf("SleepContext(ctx, 1s) = %v, want %v", err, tc.wantErr)
			}
			if got := rec.Delays(); !reflect.DeepEqual(got, tc.wantDelays) {
				t.Errorf("Delays() = %v, want %v", got, tc.wantDelays)
			}
		})
	}
}

func TestAfter(t *testing.T) {
	epoch := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	rec := recorder.New()
	rec.Sleep(500 * time.Millisecond)
	for _, tc := range []struct {
		d    time.Duration
		want time.Time
	}{
		{s, epoch.Add(1500 * time.Millisecond)},
		{0, epoch.Add(1500 * time.Millisecond)},
		{2 * s, epoch.Add(3500 * time.Millisecond)},
	} {
		c := rec.After(tc.d)
		select {
		case got := <-c:
			if !got.Equal(tc.want) {
				t.Errorf("<-After(%v) = %v, want %v", tc.d, got, tc.want)
			}
		default:
			t.Fatalf("After(%v) returned a channel that has not fired", tc.d)
		}
	}
	if got, want := rec.Delays(), []time.Duration{500 * time.Millisecond, s, 0, 2 * s}; !reflect.DeepEqual(got, want) {
		t.Errorf("Delays() = %v, want %v", got, want)
	}
}

func TestAttemptResultWithoutAttemptPanics(t *testing.T) {
	const want = "recorder: AttemptResult: no attempt has been marked; call Attempt when an attempt starts"
	defer func() {
		if got := recover(); got != want {
			t.Errorf("AttemptResult(nil) on a new Recorder panicked with %q, want %q", got, want)
		}
	}()
	recorder.New().AttemptResult(nil)
}

func TestAccessorsReturnCopies(t *testing.T) {
	rec := run(attempt, sleep(s), attempt)
	d, a := rec.Delays(), rec.Attempts()
	d[0], a[1].Delay = time.Hour, time.Hour
	if got := rec.Delays()[0]; got != s {
		t.Errorf("Delays()[0] after editing an earlier copy = %v, want 1s", got)
	}
	if got := rec.Attempts()[1].Delay; got != s {
		t.Errorf("Attempts()[1].Delay after editing an earlier copy = %v, want 1s", got)
	}
}

func TestReset(t *testing.T) {
	rec := run(attempt, failed("boom"), sleep(s), attempt, sleep(2*s))
	rec.Reset()
	if got := rec.String(); got != "recorder: 0 attempts, 0 delays, total 0s" {
		t.Errorf("String() after Reset = %q, want an empty recorder", got)
	}
	rec.Sleep(s)
	rec.Attempt()
	if got, want := rec.Attempts(), []recorder.Attempt{{Index: 1, Delay: s, At: s}}; !reflect.DeepEqual(got, want) {
		t.Errorf("Attempts() after Reset, Sleep(1s), Attempt() = %+v, want %+v", got, want)
	}
}

func TestConcurrentUse(t *testing.T) {
	const workers, each = 8, 100
	rec := recorder.New()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range each {
				rec.Attempt()
				rec.AttemptResult(nil)
				switch i % 3 {
				case 0:
					rec.Sleep(time.Millisecond)
				case 1:
					_ = rec.SleepContext(context.Background(), time.Millisecond)
				default:
					<-rec.After(time.Millisecond)
				}
				_, _ = rec.Delays(), rec.Attempts()
				if i%25 == 0 {
					_ = rec.String()
				}
			}
		})
	}
	wg.Wait()
	attempts, delays := rec.Attempts(), rec.Delays()
	if len(attempts) != workers*each || len(delays) != workers*each {
		t.Fatalf("got %d attempts and %d delays, want %d of each", len(attempts), len(delays), workers*each)
	}
	var at time.Duration
	for i, a := range attempts {
		at += a.Delay
		if a.Index != i+1 || a.At != at {
			t.Fatalf("Attempts()[%d] = %+v, want Index %d, At %v", i, a, i+1, at)
		}
	}
}
