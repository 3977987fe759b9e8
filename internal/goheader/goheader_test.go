package goheader

import (
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestParse reads the headers the runtime prints, with every part it may
// add after the state: the wait's length, the bubble, the labels, the
// "(durable)", "(scan)" and "(leaked)" marks in the order it prints them.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		line   string
		id     int64
		state  string
		bubble int64
	}{
		{"goroutine 1 [running]:", 1, "running", 0},
		{"goroutine 7 [chan receive, 2 minutes]:\n", 7, "chan receive", 0},
		{"goroutine 19 [chan receive (durable), synctest bubble 2]:", 19, "chan receive", 2},
		{`goroutine 23 [select (no cases) (durable), 12 minutes, synctest bubble 2 labels:{"k": "v, x"}]:`, 23, "select (no cases)", 2},
		{`goroutine 24 [sleep, synctest bubble 31 labels:{"a": "b"}]:`, 24, "sleep", 31},
		{"goroutine 30 [chan send (leaked)]:", 30, "chan send", 0},
		{"goroutine 31 [semacquire (scan) (durable), synctest bubble 4]:", 31, "semacquire", 4},
		{"goroutine 32 gp=0xc000007c00 m=nil [IO wait]:", 32, "IO wait", 0},
	} {
		h, ok := Parse([]byte(tc.line))
		if !ok || h.ID != tc.id || string(h.State) != tc.state || h.Bubble != tc.bubble {
			t.Errorf("Parse(%q) = {%d %q %d} %v, want {%d %q %d} true", tc.line, h.ID, h.State, h.Bubble, ok, tc.id, tc.state, tc.bubble)
		}
	}
	for _, line := range []string{"", "goroutine", "goroutine x [running]:", "Goroutine 1 [running]:", "goroutine 1 running:", "goroutine 1 [running", "7 [running]:"} {
		if _, ok := Parse([]byte(line)); ok {
			t.Errorf("Parse(%q) ok, want false: it is no header", line)
		}
	}
}

// TestCurrent: the caller's own number, and no bubble outside one.
func TestCurrent(t *testing.T) {
	id, bubble := Current()
	if id == 0 || bubble != 0 {
		t.Errorf("Current() = %d, %d outside every bubble, want a goroutine number and 0", id, bubble)
	}
	ch := make(chan int64)
	go func() {
		other, _ := Current()
		ch <- other
	}()
	if other := <-ch; other == id || other == 0 {
		t.Errorf("Current() in another goroutine = %d, the test's %d: want its own number", other, id)
	}
}

// The bubble detector, both sides: outside every bubble no; inside one, in
// the bubble's goroutines, yes; and with the header's bubble number
// blinded (a Go that rewords it, through the seam), the documented bubble
// time still says yes for the first year of fake time, and the header
// alone past it; misjudged through its seam, no.
func TestInBubble(t *testing.T) {
	if InBubble() {
		t.Error("InBubble() outside every bubble = true")
	}
	synctest.Test(t, func(t *testing.T) {
		if !InBubble() {
			t.Error("InBubble() in synctest.Test = false")
		}
		inner := make(chan bool)
		go func() { inner <- InBubble() }()
		if !<-inner {
			t.Error("InBubble() in a goroutine started inside the bubble = false")
		}
		undo := Misjudge()
		if InBubble() {
			t.Error("InBubble() inside a bubble, misjudged through the seam = true")
		}
		undo()
		restore := BlindHeader()
		if !InBubble() {
			t.Error("InBubble() with the header blinded, at the bubble's start = false, want true from the bubble's time")
		}
		time.Sleep(366 * 24 * time.Hour)
		if InBubble() {
			t.Error("InBubble() with the header blinded, a year and a day in = true: the time signal covers the first year only (as documented)")
		}
		restore()
		if !InBubble() {
			t.Error("InBubble() a year and a day into the bubble = false: the header says bubble whatever the time")
		}
	})
	restore := BlindHeader()
	defer restore()
	if InBubble() {
		t.Error("InBubble() outside every bubble, header blinded = true")
	}
}

func TestIsBubbleTime(t *testing.T) {
	for _, tc := range []struct {
		at   time.Time
		want bool
	}{
		{time.Date(1999, 12, 31, 23, 59, 59, 999999999, time.UTC), false},
		{time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{time.Date(2000, 12, 31, 23, 59, 59, 999999999, time.UTC), true},
		{time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC), false},
		{time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), false},
	} {
		if got := IsBubbleTime(tc.at); got != tc.want {
			t.Errorf("IsBubbleTime(%v) = %v, want %v", tc.at, got, tc.want)
		}
	}
}

func TestCurrentInBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		if _, bubble := Current(); bubble == 0 {
			t.Error("Current() inside synctest.Test reports no bubble")
		}
	})
}
