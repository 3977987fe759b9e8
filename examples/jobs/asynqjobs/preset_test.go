package asynqjobs_test

import (
	"errors"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/hibiken/asynq"

	"github.com/retrykit/retrykit/examples/fleetsim/presets"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// fleetsim's model of asynq's default (-preset asynq, package
// examples/fleetsim/presets, which cannot import asynq) against asynq's
// own DefaultRetryDelayFunc: for every retry the model's Decide, at the
// 30 sources that pin each value of its rand.IntN(30), and asynq, in 3000
// draws (which show all 30 values, see
// TestAsynqDefaultRetryDelayIsSidekiqs), wait the same 30 delays; the
// model's window spans them exactly, and its Decide reaches both edges at
// the endpoint sources. The
// model's 26 attempts are asynq's default MaxRetry, 25, plus the first
// (TestAsynqDefaultMaxRetryIs25 reads it off a real task). The model
// cannot drift from asynq.
func TestAsynqPresetMatchesAsynqsDefault(t *testing.T) {
	const draws = 3000
	model := presets.Asynq()
	if model.Attempts != 26 {
		t.Fatalf("the model makes %d attempts, want 26: asynq's default MaxRetry 25 (client.go:307), and the first", model.Attempts)
	}
	task := asynq.NewTask("webhook:deliver", nil)
	for k := 1; k < model.Attempts; k++ {
		n := k - 1
		framework, modelled := map[time.Duration]bool{}, map[time.Duration]bool{}
		for range draws {
			framework[asynq.DefaultRetryDelayFunc(n, errors.New("503"), task)] = true
		}
		for i := range 30 {
			rng := rand.New(seqrand.Fixed((float64(i) + 0.5) / 30)) // IntN(30) = i
			modelled[model.Decide(n, retrytest.Outcome{Status: 503}, rng).Delay] = true
		}
		got, want := slices.Sorted(maps.Keys(modelled)), slices.Sorted(maps.Keys(framework))
		if !slices.Equal(got, want) {
			t.Errorf("retry %d (n = %d): the model draws %v, asynq %v", k, n, got, want)
			continue
		}
		if w := model.Window(k); w.Min != want[0] || w.Max != want[len(want)-1] {
			t.Errorf("retry %d: the model's window is %v, asynq draws from %s to %s", k, w, want[0], want[len(want)-1])
		}
		lo := model.Decide(n, retrytest.Outcome{Status: 503}, rand.New(seqrand.Min())).Delay
		hi := model.Decide(n, retrytest.Outcome{Status: 503}, rand.New(seqrand.Max())).Delay
		if lo != want[0] || hi != want[len(want)-1] {
			t.Errorf("retry %d: the model waits %s at Min and %s at Max, want %s and %s", k, lo, hi, want[0], want[len(want)-1])
		}
	}
	if d := model.Decide(model.Attempts-1, retrytest.Outcome{Status: 503}, rand.New(seqrand.Max())); d.Retry {
		t.Errorf("the model retries after attempt %d, asynq's last", model.Attempts)
	}
}

// asynq's default MaxRetry, read off a task enqueued without the option
// on the real Redis: 25 retries, so 26 attempts.
func TestAsynqDefaultMaxRetryIs25(t *testing.T) {
	q := newQueue(t)
	if info := q.enqueue(asynq.NewTask("webhook:deliver", nil)); info.MaxRetry != 25 {
		t.Errorf("a task enqueued without MaxRetry has MaxRetry %d, want 25", info.MaxRetry)
	}
}
