package recorder_test

import (
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"
	"github.com/onsi/gomega/format"

	"github.com/retrykit/retrykit/recorder"
)

var _ format.GomegaStringer = recorder.New()

func TestStringGolden(t *testing.T) {
	const ms = time.Millisecond
	for _, tc := range []struct {
		name string
		rec  *recorder.Recorder
		want string
	}{
		{
			name: "empty",
			rec:  recorder.New(),
			want: "recorder: 0 attempts, 0 delays, total 0s",
		},
		{
			name: "attempts without results",
			rec:  run(attempt, sleep(500*ms), attempt, sleep(s), attempt),
			want: `recorder: 3 attempts, 2 delays, total 1.5s
  attempt  delay  at
  1        0s     0s
  2        500ms  500ms
  3        1s     1.5s`,
		},
		{
			name: "one attempt",
			rec:  run(attempt, failed("bad request")),
			want: `recorder: 1 attempt, 0 delays, total 0s
  attempt  delay  at  result
  1        0s     0s  bad request`,
		},
		{
			name: "results",
			rec: run(attempt, failed("503 Service Unavailable"), sleep(500*ms), attempt,
				failed("503 Service Unavailable"), sleep(s), attempt, ok),
			want: `recorder: 3 attempts, 2 delays, total 1.5s
  attempt  delay  at     result
  1        0s     0s     503 Service Unavailable
  2        500ms  500ms  503 Service Unavailable
  3        1s     1.5s   ok`,
		},
		{
			name: "a delay after the last attempt",
			rec: run(attempt, failed("503 Service Unavailable"), sleep(s), attempt, failed("503 Service Unavailable"),
				sleep(2*s), attempt, failed("503 Service Unavailable"), sleep(4*s)),
			want: `recorder: 3 attempts, 3 delays, total 7s; 1 delay (4s) after the last attempt
  attempt  delay  at  result
  1        0s     0s  503 Service Unavailable
  2        1s     1s  503 Service Unavailable
  3        2s     3s  503 Service Unavailable
  -        4s     7s  (1 delay after the last attempt)`,
		},
		{
			name: "two delays after the last attempt",
			rec:  run(attempt, sleep(s), sleep(time.Hour)),
			want: `recorder: 1 attempt, 2 delays, total 1h0m1s; 2 delays (1h0m1s) after the last attempt
  attempt  delay   at      result
  1        0s      0s      -
  -        1h0m1s  1h0m1s  (2 delays after the last attempt)`,
		},
		{
			name: "sleeps without attempts list one row per delay",
			rec:  run(sleep(s), sleep(2*s), sleep(-s)),
			want: `recorder: 0 attempts, 3 delays, total 2s
  attempt  delay  at
  -        1s     1s
  -        2s     3s
  -        -1s    2s`,
		},
		{
			name: "a zero delay after the last attempt still shows",
			rec:  run(attempt, sleep(0)),
			want: `recorder: 1 attempt, 1 delay, total 0s; 1 delay (0s) after the last attempt
  attempt  delay  at  result
  1        0s     0s  -
  -        0s     0s  (1 delay after the last attempt)`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.rec.String(); got != tc.want {
				t.Errorf("String() =\n%s\nwant\n%s", got, tc.want)
			}
			if got := tc.rec.GomegaString(); got != tc.want {
				t.Errorf("GomegaString() =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestStringFoldsLongSchedules(t *testing.T) {
	rec := recorder.New()
	for range 30 {
		rec.Attempt()
		rec.Sleep(time.Second)
	}
	got := rec.String()
	for _, want := range []string{
		"recorder: 30 attempts, 30 delays, total 30s; 1 delay (1s) after the last attempt\n",
		"  ... 27 rows ...\n",
		"  -        1s     30s  (1 delay after the last attempt)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("String() of 30 attempts =\n%s\nwant it to contain %q", got, want)
		}
	}
}

// A Gomega failure about a recorder prints its schedule, not its fields.
func TestGomegaFailurePrintsTheSchedule(t *testing.T) {
	var msg string
	g := gomega.NewGomega(func(message string, _ ...int) { msg = message })
	g.Expect(run(attempt, sleep(s), attempt)).To(gomega.BeNil())
	for _, want := range []string{
		"recorder: 2 attempts, 1 delay, total 1s\n",
		"      2        1s     1s\n",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("Gomega failure message =\n%s\nwant it to contain %q", msg, want)
		}
	}
}
