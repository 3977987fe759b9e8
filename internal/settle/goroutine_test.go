package settle_test

import (
	"net"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/retrykit/retrykit/internal/goheader"
	"github.com/retrykit/retrykit/internal/settle"
)

const dump = `goroutine 1 [running]:
main.main()
	/tmp/dump.go:4 +0x126

goroutine 7 [sync.Mutex.Lock, 3 minutes]:
internal/sync.runtime_SemacquireMutex(0x0?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/sema.go:95 +0x25
sync.(*Mutex).Lock(...)
	/usr/local/go/src/sync/mutex.go:46
main.main.func1()
	/tmp/dump.go:3 +0x2d
created by main.main in goroutine 1
	/tmp/dump.go:3 +0x85

goroutine 8 [sleep]:
time.Sleep(0x34630b8a000)
	/usr/local/go/src/runtime/time.go:363 +0x165
created by main.main in goroutine 1
	/tmp/dump.go:3 +0x91

goroutine 19 [chan receive (durable), synctest bubble 2]:
main.worker()
	/tmp/dump.go:9 +0x19
created by main.start in goroutine 7
	/tmp/dump.go:12 +0xe5

goroutine 21 [IO wait, locked to thread]:
internal/poll.runtime_pollWait(0x7f, 0x72)
	/usr/local/go/src/runtime/netpoll.go:351 +0x85
internal/poll.(*pollDesc).wait(0xc0000, 0x72, 0x0)
	/usr/local/go/src/internal/poll/fd_poll_runtime.go:84 +0x27
internal/poll.(*pollDesc).waitRead(...)
	/usr/local/go/src/internal/poll/fd_poll_runtime.go:89
created by net/http.(*Server).Serve in goroutine 19
	/usr/local/go/src/net/http/server.go:3454 +0x485

goroutine 22 [IO wait]:
internal/poll.(*pollDesc).waitWrite(...)
	/usr/local/go/src/internal/poll/fd_poll_runtime.go:94
created by main.dial in goroutine 1
	/tmp/dump.go:20 +0x1

goroutine 23 [select (no cases) (durable), 12 minutes, synctest bubble 2 labels:{"k": "v, x"}]:
main.forever()
	/tmp/dump.go:30 +0x1

goroutine 25 [semacquire]:
runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)
	/usr/local/go/src/runtime/proc.go:460 +0xce
runtime.goparkunlock(...)
	/usr/local/go/src/runtime/proc.go:466
runtime.semacquire1(0xd1b2c4, 0x0, 0x0, 0x0, 0x12)
	/usr/local/go/src/runtime/sema.go:192 +0x225
runtime.semacquire(...)
	/usr/local/go/src/runtime/sema.go:143
runtime.gcStart({0x0?, 0x0?, 0x0?})
	/usr/local/go/src/runtime/mgc.go:792 +0x11a
runtime.mallocgc(0x20, 0x0, 0x0)
	/usr/local/go/src/runtime/malloc.go:1170 +0x4e5
main.alloc()
	/tmp/dump.go:50 +0x1
created by main.main in goroutine 1
	/tmp/dump.go:51 +0x1

goroutine 26 [semacquire]:
internal/poll.runtime_Semacquire(0xc000100000?)
	/usr/local/go/src/runtime/sema.go:76 +0x25
internal/poll.(*fdMutex).rwlock(0xc000100000, 0x1)
	/usr/local/go/src/internal/poll/fd_mutex.go:154 +0xc5
main.read()
	/tmp/dump.go:60 +0x1
created by main.main in goroutine 1
	/tmp/dump.go:61 +0x1

goroutine 24 [something new]:
main.novel()
	/tmp/dump.go:40 +0x1
created by main.main in goroutine 1
	/tmp/dump.go:41 +0x1
`

