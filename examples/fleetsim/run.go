package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// scenario is everything the flags set.
type scenario struct {
	jobs     int
	outage   time.Duration
	together bool
	capacity int
	bucket   time.Duration
	overload bool
	seed     uint64
	flags    policyFlags      // the fixed policy's flags
	fixed    retrytest.Policy // the policy they describe
	svg      string
}

const usageHead = `usage: fleetsim [flags]

Fleetsim simulates a fleet of jobs retrying through an outage, seed 000's
scenario by default, and shows the load the endpoint receives after it
recovers under two policies: old, the incident's (5s doubling, jitter
[0s, 5s] added before a 1m cap, 200 attempts), and fixed, set by the flags
(by default the seed's: 5s doubling, full jitter under a 1h cap, 13
attempts).

flags:
`

// run is the command: it parses args, prints to stdout and returns the
// exit status. Usage and errors go to stderr.
func run(args []string, stdout, stderr io.Writer) int {
	sc, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	if err := sc.print(stdout); err != nil {
		fmt.Fprintf(stderr, "fleetsim: %v\n", err)
		return 1
	}
	return 0
}

func parse(args []string, stderr io.Writer) (scenario, error) {
	sc := scenario{flags: policyFlags{p: fixedPolicy, jitter: jitterFull, jitterMax: 5 * time.Second}}
	fs := flag.NewFlagSet("fleetsim", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageHead)
		fs.PrintDefaults()
	}
	fs.IntVar(&sc.jobs, "jobs", 11000, "number of jobs")
	fs.DurationVar(&sc.outage, "outage", 2*time.Hour, "how long the endpoint fails every request")
	fs.BoolVar(&sc.together, "together", false, "all jobs fail at the start of the outage (default: spread over it)")
	fs.IntVar(&sc.capacity, "capacity", 600, "requests per bucket the endpoint absorbs")
	fs.DurationVar(&sc.bucket, "bucket", time.Minute, "width of a load bucket")
	fs.BoolVar(&sc.overload, "overload", false, "the endpoint also fails every request of a bucket over -capacity")
	fs.Uint64Var(&sc.seed, "seed", 7, "random seed")
	f := &sc.flags
	fs.DurationVar(&f.p.First, "base", f.p.First, "fixed policy: first delay ceiling")
	fs.Float64Var(&f.p.Growth, "factor", f.p.Growth, "fixed policy: ceiling growth per attempt")
	fs.DurationVar(&f.p.Cap, "cap", f.p.Cap, "fixed policy: cap on the ceiling (0: none)")
	fs.IntVar(&f.p.Attempts, "attempts", f.p.Attempts, "fixed policy: attempts in all, the first call included")
	fs.StringVar(&f.jitter, "jitter", f.jitter, "fixed policy: jitter kind, one of "+strings.Join(jitterKinds, ", "))
	fs.DurationVar(&f.jitterMax, "jitter-max", f.jitterMax, "fixed policy: most jitter added, for -jitter added")
	fs.StringVar(&sc.svg, "svg", "", "also write the two loads side by side as an SVG to this `file`")
	if err := fs.Parse(args); err != nil {
		return sc, err
	}
	fail := func(err error) (scenario, error) {
		fmt.Fprintf(stderr, "fleetsim: %v\n", err)
		fs.Usage()
		return sc, err
	}
	switch {
	case fs.NArg() > 0:
		return fail(fmt.Errorf("unexpected argument %q, want only flags", fs.Arg(0)))
	case sc.jobs < 1 || sc.jobs > 10_000_000:
		return fail(fmt.Errorf("-jobs %d, want 1 to 10000000", sc.jobs))
	case sc.outage < 0:
		return fail(fmt.Errorf("-outage %s, want a duration >= 0s", schedfmt.Duration(sc.outage)))
	case sc.capacity < 1:
		return fail(fmt.Errorf("-capacity %d, want > 0", sc.capacity))
	case sc.bucket <= 0:
		return fail(fmt.Errorf("-bucket %s, want a duration > 0s", schedfmt.Duration(sc.bucket)))
	}
	fixed, err := sc.flags.policy()
	if err != nil {
		return fail(err)
	}
	sc.fixed = fixed
	return sc, nil
}

func (sc scenario) fleet(name string, p retrytest.Policy) policysim.Fleet {
	return policysim.Fleet{
		Name: name, Jobs: sc.jobs, Outage: sc.outage, AllAtOnce: sc.together, Decide: p.Decide,
		Seed: sc.seed, Bucket: sc.bucket, Capacity: sc.capacity, Overload: sc.overload,
	}
}

