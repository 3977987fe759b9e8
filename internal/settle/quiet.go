package settle

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// The oracle reads the scheduler's counters in runtime/metrics (a fraction
// of a microsecond) before it stops the world for a look: while another
// goroutine runs, or waits to run, a look would most likely find the woken
// code still busy, and would cost the whole dump for nothing. The counters
// only ever decide when to look, never whether the goroutines are idle:
// they are approximate, count a processor that looks for work as running,
// and say nothing of where a goroutine waits.

// quietSamples are the scheduler's counters the oracle reads.
func quietSamples() []metrics.Sample {
	return []metrics.Sample{
		{Name: "/sched/goroutines/runnable:goroutines"},
		{Name: "/sched/goroutines/running:goroutines"},
	}
}

// minQuietWait is the least time the oracle waits for the scheduler's
// counters to show nothing else running before it looks anyway.
const minQuietWait = 20 * time.Microsecond

// pollSpacing is the least time between two reads of the counters while
// only other processors run goroutines.
const pollSpacing = 2 * time.Microsecond

// slowYield is how long a runtime.Gosched may take before the oracle stops
// waiting for the counters and looks: other goroutines keep the processors
// busy, and will keep them so.
const slowYield = 200 * time.Microsecond

// awaitQuiet returns once the scheduler's counters show no goroutine but
// the caller running or waiting to run, or once the real time until has
// passed (other tests may keep the processors busy for ever). It yields
// the caller's processor while a goroutine waits for one (the woken code,
// readied on the caller's processor, runs there), and otherwise polls
// without yielding: on a machine with more processors, a yield would hand
// the caller to a processor that is looking for work, which the counters
// then show as running, and the caller would never see the others idle.
//
// Inside a synctest bubble the time stands still while the caller polls:
// awaitQuiet returns at once when it sees so, and the look that follows
// refuses with ErrInBubble.
func (o *Oracle) awaitQuiet(until time.Time) {
	for {
		t0 := time.Now()
		metrics.Read(o.samples)
		var runnable, running uint64
		if o.samples[0].Value.Kind() == metrics.KindUint64 {
			runnable = o.samples[0].Value.Uint64()
		}
		if o.samples[1].Value.Kind() == metrics.KindUint64 {
			running = o.samples[1].Value.Uint64()
		}
		now := time.Now()
		if runnable == 0 && running <= 1 || now.After(until) || !now.After(t0) {
			return
		}
		if runnable > 0 {
			runtime.Gosched()
			if time.Since(now) > slowYield {
				return
			}
			continue
		}
		// Space the reads out: each takes the scheduler's lock, which
		// the goroutines running elsewhere need to park.
		for time.Since(now) < pollSpacing {
		}
	}
}
