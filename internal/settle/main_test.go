package settle_test

import (
	"testing"

	"github.com/retrykit/retrykit/internal/goheader"
	"go.uber.org/goleak"
)

// The one goroutine a test leaves on purpose: asleep in a synctest bubble
// its root abandoned, which nothing can wake (TestBubbleGoroutinesOutOfScope).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(poolM{m}, goleak.IgnoreAnyFunction("github.com/retrykit/retrykit/internal/settle_test.abandonedSleeper"))
}

// poolM starts a goroutine before the tests run, as a TestMain may start
// shared workers, and stops it after them.
type poolM struct{ m *testing.M }

// poolWorker is the number of the goroutine poolM started.
var poolWorker int64

func (p poolM) Run() int {
	id, stop := park()
	poolWorker = id
	defer stop()
	return p.m.Run()
}

// park starts a goroutine that waits on a channel until stop is called,
// and returns its number.
func park() (id int64, stop func()) {
	ids, quit, done := make(chan int64), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		id, _ := goheader.Current()
		ids <- id
		<-quit
	}()
	return <-ids, func() { close(quit); <-done }
}
