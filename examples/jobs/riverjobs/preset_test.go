package riverjobs_test

import (
	"math/rand/v2"
	"testing"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/retrykit/retrykit/examples/fleetsim/presets"
	"github.com/retrykit/retrykit/seqrand"
)

// fleetsim's model of River's default (-preset river, package
// examples/fleetsim/presets, which cannot import River) against River's
// own DefaultClientRetryPolicy: the same number of attempts, and for every
// retry the same window — River's draws lie in the model's window and
// reach within 2% of its width of both edges, as the model's Decide does
// at the endpoint sources. The model cannot drift from River.
func TestRiverPresetMatchesRiversDefault(t *testing.T) {
	const draws = 2000
	model := presets.River()
	if model.Attempts != river.MaxAttemptsDefault {
		t.Fatalf("the model makes %d attempts, River's default %d", model.Attempts, river.MaxAttemptsDefault)
	}
	policy := &river.DefaultClientRetryPolicy{}
	for k := 1; k < model.Attempts; k++ {
		w := model.Window(k)
		for _, src := range seqrand.Endpoints() {
			edge := w.Max
			if src.String() == seqrand.Min().String() {
				edge = w.Min
			}
			if d := model.Decide(k-1, outcome503, rand.New(src)).Delay; d != edge {
				t.Errorf("retry %d: the model's Decide waits %s at the %s source, want the edge of its window %v", k, d, src, w)
			}
		}
		job := &rivertype.JobRow{Attempt: k, Errors: make([]rivertype.AttemptError, k-1)}
		slack := (w.Max - w.Min) / 50
		nearLo, nearHi := false, false
		for range draws {
			short, long := bracket(policy, job)
			if long < w.Min || short > w.Max {
				t.Fatalf("retry %d: River's default waits [%s, %s], outside the model's window %v", k, short, long, w)
			}
			nearLo = nearLo || short <= w.Min+slack
			nearHi = nearHi || long >= w.Max-slack
		}
		if !nearLo || !nearHi {
			t.Errorf("retry %d: in %d draws River's default came within %s of the bottom of the model's window %v: %t, of its top: %t; want both",
				k, draws, slack, w, nearLo, nearHi)
		}
	}
	if d := model.Decide(model.Attempts-1, outcome503, rand.New(seqrand.Max())); d.Retry {
		t.Errorf("the model retries after attempt %d, River's last", model.Attempts)
	}
}
