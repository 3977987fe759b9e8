package settle_test

import (
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/settle"
)

// The oracle's scope: every goroutine of the process except the caller,
// the lifelong goroutines of the runtime and the standard library, and those
// of another test that is still running.

// scopeOf looks with o and returns whether goroutine id is in scope, its
// origin and the note on it; it fails the test if id is not alive.
func scopeOf(t *testing.T, o *settle.Oracle, id int64) (in bool, origin settle.Origin, note string) {
	t.Helper()
	v := o.Look()
	for i, g := range v.Goroutines {
		if g.ID == id {
			return v.In[i], v.Origins[i], v.Note(i)
		}
	}
	t.Fatalf("goroutine %d is not in the snapshot", id)
	return false, settle.Origin{}, ""
}

// onGoroutine runs f on a new goroutine and waits for it to return.
func onGoroutine(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	<-done
}

func TestScopeCallerIsOut(t *testing.T) {
	o := settle.NewOracle()
	self, _ := goheader.Current()
	if in, _, _ := scopeOf(t, o, self); in {
		t.Errorf("the caller of Look is in scope, want out")
	}
}

// TestScopeOracleMadeOnExitedGoroutine: the oracle is made on a goroutine
// that has exited; the test's goroutines are in scope, whichever goroutine
// looks.
func TestScopeOracleMadeOnExitedGoroutine(t *testing.T) {
	var o *settle.Oracle
	onGoroutine(func() { o = settle.NewOracle() })
	worker, stop := park()
	defer stop()
	if in, _, _ := scopeOf(t, o, worker); !in {
		t.Errorf("a goroutine the test started is out of scope, want in")
	}
	onGoroutine(func() {
		if in, _, _ := scopeOf(t, o, worker); !in {
			t.Errorf("looking from another goroutine of the test: the test's goroutine is out of scope, want in")
		}
	})
}

// TestScopeTestMainGoroutine: a goroutine TestMain started before the tests
// is in scope: work handed to it may be the code under test.
func TestScopeTestMainGoroutine(t *testing.T) {
	o := settle.NewOracle()
	in, origin, note := scopeOf(t, o, poolWorker)
	if !in || origin.Test != settle.NoTest {
		t.Errorf("TestMain's goroutine: in=%v, test=%d, want in scope and started by no test", in, origin.Test)
	}
	if want := "it was started outside every test (by init, TestMain or an Example)"; note != want {
		t.Errorf("note = %q, want %q", note, want)
	}
}

// TestScopeSignalLoop: the goroutine signal.Notify leaves in a system call
// for the life of the process is out of scope.
func TestScopeSignalLoop(t *testing.T) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR2)
	defer signal.Stop(c)
	o := settle.NewOracle()
	v := o.Look()
	found := false
	for i, g := range v.Goroutines {
		if !g.HasFrame("os/signal.loop") {
			continue
		}
		found = true
		if v.In[i] || !v.Origins[i].Lifelong {
			t.Errorf("signal loop (goroutine %d [%s]): in=%v lifelong=%v, want out and lifelong", g.ID, g.State, v.In[i], v.Origins[i].Lifelong)
		}
	}
	if !found {
		t.Fatal("no goroutine in os/signal.loop after signal.Notify")
	}
}

// TestScopeOtherRunningTest: the goroutines of another test that is still
// running are out of scope, and so is that test's own goroutine.
func TestScopeOtherRunningTest(t *testing.T) {
	o := settle.NewOracle()
	ids := make(chan int64)
	checked := make(chan struct{})
	go func() { // of this test, looking while the subtest runs
		defer close(checked)
		sub, other := <-ids, <-ids
		for _, id := range []int64{sub, other} {
			if in, origin, _ := scopeOf(t, o, id); in {
				t.Errorf("goroutine %d of a running subtest (test %d) is in scope, want out", id, origin.Test)
			}
		}
	}()
	t.Run("other", func(t *testing.T) {
		sub, _ := goheader.Current()
		other, stop := park()
		defer stop()
		ids <- sub
		ids <- other
		<-checked
	})
}

