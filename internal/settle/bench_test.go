package settle

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// parked starts n goroutines parked in a select until stop is called.
func parked(n int) (stop func()) {
	quit := make(chan struct{})
	started := make(chan struct{})
	for range n {
		go func() {
			never := make(chan int)
			started <- struct{}{}
			select {
			case <-never:
			case <-quit:
			}
		}()
		<-started
	}
	return func() { close(quit) }
}

// BenchmarkLook measures the parts of one look at the goroutines of the
// process, with n more goroutines parked: the runtime's dump alone, the
// dump parsed, and the settle oracle's whole snapshot (dump, parse,
// ancestry, scope, classes) and Settle on an idle process.
func BenchmarkLook(b *testing.B) {
	for _, n := range []int{0, 1000} {
		b.Run("parked="+strconv.Itoa(n), func(b *testing.B) {
			stop := parked(n)
			defer stop()
			o := NewOracle()
			s := new(scratch)
			b.Run("Snapshot", func(b *testing.B) {
				for b.Loop() {
					s.buf, _ = Snapshot(s.buf)
				}
			})
			b.Run("Snapshot+Parse", func(b *testing.B) {
				for b.Loop() {
					var dump []byte
					s.buf, dump = Snapshot(s.buf)
					s.gs = parseInto(s.gs[:0], dump, nil)
				}
			})
			b.Run("snapshot", func(b *testing.B) {
				for b.Loop() {
					o.snapshot(s)
				}
			})
			b.Run("Settle", func(b *testing.B) {
				ctx := context.Background()
				for b.Loop() {
					if err := o.Settle(ctx, time.Now().Add(time.Minute)); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkParse parses a dump of the process with 1,000 goroutines
// parked.
func BenchmarkParse(b *testing.B) {
	stop := parked(1000)
	defer stop()
	_, dump := Snapshot(nil)
	var gs []Goroutine
	b.SetBytes(int64(len(dump)))
	for b.Loop() {
		gs = parseInto(gs[:0], dump, nil)
	}
}
