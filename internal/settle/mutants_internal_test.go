package settle

import (
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"runtime/metrics"
	"strings"
	"testing"
	"time"
)

// Tests of the package's unexported parts, aimed at the mutants of
// testdata/mutants.txt that the other tests let live: which goroutines run
// a test, which are lifelong, the look at the sockets, the waits that are
// not on the clock, and the scheduler's counters.

// testDump and benchDump are dumps of a test binary (go1.26, linux/amd64)
// while a test and a benchmark ran.
const testDump = `goroutine 19 [running]:
example.com/probe.TestX(0x2e977f9c488?)
	/tmp/dumpprobe/p_test.go:19 +0x3c
testing.tRunner(0x2e977f9c488, 0x593ee8)
	/usr/local/go/src/testing/testing.go:2036 +0xea
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:2101 +0x4c5

goroutine 1 [chan receive]:
testing.(*T).Run(0x2e977f9c248, {0x585fb5?, 0x0?}, 0x593ee8)
	/usr/local/go/src/testing/testing.go:2109 +0x4e5
testing.runTests.func1(0x2e977f9c248)
	/usr/local/go/src/testing/testing.go:2585 +0x3e
testing.tRunner(0x2e977f9c248, 0x2e977fdbc58)
	/usr/local/go/src/testing/testing.go:2036 +0xea
testing.runTests({0x589079, 0x11}, {0x589079, 0x11}, 0x2e977fa0048, {0x6cc2c0, 0x1, 0x1}, {0xc2bc022ae897eeca, 0x8bb2cdec30, ...})
	/usr/local/go/src/testing/testing.go:2583 +0x505
testing.(*M).Run(0x2e977f92140)
	/usr/local/go/src/testing/testing.go:2443 +0x6ac
main.main()
	_testmain.go:48 +0x9b

goroutine 30 [chan receive]:
example.com/probe.worker()
	/tmp/dumpprobe/p_test.go:30 +0x1d
created by example.com/probe.TestX in goroutine 19
	/tmp/dumpprobe/p_test.go:25 +0x5e
`

const benchDump = `goroutine 20 [running]:
example.com/probe.BenchmarkX(0x2e977f7c308)
	/tmp/dumpprobe/p_test.go:11 +0x45
testing.(*B).runN(0x2e977f7c308, 0x1)
	/usr/local/go/src/testing/benchmark.go:219 +0x190
testing.(*B).run1.func1()
	/usr/local/go/src/testing/benchmark.go:245 +0x48
created by testing.(*B).run1 in goroutine 1
	/usr/local/go/src/testing/benchmark.go:238 +0x90

goroutine 1 [chan receive]:
testing.(*B).run1(0x2e977f7c308)
	/usr/local/go/src/testing/benchmark.go:247 +0xa6
testing.(*B).Run(0x2e977f7c008, {0x5870d2?, 0x2e977fdbad0?}, 0x593ee0)
	/usr/local/go/src/testing/benchmark.go:867 +0x4de
testing.runBenchmarks.func1(0x2e977f7c008)
	/usr/local/go/src/testing/benchmark.go:726 +0x3e
testing.(*B).runN(0x2e977f7c008, 0x1)
	/usr/local/go/src/testing/benchmark.go:219 +0x190
testing.runBenchmarks({0x589079, 0x11}, 0x0?, {0x6cc2e0, 0x1, 0x589079?})
	/usr/local/go/src/testing/benchmark.go:735 +0x5f1
testing.(*M).Run(0x2e977f92140)
	/usr/local/go/src/testing/testing.go:2459 +0xa0e
main.main()
	_testmain.go:48 +0x9b
`

// TestRunsTest: a goroutine runs a test when testing.tRunner, or a
// benchmark's testing.(*B).runN, calls a function outside package testing;
// the main goroutine, where they call the testing package's own functions,
// runs none.
func TestRunsTest(t *testing.T) {
	type want struct {
		name string
		ok   bool
	}
	for _, c := range []struct {
		dump string
		want map[int64]want
	}{
		{testDump, map[int64]want{19: {"probe.TestX", true}, 1: {"", false}, 30: {"", false}}},
		{benchDump, map[int64]want{20: {"probe.BenchmarkX", true}, 1: {"", false}}},
	} {
		for _, g := range Parse([]byte(c.dump)) {
			name, ok := runsTest(g)
			if w := c.want[g.ID]; (want{name, ok}) != w {
				t.Errorf("runsTest(goroutine %d) = %q, %v; want %q, %v", g.ID, name, ok, w.name, w.ok)
			}
		}
	}
}

