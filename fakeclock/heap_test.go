package fakeclock

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestTimerHeapOrder: the heap hands out its timers by deadline, then in
// arming order, whatever was pushed, removed from the middle and popped
// before, and every deadline moved by Set, and every timer knows its index
// (-1 once out). Against a sorted list, over 5,000 seeded random steps with
// many equal deadlines.
func TestTimerHeapOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 37))
	// Deadlines among a few instants, so many ties: within a second and a
	// few seconds apart, and centuries away, beyond what a Duration spans.
	instants := []time.Time{start2000.AddDate(-1000, 0, 0), start2000.AddDate(-300, 0, 0)}
	for i := range 8 {
		instants = append(instants, start2000.Add(time.Duration(i)*time.Second), start2000.Add(time.Duration(i)*time.Second+time.Duration(i+1)*100*time.Millisecond))
	}
	instants = append(instants, start2000.AddDate(300, 0, 0), start2000.AddDate(300, 0, 1), start2000.AddDate(1000, 0, 0))
	shifts := []time.Duration{-time.Second, time.Second, 200 * 365 * 24 * time.Hour, -200 * 365 * 24 * time.Hour}
	var h timerHeap
	var want []*timer // sorted by (when, seq)
	seq := uint64(0)
	check := func(step int) {
		t.Helper()
		for i, e := range h {
			if e.t.idx != i {
				t.Fatalf("step %d: timer at index %d says %d", step, i, e.t.idx)
			}
		}
		if got := h.peek(); len(want) > 0 && got != want[0] || len(want) == 0 && got != nil {
			t.Fatalf("step %d: peek = %v, want the earliest %v", step, got, want)
		}
	}
	for step := range 5000 {
		switch op := rng.IntN(10); {
		case op < 5 || len(want) == 0: // push
			seq++
			tm := &timer{seq: seq, idx: -1, when: instants[rng.IntN(len(instants))]}
			h.push(tm)
			i, _ := slices.BinarySearchFunc(want, tm, func(a, b *timer) int {
				if c := a.when.Compare(b.when); c != 0 {
					return c
				}
				return int(a.seq) - int(b.seq)
			})
			want = slices.Insert(want, i, tm)
		case op == 5 && rng.IntN(10) == 0: // Set: every deadline moves, by up to 200 years
			h.shift(shifts[rng.IntN(len(shifts))])
		case op < 8: // pop
			got := h.pop()
			if got != want[0] {
				t.Fatalf("step %d: pop = (+%s, #%d), want (+%s, #%d)", step, got.when.Sub(start2000), got.seq, want[0].when.Sub(start2000), want[0].seq)
			}
			if got.idx != -1 {
				t.Fatalf("step %d: popped timer's index = %d, want -1", step, got.idx)
			}
			want = want[1:]
		default: // remove one from anywhere, as Stop does
			k := rng.IntN(len(want))
			tm := want[k]
			if got := h.remove(tm.idx); got != tm || tm.idx != -1 {
				t.Fatalf("step %d: remove(%d) = %p (index %d), want %p (index -1)", step, k, got, got.idx, tm)
			}
			want = slices.Delete(want, k, k+1)
		}
		check(step)
	}
	for len(want) > 0 {
		if got := h.pop(); got != want[0] {
			t.Fatalf("draining: pop = (+%s, #%d), want (+%s, #%d)", got.when.Sub(start2000), got.seq, want[0].when.Sub(start2000), want[0].seq)
		}
		want = want[1:]
	}
}
