package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/examples/fleetsim/paste"
	"github.com/retrykit/retrykit/examples/fleetsim/presets"
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
	preset   *presets.Preset  // -preset: a framework's default instead of fixed
	keep     keepFlag         // what the advisor keeps of the fixed policy
	gaveUp   gaveUpFlag       // how many jobs a policy may give up and pass
	maxGave  int              // gaveUp for the scenario's jobs
	svg      string
	breakers int // -breakers: clients, each with a circuit breaker; 0 for none
}

// clientBreaker is the breaker of each client with -breakers:
// sony/gobreaker v2's defaults, the most used Go breaker.
var clientBreaker = retrytest.Breaker{Threshold: 6, OpenFor: time.Minute, HalfOpensAfter: true, Probes: 1}

const usageHead = `usage: fleetsim [flags]

Fleetsim simulates a fleet of jobs retrying through an outage, seed 000's
scenario by default, and shows the load the endpoint receives after it
recovers under three policies: old, the incident's (5s doubling, jitter
[0s, 5s] added before a 1m cap, 200 attempts); fixed, set by the flags
(by default the seed's: 5s doubling, full jitter under a 1h cap, 13
attempts); and advised, the nearest policy to fixed that keeps every
bucket at or under 90% of -capacity, giving up on no more jobs than
-max-gave-up. A policy passes when no bucket receives more than -capacity
and no more jobs than -max-gave-up (by default 1% of them) give up. It ends
with the advised policy as Go, to paste; -preset simulates a job
framework's default policy instead of fixed.

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
	sc := scenario{flags: policyFlags{p: fixedPolicy, jitter: jitterFull, jitterMax: 5 * time.Second}, gaveUp: defaultGaveUp}
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
	var preset string
	fs.StringVar(&preset, "preset", "", "simulate a job framework's default policy instead of fixed, one of "+strings.Join(presets.Names(), ", ")+" (no advice)")
	fs.Var(&sc.keep, "keep", "advice: keep this comma-separated `list` of the fixed policy's dimensions as they are: some of base, factor, cap, jitter, attempts")
	fs.Var(&sc.gaveUp, "max-gave-up", "verdict and advice: the most `jobs` a policy may give up and pass: a number, or a share such as 5%")
	fs.StringVar(&sc.svg, "svg", "", "also write the loads side by side as an SVG to this `file`")
	fs.IntVar(&sc.breakers, "breakers", 0, "also split the jobs over `n` clients, each with a circuit breaker (sony/gobreaker's defaults), and compare the requests during the outage and the peak after it, with and without them")
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
	case sc.breakers < 0 || sc.breakers > sc.jobs:
		return fail(fmt.Errorf("-breakers %d, want 1 to -jobs (%d) clients, or 0 for none", sc.breakers, sc.jobs))
	case sc.breakers > 0 && sc.overload:
		return fail(errors.New("-breakers with -overload: an overloaded endpoint is not simulated with breakers"))
	}
	fixed, err := sc.flags.policy()
	if err != nil {
		return fail(err)
	}
	if preset != "" {
		p, ok := presets.Lookup(preset)
		if !ok {
			return fail(fmt.Errorf("-preset %q, want one of %q", preset, presets.Names()))
		}
		var set []string
		fs.Visit(func(f *flag.Flag) {
			if slices.Contains(fixedFlags, f.Name) {
				set = append(set, "-"+f.Name)
			}
		})
		if len(set) > 0 {
			return fail(fmt.Errorf("-preset %s replaces the fixed policy, which %s set; leave them out", preset, strings.Join(set, ", ")))
		}
		sc.preset = &p
	}
	sc.fixed = fixed
	sc.maxGave = sc.gaveUp.limit(sc.jobs)
	return sc, nil
}

// fixedFlags are the flags of the fixed policy and its advice, which a
// preset replaces.
var fixedFlags = []string{"base", "factor", "cap", "attempts", "jitter", "jitter-max", "keep"}

func (sc scenario) fleet(name string, decide retrytest.DecideFunc) policysim.Fleet {
	return policysim.Fleet{
		Name: name, Jobs: sc.jobs, Outage: sc.outage, AllAtOnce: sc.together, Decide: decide,
		Seed: sc.seed, Bucket: sc.bucket, Capacity: sc.capacity, Overload: sc.overload,
	}
}

func (sc scenario) print(w io.Writer) error {
	old, err := sc.fleet("old", oldPolicy.Decide).Simulate()
	if err != nil {
		return err
	}
	shown := []shownPolicy{{"old, the incident's policy", policyLadder(oldPolicy), old}}
	var advice *policysim.Advice
	var adviceErr error
	if p := sc.preset; p != nil {
		presetFleet := sc.fleet(p.Name, p.Decide)
		l, err := presetFleet.Simulate()
		if err != nil {
			return err
		}
		shown = append(shown, shownPolicy{p.Title + " (-preset " + p.Name + ")", presetLadder(*p), l})
		advice, adviceErr = policysim.Advise(presetFleet, p.Policy, policysim.Search{MaxGaveUp: sc.maxGave})
		if adviceErr != nil && !errors.Is(adviceErr, policysim.ErrNoAdvice) {
			return adviceErr
		}
		if adviceErr == nil && advice.Policies[0].Changed != 0 {
			best := &advice.Policies[0]
			shown = append(shown, shownPolicy{"advised", policyLadder(best.Policy), best.Load})
		}
	} else {
		fixedFleet := sc.fleet("fixed", sc.fixed.Decide)
		advice, adviceErr = policysim.Advise(fixedFleet, sc.fixed, policysim.Search{Keep: sc.keep.dims, MaxGaveUp: sc.maxGave})
		if adviceErr != nil && !errors.Is(adviceErr, policysim.ErrNoAdvice) {
			return adviceErr
		}
		fixed, err := fixedFleet.Simulate()
		if err != nil {
			return err
		}
		shown = append(shown, shownPolicy{"fixed", policyLadder(sc.fixed), fixed})
		if adviceErr == nil && advice.Policies[0].Changed != 0 {
			best := &advice.Policies[0]
			shown = append(shown, shownPolicy{"advised", policyLadder(best.Policy), best.Load})
		}
	}
	var b strings.Builder
	sc.intro(&b)
	for _, p := range shown {
		b.WriteByte('\n')
		b.WriteString(wrap(p.title + ": " + p.ladder.about + ":"))
		b.WriteString(p.ladder.table(sc.outage))
	}
	for _, p := range shown {
		b.WriteByte('\n')
		b.WriteString(p.load.Chart(sc.capacity))
	}
	b.WriteByte('\n')
	sc.compare(&b, shown)
	b.WriteByte('\n')
	if sc.preset != nil {
		err = sc.advisePreset(&b, advice, adviceErr)
	} else {
		sc.advise(&b, advice, adviceErr)
	}
	if err != nil {
		return err
	}
	if sc.breakers > 0 {
		if err := sc.withBreakers(&b, shown); err != nil {
			return err
		}
	}
	if sc.svg != "" {
		loads := make([]*policysim.Load, len(shown))
		for i, p := range shown {
			loads[i] = p.load
		}
		if err := writeSVG(sc.svg, loads...); err != nil {
			return err
		}
		fmt.Fprintf(&b, "\nwrote %s\n", sc.svg)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// shownPolicy is a policy the output shows, with its load.
type shownPolicy struct {
	title  string
	ladder ladder
	load   *policysim.Load
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
	if p := sc.preset; p != nil {
		l := presetLadder(*p)
		horizon := time.Duration(policysim.MaxBuckets) * sc.bucket
		b.WriteByte('\n')
		text := fmt.Sprintf("-preset %s: %s, modelled from the framework's source (package examples/fleetsim/presets). Its %d retries last at most %s (%.1f days); the simulation follows every job to its end, counting the load in %s buckets for up to %s (%.0f days) after recovery, policysim's %d buckets.",
			p.Name, p.Title, p.Attempts-1, schedfmt.Duration(l.span().Round(time.Second)), l.span().Hours()/24,
			schedfmt.Duration(sc.bucket), schedfmt.Duration(horizon), horizon.Hours()/24, policysim.MaxBuckets)
		if k := l.outlasts(sc.outage); k > 0 {
			text += fmt.Sprintf(" Its table marks attempt %d, the first that can come after the %s outage for a job that fails as it starts.", k, schedfmt.Duration(sc.outage))
		}
		b.WriteString(wrap(text))
	}
}

// advisePreset writes the advice for a preset: the geometric policies
// nearest the framework's default, the best written as the framework's
// own hook to paste.
func (sc scenario) advisePreset(b *strings.Builder, advice *policysim.Advice, err error) error {
	p := sc.preset
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "policysim: Advise: ")
		b.WriteString(wrap("advice: none: " + strings.ReplaceAll(msg, "the base policy", p.Title) + "."))
		b.WriteString("\nTry a larger -max-gave-up.\n")
		return nil
	}
	gaveUp := "give up on at most " + sc.gaveUp.describe(sc.jobs)
	limits := fmt.Sprintf("every %s at or under %d requests (90%% of %d)", bucketName(sc.bucket), advice.Peak, sc.capacity)
	if advice.Policies[0].Changed == 0 {
		b.WriteString(wrap("advice: no change needed: " + p.Title + " keeps " + limits + " and gives up on " +
			schedfmt.Count(advice.Base.Load.GaveUp, "job") + ", within " + sc.gaveUp.allowed(sc.jobs) + "."))
		return nil
	}
	b.WriteString(wrap(fmt.Sprintf("advice: the policies of First, Growth and Cap nearest %s (%s) that keep %s and %s, best first (%d simulations):",
		p.Title, advice.Nearest, limits, gaveUp, advice.Simulations)))
	for i, a := range advice.Policies {
		l := a.Load
		item := wrapAt(fmt.Sprintf("%s: peak %d, drained after %s, %d gave up", a.Policy,
			l.Peak, schedfmt.Duration(l.DrainTime.Round(time.Second)), l.GaveUp), 73)
		// The item in a hanging indent: "  1. " then five spaces.
		fmt.Fprintf(b, "  %d. %s", i+1, strings.ReplaceAll(strings.TrimSuffix(item, "\n"), "\n", "\n     ")+"\n")
	}
	code, err := p.Paste(advice.Policies[0].Policy)
	if err != nil {
		return err
	}
	fmt.Fprintf(b, "\n%s", wrap("advised, to paste as "+p.Hook+":"))
	b.WriteString(code)
	return nil
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
func wrap(text string) string { return wrapAt(text, 78) }

// wrapAt breaks text into lines of at most width columns, each ending in
// "\n".
func wrapAt(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(w) > width:
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

// compare prints the loads' figures in columns, then a verdict for each.
func (sc scenario) compare(b *strings.Builder, shown []shownPolicy) {
	header := []string{""}
	for _, p := range shown {
		header = append(header, p.load.Fleet.Name)
	}
	rows := [][]string{header}
	row := func(label string, cell func(*policysim.Load) string) {
		r := []string{label}
		for _, p := range shown {
			r = append(r, cell(p.load))
		}
		rows = append(rows, r)
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
	writeTable(b, rows)
	b.WriteByte('\n')
	b.WriteString(wrap(fmt.Sprintf("verdict, against %d requests per %s and at most %s given up:",
		sc.capacity, bucketName(sc.bucket), sc.gaveUp.describe(sc.jobs))))
	for _, p := range shown {
		verdict := "PASS"
		if policysim.CheckPeakAtMost(p.load, sc.capacity) != nil || policysim.CheckGaveUpAtMost(p.load, sc.maxGave) != nil {
			verdict = "FAIL"
		}
		for i, part := range sc.explain(p.ladder, p.load) {
			if i == 0 {
				fmt.Fprintf(b, "  %-7s  %s  %s\n", p.load.Fleet.Name, verdict, part)
			} else {
				fmt.Fprintf(b, "                 %s\n", part)
			}
		}
	}
}

func peak(l *policysim.Load) string {
	if l.Peak == 0 {
		return "none"
	}
	return fmt.Sprintf("%d in [%s, %s)", l.Peak,
		schedfmt.Duration(time.Duration(l.PeakBucket)*l.Fleet.Bucket), schedfmt.Duration(time.Duration(l.PeakBucket+1)*l.Fleet.Bucket))
}

// explain says in words what the verdict on p's load rests on, and why
// it fails, in lines short enough to follow the verdict: the peak, then
// the jobs given up, a failing count first.
func (sc scenario) explain(p ladder, l *policysim.Load) []string {
	capacity := sc.capacity
	var peak []string
	switch {
	case l.Peak == 0:
		peak = append(peak, "no request reached the endpoint after recovery")
	case l.Peak > capacity:
		peak = append(peak, fmt.Sprintf("%d requests in one %s, %.1fx what the endpoint absorbs",
			l.Peak, bucketName(l.Fleet.Bucket), float64(l.Peak)/float64(capacity)))
		peak = append(peak, whyPeak(p, l)...)
	default:
		peak = append(peak, fmt.Sprintf("at most %d requests per %s, spread over %s",
			l.Peak, bucketName(l.Fleet.Bucket), schedfmt.Duration(l.DrainTime.Round(time.Second))))
	}
	gave := sc.whyGaveUp(p, l)
	if l.GaveUp > sc.maxGave && l.Peak <= capacity {
		return append(gave, peak...)
	}
	return append(peak, gave...)
}

// whyGaveUp says how many of the jobs gave up, against the limit, and,
// when there are too many, when they gave up and why.
func (sc scenario) whyGaveUp(p ladder, l *policysim.Load) []string {
	if l.GaveUp == 0 {
		return nil
	}
	share := fmt.Sprintf("%.0f%%", 100*float64(l.GaveUp)/float64(l.Fleet.Jobs))
	if share == "0%" {
		share = "under 1%"
	}
	gave := fmt.Sprintf("%s (%s) gave up", schedfmt.Count(l.GaveUp, "job"), share)
	if l.GaveUp <= sc.maxGave {
		return wrapParts(gave+", within "+sc.gaveUp.allowed(l.Fleet.Jobs), nil)
	}
	gave += ", over " + sc.gaveUp.allowed(l.Fleet.Jobs) + ","
	var parts []string
	if n := l.GaveUpInOutage; n > 0 {
		before := "all before the endpoint recovered"
		if n < l.GaveUp {
			before = fmt.Sprintf("%d before the endpoint recovered", n)
		}
		if mean := meanSpan(p); mean < sc.outage {
			before += ": " + strconv.Itoa(p.attempts) + " attempts last " + schedfmt.Duration(mean.Round(time.Minute)) +
				" on average, less than the " + schedfmt.Duration(sc.outage) + " outage"
		} else {
			before += ": some jobs' attempts end before the " + schedfmt.Duration(sc.outage) + " outage does"
		}
		parts = append(parts, before)
	}
	if n := l.GaveUp - l.GaveUpInOutage; n > 0 {
		after := "all"
		if n < l.GaveUp {
			after = strconv.Itoa(n)
		}
		parts = append(parts, fmt.Sprintf("%s after recovery, failed in overloaded %ss", after, bucketName(l.Fleet.Bucket)))
	}
	return wrapParts(gave, parts)
}

// wrapParts joins head and parts, the parts with semicolons, into lines of the verdict's
// width, 62 columns.
func wrapParts(head string, parts []string) []string {
	text := head
	for i, p := range parts {
		if i > 0 {
			text += ";"
		}
		text += " " + p
	}
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > 62 {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// whyPeak says why p's retries crowd a bucket: from some attempt on every
// delay is the same (the jobs retry in step), or the ladder has many rungs
// below its cap (each sends some of its jobs back at once).
func whyPeak(p ladder, l *policysim.Load) []string {
	ws := p.windows
	if n := len(ws); n > 1 && ws[n-1].Min == ws[n-1].Max {
		from := n - 1
		for from > 0 && ws[from-1] == ws[n-1] {
			from--
		}
		return []string{fmt.Sprintf("every delay from attempt %d on is exactly %s: the jobs", from+2, schedfmt.Duration(ws[n-1].Max)),
			"still retrying at recovery retry in step"}
	}
	var rungs []time.Duration
	for _, w := range ws {
		if len(rungs) == 0 || rungs[len(rungs)-1] != w.Max {
			rungs = append(rungs, w.Max)
		}
	}
	if len(rungs) < 2 {
		return nil
	}
	top := "its " + schedfmt.Duration(rungs[len(rungs)-1]) + " cap"
	if p.cap == 0 || rungs[len(rungs)-1] < p.cap {
		top = schedfmt.Duration(rungs[len(rungs)-1])
	}
	when := "the same " + bucketName(l.Fleet.Bucket)
	if l.PeakBucket == 0 {
		when = "the first " + bucketName(l.Fleet.Bucket)
	}
	return []string{fmt.Sprintf("its ladder has %d rungs from %s to %s, and each", len(rungs), schedfmt.Duration(rungs[0]), top),
		"sends some of its jobs back in " + when}
}

// meanSpan is how long p's attempts last on average, from the first to
// the last: the sum of the middles of its windows.
func meanSpan(p ladder) time.Duration {
	var sum time.Duration
	for _, w := range p.windows {
		sum = addSat(sum, w.Min/2+w.Max/2)
	}
	return sum
}

// advise prints the advice: the policies nearest the fixed one that pass,
// as the flags that set them, and the best as Go, last, to paste.
func (sc scenario) advise(b *strings.Builder, advice *policysim.Advice, err error) {
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "policysim: Advise: ")
		b.WriteString(wrap("advice: none: " + strings.ReplaceAll(msg, "the base policy", "fixed") + "."))
		b.WriteString("\nTry -keep with fewer dimensions, or a larger -max-gave-up.\n")
		return
	}
	gaveUp := "give up on at most " + sc.gaveUp.describe(sc.jobs)
	limits := fmt.Sprintf("every %s at or under %d requests (90%% of %d)", bucketName(sc.bucket), advice.Peak, sc.capacity)
	if advice.Policies[0].Changed == 0 {
		b.WriteString(wrap("advice: no change needed: fixed keeps " + limits + " and gives up on " + schedfmt.Count(advice.Base.Load.GaveUp, "job") +
			", within " + sc.gaveUp.allowed(sc.jobs) + "."))
		fmt.Fprintf(b, "\n%s", wrap("fixed, to paste: "+sc.fixed.String()+":"))
		b.WriteString(paste.Literal(sc.fixed))
		return
	}
	b.WriteString(wrap(fmt.Sprintf("advice: the policies nearest fixed that keep %s and %s, as flags for fixed, best first (%d simulations):",
		limits, gaveUp, advice.Simulations)))
	labels := make([]string, len(advice.Policies))
	width := 0
	for i, p := range advice.Policies {
		labels[i] = flagsOf(p.Policy, p.Changed)
		width = max(width, len(labels[i]))
	}
	for i, p := range advice.Policies {
		l := p.Load
		fmt.Fprintf(b, "  %d. %-*s  peak %d, drained after %s, %d gave up\n", i+1, width, labels[i],
			l.Peak, schedfmt.Duration(l.DrainTime.Round(time.Second)), l.GaveUp)
	}
	best := advice.Policies[0].Policy
	fmt.Fprintf(b, "\n%s", wrap("advised, to paste: "+best.String()+":"))
	b.WriteString(paste.Literal(best))
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
