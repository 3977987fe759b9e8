package settle_test

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/settle"
)

// Tests aimed at the mutants of testdata/mutants.txt that the package's
// other tests let live: the ancestry after the snapshot changed, a running
// test's grandchildren, looks from outside the oracle's test, a bubble's
// scope, big dumps and the header's suffixes.

// waitGone yields until goroutine id is no longer alive, watching with raw
// dumps, which teach the oracle's record of ancestry nothing.
func waitGone(t *testing.T, id int64) {
	t.Helper()
	for range 100000 {
		_, dump := settle.Snapshot(nil)
		if !slices.ContainsFunc(settle.Parse(dump), func(g settle.Goroutine) bool { return g.ID == id }) {
			return
		}
		runtime.Gosched()
	}
	t.Fatalf("goroutine %d is still alive", id)
}

// TestScopeEndedTestAfterTheSnapshotChanged: a goroutine left behind by a
// test that has ended is still traced to that test once the test's
// goroutine is gone from the record, at a look whose snapshot differs.
func TestScopeEndedTestAfterTheSnapshotChanged(t *testing.T) {
	var (
		left    func()
		id, sub int64
	)
	t.Run("leaves_a_goroutine", func(t *testing.T) {
		sub, _ = goheader.Current()
		id, left = park()
		settle.NewOracle() // a look while the subtest runs
	})
	defer left()
	o := settle.NewOracle()
	waitExited(t, o, sub) // its last look forgets the subtest's goroutine
	_, stop := park()     // the next snapshot differs from the last
	defer stop()
	in, origin, note := scopeOf(t, o, id)
	if !in || origin.Test != sub {
		t.Errorf("goroutine of an ended test: in=%v test=%d, want in scope and test %d", in, origin.Test, sub)
	}
	if want := "it was started by the test settle_test.TestScopeEndedTestAfterTheSnapshotChanged.func1, which has ended: it may be a goroutine that test left behind"; note != want {
		t.Errorf("note = %q, want %q", note, want)
	}
}

// TestScopeOtherRunningTestGrandchild: a goroutine started by a helper
// goroutine of another running test, after a look saw the helper, is out of
// scope like the helper.
func TestScopeOtherRunningTestGrandchild(t *testing.T) {
	o := settle.NewOracle()
	helperUp, workerUp := make(chan int64), make(chan int64)
	startWorker, checked := make(chan struct{}), make(chan struct{})
	go func() { // of this test, looking while the subtest runs
		defer close(checked)
		helper := <-helperUp
		if in, origin, _ := scopeOf(t, o, helper); in {
			t.Errorf("helper goroutine %d of a running subtest (test %d) is in scope, want out", helper, origin.Test)
		}
		close(startWorker)
		worker := <-workerUp
		if in, origin, _ := scopeOf(t, o, worker); in {
			t.Errorf("goroutine %d started by a helper of a running subtest (test %d) is in scope, want out", worker, origin.Test)
		}
	}()
	t.Run("other", func(t *testing.T) {
		quit := make(chan struct{})
		var wg sync.WaitGroup
		defer wg.Wait()
		defer close(quit)
		wg.Go(func() {
			id, _ := goheader.Current()
			helperUp <- id
			<-startWorker
			wg.Go(func() {
				id, _ := goheader.Current()
				workerUp <- id
				<-quit
			})
			<-quit
		})
		<-checked
	})
}