func (sc scenario) print(w io.Writer) error {
	old, err := sc.fleet("old", oldPolicy).Simulate()
	if err != nil {
		return err
	}
	fixed, err := sc.fleet("fixed", sc.fixed).Simulate()
	if err != nil {
		return err
	}
	var b strings.Builder
	sc.intro(&b)
	for _, p := range []struct {
		name   string
		policy retrytest.Policy
	}{{"old, the incident's policy", oldPolicy}, {"fixed", sc.fixed}} {
		b.WriteByte('\n')
		b.WriteString(wrap(p.name + ": " + p.policy.String() + ":"))
		b.WriteString(table(p.policy))
	}
	for _, l := range []*policysim.Load{old, fixed} {
		b.WriteByte('\n')
		b.WriteString(l.Chart(sc.capacity))
	}
	b.WriteByte('\n')
	sc.compare(&b, old, fixed)
	if sc.svg != "" {
		if err := writeSVG(sc.svg, old, fixed); err != nil {
			return err
		}
		fmt.Fprintf(&b, "\nwrote %s\n", sc.svg)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func (sc scenario) intro(b *strings.Builder) {
	when := "their first failures spread over it"
	if sc.together {
		when = "all of them failing at its start"
	}
	text := fmt.Sprintf("Seed 000, step 6: per-job correctness does not guarantee fleet behaviour. %d jobs retry through a %s outage, %s (seed %d).",
		sc.jobs, schedfmt.Duration(sc.outage), when, sc.seed)
	if sc.overload {
		text += fmt.Sprintf(" After recovery the endpoint absorbs %d requests per %s and fails every request of a %s that receives more.",
			sc.capacity, bucketName(sc.bucket), bucketName(sc.bucket))
	} else {
		text += fmt.Sprintf(" Every retry after recovery succeeds; the endpoint absorbs %d requests per %s.",
			sc.capacity, bucketName(sc.bucket))
	}
	b.WriteString(wrap(text))
}

// bucketName names a bucket width in words: "minute", or "1m30s bucket".
func bucketName(d time.Duration) string {
	switch d {
	case time.Second:
		return "second"
	case time.Minute:
		return "minute"
	case time.Hour:
		return "hour"
	}
	return schedfmt.Duration(d) + " bucket"
}

// wrap breaks text into lines of at most 78 columns, each ending in "\n".
func wrap(text string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(w) > 78:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	b.WriteByte('\n')
	return b.String()
}

// compare prints the two loads' figures in columns, then a verdict line
// for each.
func (sc scenario) compare(b *strings.Builder, old, fixed *policysim.Load) {
	loads := []*policysim.Load{old, fixed}
	rows := [][]string{{"", "old", "fixed"}}
	row := func(label string, cell func(*policysim.Load) string) {
		rows = append(rows, []string{label, cell(old), cell(fixed)})
	}
	row("peak", func(l *policysim.Load) string { return peak(l) })
	row(fmt.Sprintf("peak / capacity %d", sc.capacity), func(l *policysim.Load) string {
		return strconv.FormatFloat(float64(l.Peak)/float64(sc.capacity), 'f', 2, 64) + "x"
	})
	row("drained after", func(l *policysim.Load) string { return schedfmt.Duration(l.DrainTime.Round(time.Second)) })
	row("jobs recovered", func(l *policysim.Load) string { return strconv.Itoa(l.Recovered) })
	row("jobs given up", func(l *policysim.Load) string { return strconv.Itoa(l.GaveUp) })
	row("requests in all", func(l *policysim.Load) string { return strconv.Itoa(l.Requests) })
	if sc.overload {
		row("buckets overloaded", func(l *policysim.Load) string { return strconv.Itoa(l.Overloaded) })
	}
	var widths [2]int
	for _, r := range rows {
		widths[0], widths[1] = max(widths[0], len(r[0])), max(widths[1], len(r[1]))
	}
	for _, r := range rows {
		line := fmt.Sprintf("  %-*s  %-*s  %s", widths[0], r[0], widths[1], r[1], r[2])
		b.WriteString(strings.TrimRight(line, " "))
		b.WriteByte('\n')
	}
	fmt.Fprintf(b, "\nverdict, against %d requests per %s:\n", sc.capacity, bucketName(sc.bucket))
	failed := false
	for _, l := range loads {
		verdict := "PASS"
		if policysim.CheckPeakAtMost(l, sc.capacity) != nil {
			verdict, failed = "FAIL", l == fixed || failed
		}
		for i, part := range explain(l, sc.capacity) {
			if i == 0 {
				fmt.Fprintf(b, "  %-5s  %s  %s\n", l.Fleet.Name, verdict, part)
			} else {
				fmt.Fprintf(b, "               %s\n", part)
			}
		}
	}
	if failed {
		b.WriteString("\nTry another fixed policy with -base, -factor, -cap, -attempts and -jitter\n(go run ./examples/fleetsim -h).\n")
	}
}

func peak(l *policysim.Load) string {
	if l.Peak == 0 {
		return "none"
	}
	return fmt.Sprintf("%d in [%s, %s)", l.Peak,
		schedfmt.Duration(time.Duration(l.PeakBucket)*l.Fleet.Bucket), schedfmt.Duration(time.Duration(l.PeakBucket+1)*l.Fleet.Bucket))
}

// explain says in words what the verdict rests on, in lines short
// enough to follow the verdict.
func explain(l *policysim.Load, capacity int) []string {
	jobs := l.Fleet.Jobs
	var parts []string
	switch {
	case l.Peak == 0:
		parts = append(parts, "no request reached the endpoint after recovery")
	case l.Peak > capacity:
		parts = append(parts, fmt.Sprintf("%d requests in one %s, %.1fx what the endpoint absorbs",
			l.Peak, bucketName(l.Fleet.Bucket), float64(l.Peak)/float64(capacity)))
	default:
		parts = append(parts, fmt.Sprintf("at most %d requests per %s, spread over %s",
			l.Peak, bucketName(l.Fleet.Bucket), schedfmt.Duration(l.DrainTime.Round(time.Second))))
	}
	if l.GaveUp > 0 {
		parts = append(parts, fmt.Sprintf("%d jobs (%.0f%%) gave up", l.GaveUp, 100*float64(l.GaveUp)/float64(jobs)))
	}
	return parts
}

func writeSVG(path string, loads ...*policysim.Load) (err error) {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	return policysim.WriteSVG(f, loads...)
}