// TestScopeParentTestGoroutine: a goroutine the parent test started before
// t.Run is in the scope of an oracle made in the subtest.
func TestScopeParentTestGoroutine(t *testing.T) {
	worker, stop := park()
	defer stop()
	t.Run("sub", func(t *testing.T) {
		o := settle.NewOracle()
		if in, _, _ := scopeOf(t, o, worker); !in {
			t.Errorf("the parent test's goroutine is out of the subtest's scope, want in")
		}
	})
}

// TestScopeEndedTest: a goroutine left behind by a test that has ended is
// in scope (nothing proves it is not the code under test), and the note
// names that test.
func TestScopeEndedTest(t *testing.T) {
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
	waitExited(t, o, sub) // t.Run may return before its goroutine exits
	in, _, note := scopeOf(t, o, id)
	if !in {
		t.Errorf("a goroutine of an ended test is out of scope, want in")
	}
	if want := "it was started by the test settle_test.TestScopeEndedTest.func1, which has ended: it may be a goroutine that test left behind"; note != want {
		t.Errorf("note = %q, want %q", note, want)
	}
}

// TestScopeUnknownAncestry: a goroutine whose parent exited before any look
// saw it is in scope, and the note says it may belong to another test.
func TestScopeUnknownAncestry(t *testing.T) {
	ids := make(chan int64)
	quit := make(chan struct{})
	done := make(chan struct{})
	go func() { // exits before any look
		parent, _ := goheader.Current()
		ids <- parent
		go func() {
			defer close(done)
			id, _ := goheader.Current()
			ids <- id
			<-quit
		}()
	}()
	parent, id := <-ids, <-ids
	defer func() { close(quit); <-done }()
	// Wait for the parent to exit with raw dumps, which teach the oracle's
	// record of ancestry nothing.
	for gone := false; !gone; runtime.Gosched() {
		_, dump := settle.Snapshot(nil)
		gone = !slices.ContainsFunc(settle.Parse(dump), func(g settle.Goroutine) bool { return g.ID == parent })
	}
	in, origin, note := scopeOf(t, settle.NewOracle(), id)
	if !in || origin.Test != settle.Unknown {
		t.Errorf("orphan goroutine: in=%v test=%d, want in scope and test Unknown", in, origin.Test)
	}
	if !strings.Contains(note, "it may belong to another test") {
		t.Errorf("note = %q, want it to say the goroutine may belong to another test", note)
	}
}

// waitExited yields until goroutine id is no longer alive.
func waitExited(t *testing.T, o *settle.Oracle, id int64) {
	t.Helper()
	for range 100000 {
		alive := false
		for _, g := range o.Look().Goroutines {
			alive = alive || g.ID == id
		}
		if !alive {
			return
		}
		runtime.Gosched()
	}
	t.Fatalf("goroutine %d is still alive", id)
}

// A goroutine of a synctest bubble is out of the oracle's scope: the
// oracle runs outside every bubble, and such a goroutine waits on its
// bubble's time, which no clock outside moves. One left asleep in a
// bubble whose root returned (synctest.Test panics: "deadlock", and the
// conformance suite recovers it) has lost its ancestry, and would
// otherwise keep every settle of the process busy until its budget ended.
func TestBubbleGoroutinesOutOfScope(t *testing.T) {
	o := settle.NewOracle()
	sleeper := make(chan int64, 1)
	func() {
		defer func() { _ = recover() }()
		synctest.Test(t, func(t *testing.T) {
			go abandonedSleeper(sleeper)
			synctest.Wait()
		})
	}()
	id := <-sleeper
	in, origin, _ := scopeOf(t, o, id)
	if in {
		t.Errorf("goroutine %d, asleep in an abandoned synctest bubble (origin %+v), is in the oracle's scope", id, origin)
	}
}

// abandonedSleeper sends its goroutine's number and sleeps an hour of its
// bubble's time: still asleep when the bubble's root returns.
func abandonedSleeper(id chan<- int64) {
	me, _ := goheader.Current()
	id <- me
	time.Sleep(time.Hour)
}
