package fakeclock

import (
	"reflect"
	"time"
	"unsafe"
	"weak"
)

// hchan stands for the runtime's channel header. A channel value is a
// pointer to one, allocated on its own (reflect.Value.UnsafePointer
// returns it), so a weak pointer to it says whether the channel is still
// reachable.
type hchan struct{ _ byte }

// weakChan is a channel the clock sends on without keeping it alive, as
// the Go 1.23 runtime does for the channel of a timer: once nothing else
// references it, the garbage collector reclaims it and the send is
// dropped.
type weakChan weak.Pointer[hchan]

func makeWeakChan(ch chan time.Time) weakChan {
	return weakChan(weak.Make((*hchan)(reflect.ValueOf(ch).UnsafePointer())))
}

// get returns the channel, or nil once it has been reclaimed.
func (w weakChan) get() chan time.Time {
	p := weak.Pointer[hchan](w).Value()
	if p == nil {
		return nil
	}
	return *(*chan time.Time)(unsafe.Pointer(&p))
}

// live reports whether the channel has not been reclaimed.
func (w weakChan) live() bool { return weak.Pointer[hchan](w).Value() != nil }
