package retrytest_test

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/internal/golden"
	"github.com/retrykit/retrykit/retrytest"
)

// Both edges of the span: an attempt at from is in it, one at to is not;
// one nanosecond on the other side of each is the opposite.
func TestNoAttemptsBetweenEdges(t *testing.T) {
	from, to := 6*time.Second, 65*time.Second
	for _, tc := range []struct {
		at   time.Duration
		pass bool
	}{
		{from - 1, true},
		{from, false},
		{to - 1, false},
		{to, true},
	} {
		s := retrytest.Waits(time.Second, tc.at-time.Second)
		err := retrytest.CheckNoAttemptsBetween(s, from, to)
		if (err == nil) != tc.pass {
			t.Errorf("an attempt at %v: CheckNoAttemptsBetween(%v, %v) = %v, want pass %v", tc.at, from, to, err, tc.pass)
		}
	}
}

// Seed 001's point: a "breaker" that only spaces the failures out still
// sends them. Five failures at 1s apart open it at 4s; it sends one
// request every 10s instead of nothing until 1m4s.
func TestNoAttemptsBetweenSpacedOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
		client := tr.Client()
		for _, wait := range []time.Duration{0, time.Second, time.Second, time.Second, time.Second, 10 * time.Second, 10 * time.Second, 50 * time.Second} {
			time.Sleep(wait)
			resp, err := client.Get("https://api.example.com/v1/items")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
		}
		err := retrytest.CheckNoAttemptsBetween(tr, 5*time.Second, 64*time.Second)
		if err == nil {
			t.Fatal("CheckNoAttemptsBetween = nil, want the two requests of the open window")
		}
		golden.Check(t, "check_no_attempts_between", err.Error()+"\n")
		ft := &fakeT{}
		if retrytest.AssertNoAttemptsBetween(ft, tr, 5*time.Second, 64*time.Second) || len(ft.Errors) != 1 || ft.Errors[0] != err.Error() {
			t.Errorf("AssertNoAttemptsBetween reported %q, want the Check's error once", ft.Errors)
		}
		if err := retrytest.CheckNoAttemptsBetween(tr, 5*time.Second, 14*time.Second); err != nil {
			t.Errorf("no request in [5s, 14s): CheckNoAttemptsBetween = %v, want nil", err)
		}
	})
}

func TestNoAttemptsBetweenInput(t *testing.T) {
	s := retrytest.Waits(time.Second)
	for _, tc := range []struct {
		from, to time.Duration
		want     string
	}{
		{-1, time.Second, "retrytest: CheckNoAttemptsBetween: from -1ns, want an offset >= 0s"},
		{time.Second, time.Second, "retrytest: CheckNoAttemptsBetween: [1s, 1s) holds no instant, want from < to"},
		{2 * time.Second, time.Second, "retrytest: CheckNoAttemptsBetween: [2s, 1s) holds no instant, want from < to"},
	} {
		if err := retrytest.CheckNoAttemptsBetween(s, tc.from, tc.to); err == nil || err.Error() != tc.want {
			t.Errorf("CheckNoAttemptsBetween(%v, %v) = %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
	if err := retrytest.CheckNoAttemptsBetween(nil, 0, time.Second); err == nil || !strings.Contains(err.Error(), "nil Schedule") {
		t.Errorf("a nil Schedule: %v, want an input error", err)
	}
}

// Outside a bubble and without a clock, a transport records no times:
// the check cannot tell, and says so.
func TestNoAttemptsBetweenUntimed(t *testing.T) {
	tr := httpscript.NewTransport(t, httpscript.Respond(503).Always())
	resp, err := tr.Client().Get("https://api.example.com/v1/items")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	err = retrytest.CheckNoAttemptsBetween(tr, 0, time.Second)
	if err == nil || !strings.Contains(err.Error(), "cannot check when the attempts happened") {
		t.Errorf("an untimed transport: %v, want the check to say it cannot tell", err)
	}
}

// A breaker that opened on the fifth failure, at 4s, sends nothing from
// the next call, at 5s, until it half-opens a minute after the trip; one
// that only spaces the failures out sends one every 10s.
func ExampleCheckNoAttemptsBetween() {
	second := time.Second
	open := retrytest.Waits(second, second, second, second, 60*second)
	spaced := retrytest.Waits(second, second, second, second, 10*second, 10*second, 40*second)
	fmt.Println(retrytest.CheckNoAttemptsBetween(open, 5*second, 64*second))
	fmt.Println(retrytest.CheckNoAttemptsBetween(spaced, 5*second, 64*second))
	// Output:
	// <nil>
	// retrytest: 2 attempts in [5s, 1m4s), want none: attempts 6 to 7 of 8, from 14s to 24s
	// retry schedule (8 attempts):
	//     attempt  delay  at    want  result
	//     1        0s     0s    -     -
	//     2        1s     1s    -     -
	//     3        1s     2s    -     -
	//     4        1s     3s    -     -
	//     5        1s     4s    -     -
	//     -        -      5s    -     (from here, no attempt wanted)
	//   > 6        10s    14s   none  -  <-- in [5s, 1m4s), want none
	//     7        10s    24s   none  -
	//     -        -      1m4s  -     (until here)
	//     8        40s    1m4s  -     -
}