// TestScopeLookFromLostAncestry: the oracle's test is in its scope whoever
// looks, even a goroutine whose own ancestry is lost (such as a callback of
// a real timer).
func TestScopeLookFromLostAncestry(t *testing.T) {
	type look struct {
		o      *settle.Oracle
		worker int64
	}
	looks := make(chan look)
	found := make(chan [2]bool)
	ids := make(chan int64)
	go func() { // exits before any look
		parent, _ := goheader.Current()
		ids <- parent
		go func() {
			id, _ := goheader.Current()
			ids <- id
			l := <-looks
			v := l.o.Look()
			var res [2]bool
			for i, g := range v.Goroutines {
				if g.ID == l.worker {
					res = [2]bool{true, v.In[i]}
				}
			}
			found <- res
		}()
	}()
	parent, looker := <-ids, <-ids
	waitGone(t, parent)
	o := settle.NewOracle()
	if _, origin, _ := scopeOf(t, o, looker); origin.Test != settle.Unknown {
		t.Fatalf("the looking goroutine's test = %d, want Unknown (-1): its parent exited before any look", origin.Test)
	}
	worker, stop := park()
	defer stop()
	looks <- look{o, worker}
	if res := <-found; !res[0] || !res[1] {
		t.Errorf("looking from a goroutine of lost ancestry: the test's goroutine %d found=%v in=%v, want found and in scope", worker, res[0], res[1])
	}
}

// TestScopeLookFromSubtest: a subtest looking with its parent test's
// oracle has its own goroutines in scope, and says nothing against them.
func TestScopeLookFromSubtest(t *testing.T) {
	o := settle.NewOracle()
	t.Run("sub", func(t *testing.T) {
		worker, stop := park()
		defer stop()
		in, _, note := scopeOf(t, o, worker)
		if !in {
			t.Errorf("the looking subtest's goroutine is out of scope, want in")
		}
		if note != "" {
			t.Errorf("note on a goroutine of the running subtest = %q, want none", note)
		}
	})
}

// TestLookBubble: in a bubble's view the caller is out, the bubble's other
// goroutines are in, and the goroutines outside it are out.
func TestLookBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		self, bubble := goheader.Current()
		worker, stop := park()
		defer stop()
		v := settle.LookBubble(bubble)
		if v.Goroutines[0].ID != self || v.In[0] {
			t.Errorf("LookBubble: first goroutine %d in=%v, want the caller %d, out", v.Goroutines[0].ID, v.In[0], self)
		}
		want := map[int64]bool{worker: true, poolWorker: false}
		for i, g := range v.Goroutines {
			if w, ok := want[g.ID]; ok {
				if v.In[i] != w {
					t.Errorf("LookBubble: goroutine %d in=%v, want %v", g.ID, v.In[i], w)
				}
				delete(want, g.ID)
			}
		}
		if len(want) > 0 {
			t.Errorf("LookBubble: goroutines %v missing from the snapshot", want)
		}
	})
}

// TestLookBubbleOtherBubble: the goroutines of another bubble are out of a
// bubble's view.
func TestLookBubbleOtherBubble(t *testing.T) {
	ids := make(chan int64)
	checked, done := make(chan struct{}), make(chan struct{})
	go func() { // the other bubble, alive while the first looks
		defer close(done)
		synctest.Test(t, func(t *testing.T) {
			id, stop := park()
			defer stop()
			ids <- id
			<-checked
		})
	}()
	defer func() { <-done }()
	synctest.Test(t, func(t *testing.T) {
		defer close(checked)
		other := <-ids
		_, bubble := goheader.Current()
		v := settle.LookBubble(bubble)
		found := false
		for i, g := range v.Goroutines {
			if g.ID == other {
				found = true
				if g.Bubble == bubble || g.Bubble == 0 {
					t.Errorf("goroutine %d of the other bubble is in bubble %d, want another", g.ID, g.Bubble)
				}
				if v.In[i] {
					t.Errorf("LookBubble(%d): goroutine %d of another bubble (%d) is in, want out", bubble, g.ID, g.Bubble)
				}
			}
		}
		if !found {
			t.Errorf("goroutine %d of the other bubble is missing from the snapshot", other)
		}
	})
}

// sleepAnHour sleeps in time.Sleep and reports, first, the line of that
// call (two below runtime.Caller's).
func sleepAnHour(line chan<- int) {
	_, _, l, _ := runtime.Caller(0)
	line <- l + 2
	time.Sleep(time.Hour)
}

