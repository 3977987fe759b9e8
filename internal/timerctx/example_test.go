package timerctx_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/retrykit/retrykit/internal/timerctx"
)

// An owner arms its timer to call Expire; here the "timer" is called by
// hand. A context derived from x ends with it, in the same goroutine.
func Example() {
	deadline := time.Date(2000, 1, 1, 0, 0, 1, 0, time.UTC)
	x := timerctx.New(context.Background(), deadline, errors.New("retry budget spent"))
	stopped := false
	x.SetTimer(func() bool { stopped = true; return false })
	x.WatchParent()
	child, cancel := context.WithCancel(x)
	defer cancel()

	fmt.Println("before:", x.Err())
	x.Expire() // what the owner's timer does at the deadline
	fmt.Println("after: ", x.Err(), "/", context.Cause(x))
	fmt.Println("child: ", child.Err(), "/", context.Cause(child))
	fmt.Println("timer stopped:", stopped)
	// Output:
	// before: <nil>
	// after:  context deadline exceeded / retry budget spent
	// child:  context deadline exceeded / retry budget spent
	// timer stopped: true
}