// TestLifelong: the goroutines started by os/signal, runtime/pprof,
// runtime/trace and the runtime are lifelong; those started by a package
// that only ends in such a name are not.
func TestLifelong(t *testing.T) {
	for by, want := range map[string]bool{
		"os/signal.Notify.func1.1":            true,
		"runtime/pprof.StartCPUProfile":       true,
		"runtime/trace.Start":                 true,
		"runtime.ensureSigM":                  true,
		"example.com/app/runtime.Start":       false,
		"example.com/pprof/runtime/pprof.Run": false,
		"example.com/app.Start":               false,
	} {
		block := "goroutine 40 [chan receive]:\nexample.com/app.loop()\n\t/src/app/loop.go:7 +0x1d\ncreated by " + by + " in goroutine 19\n\t/src/app/start.go:3 +0x5e\n"
		gs := Parse([]byte(block))
		if len(gs) != 1 {
			t.Fatalf("Parse(%q) = %d goroutines, want 1", block, len(gs))
		}
		if got := lifelong(gs[0]); got != want {
			t.Errorf("lifelong(created by %s) = %v, want %v", by, got, want)
		}
	}
}

// pollSockets looks at the sockets until socketsQuiet reports why it is
// not quiet, or, for a why of "", that it is quiet, for at most 2s of real
// time (the kernel moves loopback data at once; other descriptors of the
// process, such as the pipe go test reads the output from, may briefly hold
// bytes). It returns the signature of the last look.
func pollSockets(t *testing.T, why string) uint64 {
	t.Helper()
	for limit := time.Now().Add(2 * time.Second); ; runtime.Gosched() {
		quiet, got, sig := socketsQuiet()
		if quiet == (why == "") && got == why {
			return sig
		}
		if time.Now().After(limit) {
			t.Fatalf("socketsQuiet() = %v, %q; want %v, %q", quiet, got, why == "", why)
			return 0
		}
	}
}

// TestSocketsPipe: a pipe holding one unread byte is not quiet; once the
// byte is read it is.
func TestSocketsPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if _, err := w.Write([]byte{1}); err != nil {
		t.Fatal(err)
	}
	pollSockets(t, "a pipe holds 1 unread bytes")
	if _, err := r.Read(make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	pollSockets(t, "")
}

// TestSocketsListener: a connection waiting to be accepted is not quiet,
// and neither is the accepted end of a connection its client has closed
// (CLOSE_WAIT); once both are closed the sockets are quiet.
func TestSocketsListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c.Close() // the connection waits in the accept queue with no descriptor
	pollSockets(t, "a listener has 1 connections waiting to be accepted")
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	pollSockets(t, "a TCP socket is in state CLOSE_WAIT")
	s.Close()
	ln.Close()
	pollSockets(t, "")
}

// TestSocketsTCPBytes: one unread byte on a connection of the process is
// not quiet; once it is read the sockets are quiet again, with another
// signature, which stays the same while no data moves.
func TestSocketsTCPBytes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	before := pollSockets(t, "")
	if _, err := c.Write([]byte{1}); err != nil {
		t.Fatal(err)
	}
	pollSockets(t, "a TCP socket holds 1 unread bytes")
	if _, err := io.ReadFull(s, make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	after := pollSockets(t, "")
	if after == before {
		t.Errorf("socketsQuiet's signature %x is the same before and after a byte moved, want another", after)
	}
	if again := pollSockets(t, ""); again != after {
		t.Errorf("socketsQuiet's signature went from %x to %x while no data moved, want the same", after, again)
	}
}

// TestSocketsPeerOutsideProcess: a connection to a listener in another
// process is not quiet: data may arrive on it at any time. The listener is
// handed to a cat that waits on its input, and closed here.
func TestSocketsPeerOutsideProcess(t *testing.T) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat to hold the listener in another process:", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f, err := ln.(*net.TCPListener).File()
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	cmd := exec.Command(cat)
	cmd.ExtraFiles = []*os.File{f}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	f.Close()
	ln.Close() // the listener lives on in cat only
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pollSockets(t, "a TCP connection "+c.LocalAddr().String()+" -> "+c.RemoteAddr().String()+" has its peer outside the process (or not yet accepted)")
}