// TestNoteTimeSleep: the note on a goroutine asleep in time.Sleep names the
// call in the code that slept, not the time package.
func TestNoteTimeSleep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, bubble := goheader.Current()
		lines := make(chan int, 1)
		done := make(chan struct{})
		go func() {
			defer close(done)
			sleepAnHour(lines)
		}()
		line := <-lines
		synctest.Wait()
		v := settle.LookBubble(bubble)
		want := "it sleeps in time.Sleep (at mutants_kill_test.go:" + strconv.Itoa(line) + ", in settle_test.sleepAnHour)"
		found := false
		for i, g := range v.Goroutines {
			if g.State == "sleep" && v.In[i] {
				found = true
				if note := v.Note(i); !strings.HasPrefix(note, want) {
					t.Errorf("note = %q, want it to start with %q", note, want)
				}
			}
		}
		if !found {
			t.Error("no goroutine asleep in the bubble")
		}
		<-done
	})
}

// TestSnapshotGrows: a dump longer than the first buffer is read whole.
func TestSnapshotGrows(t *testing.T) {
	const n = 1000
	ids := make([]int64, n)
	for i := range n {
		var stop func()
		ids[i], stop = park()
		defer stop()
	}
	_, dump := settle.Snapshot(nil)
	if len(dump) <= 64<<10 {
		t.Fatalf("a dump of %d parked goroutines holds %d bytes, want more than 64 KiB for the test to mean anything", n, len(dump))
	}
	seen := make(map[int64]bool)
	for _, g := range settle.Parse(dump) {
		seen[g.ID] = true
	}
	for _, id := range ids {
		if !seen[id] {
			t.Fatalf("goroutine %d missing from a %d-byte dump", id, len(dump))
		}
	}
}

// TestParseStateSuffixes: the "(leaked)", "(scan)" and "(durable)" marks
// the runtime prints after a wait reason, in that order, are not part of
// the state.
func TestParseStateSuffixes(t *testing.T) {
	type want struct {
		state  string
		bubble int64
	}
	for header, w := range map[string]want{
		"goroutine 5 [chan receive (leaked)]:":                                     {"chan receive", 0},
		"goroutine 5 [select (leaked) (scan), 3 minutes]:":                         {"select", 0},
		"goroutine 5 [chan receive (scan) (durable), synctest bubble 4]:":          {"chan receive", 4},
		"goroutine 5 [sync.WaitGroup.Wait (durable), synctest bubble 12]:":         {"sync.WaitGroup.Wait", 12},
		"goroutine 5 [semacquire (leaked), 2 minutes, locked to thread]:":          {"semacquire", 0},
		"goroutine 5 [chan send (scan), synctest bubble 3 labels:{\"k\": \"v\"}]:": {"chan send", 3},
	} {
		block := header + "\nmain.wait()\n\t/tmp/x.go:3 +0x1\ncreated by main.main in goroutine 1\n\t/tmp/x.go:9 +0x2\n"
		gs := settle.Parse([]byte(block))
		if len(gs) != 1 {
			t.Errorf("Parse(%q) = %d goroutines, want 1", header, len(gs))
			continue
		}
		if got := (want{gs[0].State, gs[0].Bubble}); got != w {
			t.Errorf("Parse(%q): state %q bubble %d, want %q bubble %d", header, got.state, got.bubble, w.state, w.bubble)
		}
	}
}

// TestOracleExisted: the goroutines alive when the oracle was made
// existed, the caller included; one started after did not.
func TestOracleExisted(t *testing.T) {
	self, _ := goheader.Current()
	o := settle.NewOracle()
	worker, stop := park()
	defer stop()
	if !o.Existed(self) || !o.Existed(poolWorker) {
		t.Errorf("Existed(caller %d) = %v, Existed(TestMain's goroutine %d) = %v; want both true", self, o.Existed(self), poolWorker, o.Existed(poolWorker))
	}
	if o.Existed(worker) {
		t.Errorf("Existed(%d), a goroutine started after the oracle, = true, want false", worker)
	}
}
