package main

import (
	"flag"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// TestAdvisedPassesOtherSeeds runs the default run's advice, the flags
// its golden output lists first (TestDefaultOutput holds the output to
// it), with other seeds: the endpoint never receives more than its
// capacity, and at most 1% of the jobs give up.
// (policysim's TestAdviceHoldsOnOtherSeeds does the same for all three
// policies advised, with twelve seeds.)
func TestAdvisedPassesOtherSeeds(t *testing.T) {
	golden, err := os.ReadFile("testdata/default.golden")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(golden), "\n  1. ")
	advised, _, _ := strings.Cut(rest, "  peak ")
	advised = strings.TrimSpace(advised)
	if !ok || advised != "-base 15s -factor 4" {
		t.Fatalf("the default run's first advice is %q, want -base 15s -factor 4", advised)
	}
	for _, seed := range []string{"1", "3", "2026"} {
		sc, err := parse(append(strings.Fields(advised), "-seed", seed), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		l, err := sc.fleet("advised", sc.fixed.Decide).Simulate()
		if err != nil {
			t.Fatal(err)
		}
		base, err := sc.fleet("fixed", fixedPolicy.Decide).Simulate()
		if err != nil {
			t.Fatal(err)
		}
		if err := policysim.CheckPeakAtMost(l, sc.capacity); err != nil {
			t.Errorf("-seed %s: %v", seed, err)
		}
		if err := policysim.CheckGaveUpAtMost(l, 110); err != nil { // 1% of 11000
			t.Errorf("-seed %s: %v", seed, err)
		}
		t.Logf("%s -seed %s: peak %d, %d gave up (fixed: peak %d, %d gave up)", advised, seed, l.Peak, l.GaveUp, base.Peak, base.GaveUp)
	}
}

func TestGoLiteral(t *testing.T) {
	for _, tc := range []struct {
		p    retrytest.Policy
		want string
	}{
		{retrytest.Policy{First: 15 * time.Second, Growth: 4, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: 13},
			"retrytest.Policy{\n\tFirst:    15 * time.Second,\n\tGrowth:   4,\n\tCap:      time.Hour,\n\tJitter:   retrytest.FullJitter,\n\tAttempts: 13,\n}\n"},
		{oldPolicy,
			"retrytest.Policy{\n\tFirst:          5 * time.Second,\n\tGrowth:         2,\n\tCap:            time.Minute,\n\tJitter:         retrytest.AddedJitter,\n\tJitterAmount:   5 * time.Second,\n\tCapAfterJitter: true,\n\tAttempts:       200,\n}\n"},
		{retrytest.Policy{First: 2500 * time.Millisecond, Growth: 1.5, Cap: 90 * time.Minute, Jitter: retrytest.FactorJitter, JitterFactor: 0.5, FirstExponent: 1, OpenTop: true, Tolerance: time.Nanosecond},
			"retrytest.Policy{\n\tFirst:         2500 * time.Millisecond,\n\tGrowth:        1.5,\n\tCap:           90 * time.Minute,\n\tJitter:        retrytest.FactorJitter,\n\tJitterFactor:  0.5,\n\tFirstExponent: 1,\n\tOpenTop:       true,\n\tTolerance:     1,\n}\n"},
		{retrytest.Policy{}, "retrytest.Policy{\n}\n"},
	} {
		if got := goLiteral(tc.p); got != tc.want {
			t.Errorf("goLiteral(%v) =\n%s\nwant\n%s", tc.p, got, tc.want)
		}
	}
}

// TestAdviceFlags checks the values -keep and -max-gave-up take, and that
// they print as they were given.
func TestAdviceFlags(t *testing.T) {
	for _, tc := range []struct {
		keep   string
		dims   policysim.Dims
		gaveUp string
		limit  int
	}{
		{"", 0, "1%", 110},
		{"cap,attempts", policysim.DimCap | policysim.DimAttempts, "0", 0},
		{"jitter, base ,factor", policysim.DimFirst | policysim.DimGrowth | policysim.DimJitter, "12", 12},
		{"base,factor,cap,jitter,attempts", policysim.AllDims, "2.5%", 275},
	} {
		var k keepFlag
		var g gaveUpFlag
		fs := flag.NewFlagSet("", flag.ContinueOnError)
		fs.Var(&k, "keep", "")
		fs.Var(&g, "max-gave-up", "")
		if err := fs.Parse([]string{"-keep", tc.keep, "-max-gave-up", tc.gaveUp}); err != nil {
			t.Fatal(err)
		}
		if k.dims != tc.dims || g.limit(11000) != tc.limit || g.String() != tc.gaveUp {
			t.Errorf("-keep %q -max-gave-up %s: %v, limit %d, printed %q; want %v, %d", tc.keep, tc.gaveUp, k.dims, g.limit(11000), g.String(), tc.dims, tc.limit)
		}
		if again := (&keepFlag{}); again.Set(k.String()) != nil || again.dims != k.dims {
			t.Errorf("-keep %q prints as %q, which parses to %v", tc.keep, k.String(), again.dims)
		}
	}
}
