package seqrand

import (
	"flag"
	"math"
	mathrand "math/rand"
	randv2 "math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
)

// update rewrites the golden files in testdata: go test ./seqrand -run TestCalibrationFailurePanics -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// failCalibration makes the package's calibration one that failed, until
// the test ends: learned from lessons in which math/rand/v2's Uint64N(3)
// gets a first word it accepts (1, not 0), so calibration sees one draw
// where it wants two, as it would on a Go release that restructured the
// loop.
func failCalibration(t *testing.T) {
	t.Helper()
	ls := lessons()
	for i := range ls {
		if ls[i].what == "math/rand/v2 Uint64N(3)" {
			ls[i].words = []uint64{1}
		}
	}
	bad := learn(ls)
	if bad.err == nil {
		t.Fatal("calibration on a wrong probe did not fail")
	}
	real := calibrated
	calibrated = func() *calibration { return bad }
	sites.Clear()
	t.Cleanup(func() {
		calibrated = real
		sites.Clear()
	})
}

// panicOf returns what f panics with, or nil.
func panicOf(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}

// A failed calibration fails, loudly, the first draw that needs it: every
// draw by a method with a rejection loop panics, naming the Go release,
// what calibration saw and the ways out (pinned by a golden file, the Go
// release written GOVERSION).
func TestCalibrationFailurePanics(t *testing.T) {
	failCalibration(t)
	p := panicOf(func() { randv2.New(Min()).IntN(3) })
	got, ok := p.(string)
	if !ok {
		t.Fatalf("rand/v2 IntN(3) after a failed calibration panicked with %v (%T), want the message", p, p)
	}
	got = strings.ReplaceAll(got, runtime.Version(), "GOVERSION")
	const golden = "testdata/calibration-failure.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != strings.TrimSuffix(string(want), "\n") {
		t.Errorf("the panic reads\n%s\nwant (%s)\n%s", got, golden, want)
	}
	for _, tc := range []struct {
		method string
		f      func()
	}{
		{"math/rand/v2.(*Rand).IntN", func() { randv2.New(Max()).IntN(3) }},
		{"math/rand/v2.(*Rand).Uint64N", func() { randv2.New(Fixed(0.3)).Uint64N(1 << 40) }},
		{"math/rand/v2.(*Rand).Perm", func() { randv2.New(Min()).Perm(3) }},
		{"math/rand.(*Rand).Intn", func() { mathrand.New(Max()).Intn(10) }},
		{"math/rand.(*Rand).Int63n", func() { mathrand.New(Min()).Int63n(1e9) }},
		{"math/rand.(*Rand).Int31n", func() { mathrand.New(Min()).Int31n(4) }},
		{"math/rand.(*Rand).Shuffle", func() { mathrand.New(Min()).Shuffle(3, func(int, int) {}) }},
	} {
		p, _ := panicOf(tc.f).(string)
		prefix := "seqrand: cannot serve " + tc.method + ": "
		if !strings.HasPrefix(p, prefix) || !strings.Contains(p, runtime.Version()) || !strings.Contains(p, "Uint64N(3): 1 draws, want 2") {
			t.Errorf("%s after a failed calibration panicked with %q, want the message, starting %q", tc.method, p, prefix)
		}
	}
}

// A failed calibration leaves alone the draws that do not need it: they
// return what they return with calibration done.
func TestCalibrationFailureSparesOtherDraws(t *testing.T) {
	failCalibration(t)
	for _, tc := range []struct {
		call      string
		got, want any
	}{
		{"Max().Float64()", Max().Float64(), below1},
		{"Min().Float64()", Min().Float64(), 0.0},
		{"Max().Uint64()", Max().Uint64(), uint64(math.MaxUint64)},
		{"Max().Int63()", Max().Int63(), int64(math.MaxInt64)},
		{"rand/v2 Float64 at Max", randv2.New(Max()).Float64(), below1},
		{"rand/v2 Float64 at Min", randv2.New(Min()).Float64(), 0.0},
		{"rand/v2 Uint64 at Max", randv2.New(Max()).Uint64(), uint64(math.MaxUint64)},
		{"rand/v2 Float32 at Max", randv2.New(Max()).Float32(), float32(1 - 0x1p-24)},
		{"math/rand Float64 at Max", mathrand.New(Max()).Float64(), below1},
		{"math/rand Float64 at Fixed(0.25)", mathrand.New(Fixed(0.25)).Float64(), 0.25},
		{"math/rand Float32 at Max", mathrand.New(Max()).Float32(), float32(1 - 0x1p-24)},
		{"math/rand Int63 at Max", mathrand.New(Max()).Int63(), int64(math.MaxInt64)},
		{"math/rand Uint32 at Max", mathrand.New(Max()).Uint32(), uint32(math.MaxUint32)},
		{"math/rand ExpFloat64 at Min", mathrand.New(Min()).ExpFloat64(), 0.0},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v after a failed calibration, want %v", tc.call, tc.got, tc.want)
		}
	}
	if p := panicOf(func() { randv2.New(Seeded(1)).IntN(3) }); p != nil {
		t.Errorf("a Seeded source's IntN panicked after a failed calibration: %v", p)
	}
}

// A failed calibration fails a rejection loop whatever its name: a renamed
// uint64n or int31n, and a helper seqrand does not know under a method with
// a loop, panic too.
func TestCalibrationFailureRenamedLoop(t *testing.T) {
	failCalibration(t)
	defer Rename("math/rand/v2.uint64n", "math/rand.int31n")()
	for _, tc := range []struct {
		method string
		f      func()
	}{
		{"math/rand/v2.(*Rand).IntN", func() { randv2.New(Max()).IntN(3) }},
		{"math/rand.(*Rand).Shuffle", func() { mathrand.New(Min()).Shuffle(3, func(int, int) {}) }},
		{"math/rand/v2.(*Rand).Int64N", func() { siteOf(call{pkg: pkgV2, fn: "helper", line: 1, above: []string{"Int64N"}}) }},
	} {
		p, _ := panicOf(tc.f).(string)
		if prefix := "seqrand: cannot serve " + tc.method + ": "; !strings.HasPrefix(p, prefix) {
			t.Errorf("%s after a failed calibration panicked with %q, want the message, starting %q", tc.method, p, prefix)
		}
	}
}

// Calibration reports a line it sees in two roles: here math/rand/v2's
// Uint64N(3), told its first draw is the retry and its retry the first,
// disagrees with Uint64N(3<<32), which draws from the same lines.
func TestCalibrationReportsALineInTwoRoles(t *testing.T) {
	ls := lessons()
	for i := range ls {
		if ls[i].what == "math/rand/v2 Uint64N(3)" {
			ls[i].sites = []site{v2Retry, v2First}
		}
	}
	cal := learn(ls)
	if cal.err == nil || !strings.Contains(cal.err.Error(), "math/rand/v2 Uint64N(12884901888): draw 1 came from math/rand/v2.uint64n line") ||
		!strings.Contains(cal.err.Error(), "seen before in another role") {
		t.Errorf("calibration with a lesson's roles swapped reported %v, want the line seen in another role", cal.err)
	}
}