func TestParse(t *testing.T) {
	type row struct {
		id, parent int64
		state      string
		bubble     int64
		class      settle.Class
	}
	want := []row{
		{1, 0, "running", 0, settle.Busy},
		{7, 1, "sync.Mutex.Lock", 0, settle.Idle},
		{8, 1, "sleep", 0, settle.Busy},
		{19, 7, "chan receive", 2, settle.Idle},
		{21, 19, "IO wait", 0, settle.IOWait},
		{22, 1, "IO wait", 0, settle.Busy},
		{23, 0, "select (no cases)", 2, settle.Idle},
		{25, 1, "semacquire", 0, settle.Busy},
		{26, 1, "semacquire", 0, settle.Idle},
		{24, 1, "something new", 0, settle.Unrecognized},
	}
	gs := settle.Parse([]byte(dump))
	if len(gs) != len(want) {
		t.Fatalf("Parse(dump) = %d goroutines, want %d", len(gs), len(want))
	}
	for i, g := range gs {
		got := row{g.ID, g.Parent, g.State, g.Bubble, g.Class()}
		if got != want[i] {
			t.Errorf("Parse(dump)[%d] = %+v, want %+v", i, got, want[i])
		}
		if !strings.HasPrefix(string(g.Text), "goroutine ") || strings.Contains(string(g.Text), "\n\n") {
			t.Errorf("Parse(dump)[%d].Text = %q, want one whole block", i, g.Text)
		}
	}
}

func TestClassString(t *testing.T) {
	for c, want := range map[settle.Class]string{settle.Busy: "busy", settle.Idle: "idle", settle.IOWait: "IO wait"} {
		if got := c.String(); got != want {
			t.Errorf("Class(%d).String() = %q, want %q", int(c), got, want)
		}
	}
}

// TestSnapshot parses a live dump: a goroutine blocked on a mutex and one
// waiting to accept a connection are found, with their parent.
func TestSnapshot(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var through int
	wg.Go(func() {
		mu.Lock()
		through++
		mu.Unlock()
	})
	wg.Go(func() { ln.Accept() })
	defer wg.Wait()
	defer ln.Close()
	defer mu.Unlock()
	self, bubble := goheader.Current()
	if bubble != 0 {
		t.Errorf("Current() reports bubble %d outside synctest", bubble)
	}
	var buf []byte
	for range 1000 {
		var d []byte
		buf, d = settle.Snapshot(buf)
		gs := settle.Parse(d)
		if gs[0].ID != self {
			t.Fatalf("Snapshot starts with goroutine %d, want the caller %d", gs[0].ID, self)
		}
		var mutex, accept bool
		for _, g := range gs {
			if g.Parent != self {
				continue
			}
			mutex = mutex || g.State == "sync.Mutex.Lock"
			accept = accept || g.Class() == settle.IOWait
		}
		if mutex && accept {
			return
		}
		runtime.Gosched()
	}
	t.Error("Snapshot never showed the mutex waiter and the accept loop")
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(dump))
	f.Add([]byte("goroutine x [y]:\n"))
	f.Add([]byte("goroutine 1 [\n\ncreated by  in goroutine \n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, g := range settle.Parse(b) {
			_ = g.Class()
			if g.ID < 0 && !strings.Contains(string(b), "-") {
				t.Errorf("negative id %d from input without '-'", g.ID)
			}
		}
	})
}

func TestFramesCreatedByHasFrame(t *testing.T) {
	gs := settle.Parse([]byte(dump))
	g := gs[1] // goroutine 7, waiting on a mutex
	want := []settle.Frame{
		{Function: "internal/sync.runtime_SemacquireMutex", Args: "0x0?, 0x0?, 0x0?", File: "/usr/local/go/src/runtime/sema.go", Line: 95},
		{Function: "sync.(*Mutex).Lock", Args: "...", File: "/usr/local/go/src/sync/mutex.go", Line: 46},
		{Function: "main.main.func1", Args: "", File: "/tmp/dump.go", Line: 3},
	}
	if got := g.Frames(); !slices.Equal(got, want) {
		t.Errorf("Frames() =\n%+v\nwant\n%+v", got, want)
	}
	if got, want := string(g.CreatedBy()), "main.main"; got != want {
		t.Errorf("CreatedBy() = %q, want %q", got, want)
	}
	if got := gs[0].CreatedBy(); got != nil {
		t.Errorf("CreatedBy() of the main goroutine = %q, want nil", got)
	}
	for fn, want := range map[string]bool{
		"sync.(*Mutex).Lock": true,
		"main.main.func1":    true,
		"main.main":          false, // only on the created-by line
		"sync.(*Mutex)":      false, // a prefix of a frame
		"Mutex).Lock":        false, // a suffix of a frame
	} {
		if got := g.HasFrame(fn); got != want {
			t.Errorf("HasFrame(%q) = %v, want %v", fn, got, want)
		}
	}
	if got, want := want[2].Site(), "dump.go:3"; got != want {
		t.Errorf("Site() = %q, want %q", got, want)
	}
}