// elsewhereDump has, after the looking goroutine, a receive in the code
// under test called by a worker, a Sleep on a fake clock (receiver
// 0xc000123450), a receive shown with the runtime's frames (as under
// GOTRACEBACK=system), and the standard library's HTTP read loop. GOROOT/
// stands for the standard library's sources.
const elsewhereDump = `goroutine 1 [running]:
main.main()
	/src/app/main.go:4 +0x1

goroutine 10 [chan receive]:
example.com/app.receive(...)
	/src/app/wait.go:12
example.com/app.worker(0xc000010000)
	/src/app/worker.go:30 +0x2d
created by example.com/app.start in goroutine 1
	/src/app/worker.go:20 +0x85

goroutine 11 [select]:
example.com/fakeclock.(*Clock).Sleep(0xc000123450?, 0x3b9aca00)
	/src/fakeclock/clock.go:137 +0x9c
example.com/app.retry(...)
	/src/app/retry.go:7
created by example.com/app.start in goroutine 1
	/src/app/worker.go:21 +0x85

goroutine 12 [chan receive]:
runtime.gopark(0x0?, 0x0?, 0x0?, 0x0?, 0x0?)
	GOROOT/runtime/proc.go:460 +0xce
runtime.chanrecv(0xc000020000, 0x0, 0x1)
	GOROOT/runtime/chan.go:667 +0x473
runtime.chanrecv1(0xc000020000?, 0x0?)
	GOROOT/runtime/chan.go:509 +0x12
example.com/app.poll()
	/src/app/poll.go:9 +0x1d
created by example.com/app.start in goroutine 1
	/src/app/worker.go:22 +0x85

goroutine 13 [select]:
net/http.(*persistConn).readLoop(0xc000200000)
	GOROOT/net/http/transport.go:2395 +0xc1e
created by net/http.(*Transport).dialConn in goroutine 10
	GOROOT/net/http/transport.go:1944 +0x174c
`

// TestElsewhere: the waits in scope that nothing ties to the clock are
// reported, with their sites; a wait in the clock's own Sleep, one whose
// stack armed a timer of the clock, the standard library's, and those out
// of scope are not.
func TestElsewhere(t *testing.T) {
	if !strings.HasPrefix(goroot, "/") {
		t.Skip("built with -trimpath: the dump's standard library files have no GOROOT")
	}
	gs := Parse([]byte(strings.ReplaceAll(elsewhereDump, "GOROOT/", goroot)))
	in := []bool{false, true, true, true, true}
	if len(gs) != len(in) {
		t.Fatalf("Parse(elsewhereDump) = %d goroutines, want %d", len(gs), len(in))
	}
	const (
		receive = "goroutine 10 receives from a channel (at wait.go:12, in app.receive) and no function on its stack armed a timer of this clock"
		poll    = "goroutine 12 receives from a channel (at poll.go:9, in app.poll) and no function on its stack armed a timer of this clock"
		other   = "goroutine 11 waits in fakeclock.(*Clock).Sleep of another fake clock (at retry.go:7): no advance of this clock wakes it"
	)
	methods := "example.com/fakeclock.(*Clock)."
	for _, c := range []struct {
		name string
		w    ClockWaits
		in   []bool
		want []string
	}{
		{"this clock", ClockWaits{Methods: methods, Self: 0xc000123450}, in, []string{receive, poll}},
		{"another clock", ClockWaits{Methods: methods, Self: 0xc000999000}, in, []string{receive, other, poll}},
		{"the worker armed a timer", ClockWaits{Armers: map[string]bool{"example.com/app.worker": true}, Methods: methods, Self: 0xc000123450}, in, []string{poll}},
		{"the receiver out of scope", ClockWaits{Methods: methods, Self: 0xc000123450}, []bool{false, false, true, true, true}, []string{poll}},
	} {
		v := View{Goroutines: gs, Origins: make([]Origin, len(gs)), In: c.in}
		got := v.Elsewhere(c.w, nil)
		if len(got) != len(c.want) {
			t.Errorf("%s: Elsewhere =\n%s\nwant lines starting\n%s", c.name, strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			continue
		}
		for i := range got {
			if !strings.HasPrefix(got[i], c.want[i]) {
				t.Errorf("%s: Elsewhere line %d = %q, want it to start with %q", c.name, i, got[i], c.want[i])
			}
		}
	}
}

// TestStdTrimpath: built with -trimpath, the standard library is told by
// its import paths, whose first element has no dot; package main is the
// user's.
func TestStdTrimpath(t *testing.T) {
	saved := goroot
	goroot = ""
	defer func() { goroot = saved }()
	for fn, want := range map[string]bool{
		"net/http.(*persistConn).readLoop": true,
		"sync.(*Cond).Wait":                true,
		"main.worker":                      false,
		"main.(*server).loop":              false,
		"example.com/app.worker":           false,
		"gopkg.in/yaml.v3.parse":           false,
	} {
		if got := std(Frame{Function: fn, File: "x.go"}); got != want {
			t.Errorf("std(%s) under -trimpath = %v, want %v", fn, got, want)
		}
	}
}

// TestQuietSamples: the scheduler's counters the oracle reads are counters
// the runtime has, in goroutines.
func TestQuietSamples(t *testing.T) {
	kinds := make(map[string]metrics.ValueKind)
	for _, d := range metrics.All() {
		kinds[d.Name] = d.Kind
	}
	for _, s := range quietSamples() {
		if k, ok := kinds[s.Name]; !ok || k != metrics.KindUint64 {
			t.Errorf("runtime/metrics has no uint64 counter %q", s.Name)
		}
	}
}
