// Package verdict holds what the conformance entries report, shared by
// package conformance (HTTP clients, loops, policies, parsers, breakers)
// and the gRPC entry of the nested module grpcsuite: how a property or a
// case ended ([Verdict]), the [Result] of a property, the [Report] of a
// run with its printing, and the application of the waivers. Package
// conformance re-exports the types under their names; this package adds
// the functions an entry needs to build them, and the [Recorder] its
// properties run with.
package verdict

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Verdict is how a property, or one case of it, ended.
type Verdict int

// The verdicts of a property or a case. Only Failed and Stale fail the
// suite.
const (
	Passed  Verdict = iota // it saw what it needs to judge, and the code meets it
	Failed                 // the code breaks it; Result.Message says how
	Skipped                // there was nothing to judge; Message says what was missing
	Waived                 // it fails, and the user waived it (Waive); Message is their reason
	Stale                  // it was waived, but it holds: the waiver can go
)

// String returns "pass", "FAIL", "skip", "waived" or "STALE".
func (v Verdict) String() string {
	switch v {
	case Passed:
		return "pass"
	case Failed:
		return "FAIL"
	case Skipped:
		return "skip"
	case Waived:
		return "waived"
	case Stale:
		return "STALE"
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// Failing reports whether v fails the suite: Failed or Stale.
func Failing(v Verdict) bool { return v == Failed || v == Stale }

// Result is how one property ended, with its cases.
type Result struct {
	// Property is its name, as the subtest is named: "WaitsInWindows".
	Property string
	// Verdict is how it ended: Failed or Stale when any case is (or when
	// it failed outside its cases); else Waived when any case is; else
	// Passed when any case passed (or, without cases, it did); else
	// Skipped.
	Verdict Verdict
	// Message is the text of a failure outside the cases (a Spec the
	// property cannot use, an adapter that returned nil), why the whole
	// property was skipped, or the reason it was waived; "" otherwise.
	Message string
	// Cases are the property's cases in the order they ran, named as
	// their subtests are: "rfc850" for RetryAfterHTTPDate/rfc850. A
	// property that checks one thing has none.
	Cases []Case

	// own is how the property ended outside its cases: Passed, or the
	// Failed, Skipped, Waived or Stale that Message explains.
	own Verdict
}

// Case is how one case of a property ended.
type Case struct {
	// Name is the case's name, lowercase: "rfc850".
	Name string
	// Verdict is how it ended.
	Verdict Verdict
	// Message is the failure's text (with the schedule's table), or why
	// the case was skipped, waived, or its waiver is stale; "" for a pass.
	Message string
}

// Report is what a run of the suite found: every property of the shape
// that ran, in order, with the warnings the Spec drew.
type Report struct {
	// Shape is "policy", "loop", "client" or "parser"; "breaker" or
	// "breaker client" for a circuit breaker.
	Shape string
	// Results holds one Result per property that ran (with -run, those
	// selected).
	Results []Result
	// Warnings are the Spec's implausible values, each with its reason:
	// "Policy.First 1m is above Policy.Cap 30s: every wait is the cap".
	// The Test forms log them.
	Warnings []string
}

// Passed reports whether nothing failed and no waiver is stale.
func (r *Report) Passed() bool {
	for _, res := range r.Results {
		if Failing(res.Verdict) {
			return false
		}
	}
	return true
}

// Failed returns the names of the properties that failed, in order; a
// stale waiver is not among them (see [Report.Names]).
func (r *Report) Failed() []string {
	var out []string
	for _, res := range r.Results {
		if res.Verdict == Failed {
			out = append(out, res.Property)
		}
	}
	return out
}

// Names returns, in order, every case that ended with st, as
// "Property/case", and every property that did so outside its cases (or
// has none), as "Property" — the list a test pins when it documents what
// a library fails, down to the case.
func (r *Report) Names(st Verdict) []string {
	var out []string
	for _, res := range r.Results {
		if len(res.Cases) == 0 && res.Verdict == st || len(res.Cases) > 0 && res.Message != "" && res.own == st {
			out = append(out, res.Property)
		}
		for _, c := range res.Cases {
			if c.Verdict == st {
				out = append(out, res.Property+"/"+c.Name)
			}
		}
	}
	return out
}

// String prints the report: a table of the properties and how each ended
// (naming the cases that did not pass), then the text of each failure and
// stale waiver under its property and case.
//
//	conformance of the loop: 1 of 15 properties fails
//	    property               result
//	    WaitsOnTheClock        pass
//	  > AttemptCount           FAIL
//	    ...
func (r *Report) String() string {
	var b strings.Builder
	failed, stale := 0, 0
	for _, res := range r.Results {
		switch {
		case res.Verdict == Failed:
			failed++
		case res.Verdict == Stale:
			stale++
		}
	}
	fmt.Fprintf(&b, "conformance of the %s: ", r.Shape)
	switch {
	case failed == 0 && stale == 0:
		b.WriteString("every property holds or is skipped, saying why\n")
	default:
		var parts []string
		if failed > 0 {
			parts = append(parts, fmt.Sprintf("%d of %s %s", failed, schedfmt.Count(len(r.Results), "property"), verb(failed, "fails", "fail")))
		}
		if stale > 0 {
			parts = append(parts, fmt.Sprintf("%s %s stale", schedfmt.Count(stale, "waiver"), verb(stale, "is", "are")))
		}
		b.WriteString(strings.Join(parts, ", ") + "\n")
	}
	for _, w := range r.Warnings {
		b.WriteString("warning: " + w + "\n")
	}
	g := schedfmt.Grid{Header: []string{"property", "result"}, Indent: "  "}
	for _, res := range r.Results {
		g.Rows = append(g.Rows, schedfmt.GridRow{Cells: []string{res.Property, res.cell()}, Marked: Failing(res.Verdict)})
	}
	b.WriteString(g.String())
	for _, res := range r.Results {
		if Failing(res.Verdict) && res.Message != "" {
			fmt.Fprintf(&b, "\n--- %s\n%s\n", res.Property, strings.TrimRight(res.Message, "\n"))
		}
		for _, c := range res.Cases {
			if Failing(c.Verdict) {
				fmt.Fprintf(&b, "\n--- %s/%s\n%s\n", res.Property, c.Name, strings.TrimRight(c.Message, "\n"))
			}
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// cell is the result column of a property's row: its status, the cases
// that did not pass, and why it was skipped or waived.
func (res Result) cell() string {
	s := res.Verdict.String()
	var notes []string
	for _, st := range []Verdict{Failed, Stale, Waived, Skipped} {
		var names []string
		for _, c := range res.Cases {
			if c.Verdict == st {
				names = append(names, c.Name)
			}
		}
		if len(names) == 0 || st == Skipped && res.Verdict == Skipped && res.Message != "" {
			continue
		}
		note := strings.Join(names, ", ")
		if st != res.Verdict {
			note += " " + map[Verdict]string{Failed: "FAIL", Stale: "STALE", Waived: "waived", Skipped: "skipped"}[st]
		}
		notes = append(notes, note)
	}
	if len(notes) > 0 {
		s += ": " + strings.Join(notes, "; ")
	}
	if res.Message != "" && (res.Verdict == Skipped || res.Verdict == Waived) {
		s += ": " + schedfmt.OneLine(firstLine(res.Message))
	}
	return s
}

// Summary is the one line a Test form logs after the run: the counts, and
// every skip and waiver, each with its reason.
func Summary(r *Report) string {
	counts := map[Verdict]int{}
	var notes []string
	for _, res := range r.Results {
		counts[res.Verdict]++
		switch {
		case res.Verdict == Skipped && res.Message != "":
			notes = append(notes, res.Property+" skipped: "+schedfmt.OneLine(res.Message))
			continue
		case res.Verdict == Waived && res.Message != "":
			notes = append(notes, res.Property+" waived: "+schedfmt.OneLine(firstLine(res.Message)))
		}
		for _, c := range res.Cases {
			if c.Verdict == Skipped || c.Verdict == Waived {
				notes = append(notes, res.Property+"/"+c.Name+" "+map[Verdict]string{Skipped: "skipped", Waived: "waived"}[c.Verdict]+": "+schedfmt.OneLine(firstLine(c.Message)))
			}
		}
	}
	var parts []string
	for _, st := range []Verdict{Passed, Failed, Stale, Waived, Skipped} {
		if n := counts[st]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, st))
		}
	}
	s := fmt.Sprintf("conformance of the %s: %s", r.Shape, strings.Join(parts, ", "))
	if len(notes) > 0 {
		s += " — " + strings.Join(notes, "; ")
	}
	return s
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// JoinLines joins two texts with a newline; an empty a gives b.
func JoinLines(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

// New is the Result of property, from how it ended outside its cases
// (own) and its cases: its Verdict aggregated (see [Aggregate]).
func New(property string, own Verdict, message string, cases []Case) Result {
	res := Result{Property: property, own: own, Message: message, Cases: cases}
	res.Verdict = Aggregate(res)
	return res
}

// Own is how res ended outside its cases.
func Own(res Result) Verdict { return res.own }

// SetOwn sets how res ended outside its cases, and its Verdict from that
// and its cases.
func SetOwn(res *Result, own Verdict) {
	res.own = own
	res.Verdict = Aggregate(*res)
}

// Aggregate is the status of a property from its own outcome and its
// cases: failing first, then waived, then passed, then skipped.
func Aggregate(res Result) Verdict {
	all := []Verdict{res.own}
	for _, c := range res.Cases {
		all = append(all, c.Verdict)
	}
	switch {
	case slices.Contains(all, Failed):
		return Failed
	case slices.Contains(all, Stale):
		return Stale
	case res.own == Skipped:
		return Skipped
	case slices.Contains(all, Waived):
		return Waived
	case len(res.Cases) == 0:
		return res.own
	}
	for _, c := range res.Cases {
		if c.Verdict == Passed {
			return Passed
		}
	}
	return Skipped
}

// Waiver accepts a known failure, with the team's reason: of the property
// Name names ("RetryAfterHTTPDate": every case of it), or of one case
// ("RetryAfterHTTPDate/rfc850").
type Waiver struct{ Name, Reason string }

// property and kase split the waiver's name at its slash.
func (w Waiver) property() string { p, _, _ := strings.Cut(w.Name, "/"); return p }
func (w Waiver) kase() string     { _, k, _ := strings.Cut(w.Name, "/"); return k }

// CheckWaivers reports a waiver that names no property of props, names a
// case badly, or has no reason; pkg ("conformance") and shape ("loop")
// begin and word the error. A case it names is checked once the property
// has run (Apply).
func CheckWaivers(pkg, shape string, waivers []Waiver, props []string) error {
	for _, w := range waivers {
		if !slices.Contains(props, w.property()) {
			return fmt.Errorf("%s: Waive(%q): the %s has no such property, want one of %s", pkg, w.Name, shape, strings.Join(props, ", "))
		}
		if k := w.kase(); strings.Contains(w.Name, "/") && (k == "" || k != strings.ToLower(k) || strings.ContainsAny(k, " /")) {
			return fmt.Errorf("%s: Waive(%q): a case is named by one lowercase word after the property: \"RetryAfterHTTPDate/rfc850\"", pkg, w.Name)
		}
		if w.Reason == "" {
			return fmt.Errorf("%s: Waive(%q): no reason, want why the code may break it", pkg, w.Name)
		}
	}
	return nil
}

func find(waivers []Waiver, name string) (Waiver, bool) {
	for _, w := range waivers {
		if w.Name == name {
			return w, true
		}
	}
	return Waiver{}, false
}

// Apply applies the waivers to res, the outcome of a property: a failing
// case they waive is Waived, a passing one Stale; the property's own
// waiver covers every failing case no case waiver names, and its own
// failure, and is Stale when it covered nothing and the property passed.
// A case waiver naming a case the property did not run fails the
// property, listing the cases it has.
func Apply(waivers []Waiver, res Result) Result {
	pw, hasPW := find(waivers, res.Property)
	var covered []string
	for i := range res.Cases {
		cs := &res.Cases[i]
		if w, ok := find(waivers, res.Property+"/"+cs.Name); ok {
			switch cs.Verdict {
			case Failed:
				cs.Verdict, cs.Message = Waived, w.Reason+"\n"+cs.Message
			case Passed:
				cs.Verdict, cs.Message = Stale, fmt.Sprintf("waived (%s), but the case holds: remove the Waive", w.Reason)
			}
			continue
		}
		if hasPW && cs.Verdict == Failed {
			cs.Verdict, cs.Message = Waived, pw.Reason+"\n"+cs.Message
			covered = append(covered, cs.Name)
		}
	}
	for _, w := range waivers {
		if w.property() != res.Property || w.kase() == "" || res.own == Skipped {
			continue
		}
		if !slices.ContainsFunc(res.Cases, func(cs Case) bool { return cs.Name == w.kase() }) {
			names := make([]string, len(res.Cases))
			for i, cs := range res.Cases {
				names[i] = cs.Name
			}
			have := "it has no cases"
			if len(names) > 0 {
				have = "its cases are " + strings.Join(names, ", ")
			}
			res.own = Failed
			res.Message = JoinLines(res.Message, fmt.Sprintf("Waive(%q): %s has no case %q: %s", w.Name, res.Property, w.kase(), have))
		}
	}
	if hasPW {
		switch {
		case res.own == Failed:
			res.own, res.Message = Waived, pw.Reason+"\n"+res.Message
		case len(covered) > 0:
			res.Message = fmt.Sprintf("%s (covers %s)", pw.Reason, strings.Join(covered, ", "))
		case res.own == Passed && Aggregate(res) == Passed:
			res.own, res.Message = Stale, fmt.Sprintf("waived (%s), but the property holds: remove the Waive", pw.Reason)
		}
	}
	res.Verdict = Aggregate(res)
	return res
}

// ReportTo reports res through t, the property's subtest, and a subtest
// of t per case: a failure or a stale waiver as an error, a skip and a
// waived case as a skip with its reason, so that go test -v shows each.
func ReportTo(t *testing.T, res Result) {
	t.Helper()
	switch res.own {
	case Failed, Stale:
		t.Errorf("%s", res.Message)
	case Waived:
		t.Logf("waived: %s", res.Message)
	}
	for _, cs := range res.Cases {
		t.Run(cs.Name, func(t *testing.T) {
			t.Helper()
			switch cs.Verdict {
			case Failed, Stale:
				t.Errorf("%s", cs.Message)
			case Waived:
				t.Skip("waived: " + cs.Message)
			case Skipped:
				t.Skip(cs.Message)
			}
		})
	}
	if res.Verdict == Skipped && !t.Failed() {
		t.Skip(res.Message)
	}
	if res.Verdict == Waived && len(res.Cases) == 0 && !t.Failed() {
		t.Skip("waived: " + res.Message)
	}
}

// Recorder is the t of a property, or of one of its cases: it records what
// the property reports, so that an entry reports it afterwards, through
// the subtests, outside any testing/synctest bubble (a skip inside
// synctest.Test would be a pass) — or returns it, in a Check form.
// FailNow, Fatalf, Skip and Skipf end the goroutine running the property
// or case with runtime.Goexit, as a testing.T's do, so they must be called
// from it. It is a fakeclock.FixtureT.
type Recorder struct {
	mu       sync.Mutex
	msgs     []string
	failed   bool
	skipped  string
	cleanups []func()
	cases    []Case
	names    map[string]bool
}

// Helper does nothing: a failure's place is the entry's caller.
func (r *Recorder) Helper() {}

// Logf drops its text: the entries report verdicts, not logs.
func (r *Recorder) Logf(string, ...any) {}

// Errorf records a failure.
func (r *Recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = true
	r.msgs = append(r.msgs, fmt.Sprintf(format, args...))
}

// Fatalf records a failure and ends the goroutine.
func (r *Recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}

// FailNow marks a failure and ends the goroutine.
func (r *Recorder) FailNow() {
	r.mu.Lock()
	r.failed = true
	r.mu.Unlock()
	runtime.Goexit()
}

// Skip records why there was nothing to judge, and ends the goroutine.
func (r *Recorder) Skip(args ...any) {
	r.mu.Lock()
	r.skipped = fmt.Sprint(args...)
	r.mu.Unlock()
	runtime.Goexit()
}

// Skipf is Skip with a format.
func (r *Recorder) Skipf(format string, args ...any) { r.Skip(fmt.Sprintf(format, args...)) }

// Cleanup registers f to run after the property or case, last first.
func (r *Recorder) Cleanup(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cleanups = append(r.cleanups, f)
}

// Run runs f as the case named name, on a Recorder of its own: its
// failures and its skip are the case's, and its cleanups run when f
// returns. A name that is empty, repeated, or not one lowercase word is a
// bug of the suite: Run panics.
func (r *Recorder) Run(name string, f func(t *Recorder)) {
	r.mu.Lock()
	if r.names == nil {
		r.names = map[string]bool{}
	}
	if r.names[name] || name == "" || name != strings.ToLower(name) || strings.ContainsAny(name, " /") {
		r.mu.Unlock()
		panic(fmt.Sprintf("conformance: the case name %q is empty, repeated, or not one lowercase word: a bug of the suite", name))
	}
	r.names[name] = true
	r.mu.Unlock()
	child := &Recorder{}
	child.Exec(func() { f(child) })
	st, msg := child.Result()
	r.mu.Lock()
	r.cases = append(r.cases, Case{Name: name, Verdict: st, Message: msg})
	r.mu.Unlock()
}

// Exec runs f, then the cleanups, last registered first, each on a
// goroutine of its own, as the testing package does.
func (r *Recorder) Exec(f func()) {
	step := func(fn func()) {
		done := make(chan struct{})
		go func() {
			defer close(done)
			fn()
		}()
		<-done
	}
	step(f)
	for {
		r.mu.Lock()
		n := len(r.cleanups)
		if n == 0 {
			r.mu.Unlock()
			return
		}
		fn := r.cleanups[n-1]
		r.cleanups = r.cleanups[:n-1]
		r.mu.Unlock()
		step(fn)
	}
}

// Result is how the property (or case) ended on its own: Failed, then
// Skipped, then Passed.
func (r *Recorder) Result() (Verdict, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.failed:
		return Failed, strings.Join(r.msgs, "\n")
	case r.skipped != "":
		return Skipped, r.skipped
	}
	return Passed, ""
}

// Property is the Result of the property r ran, before any waiver: its
// own outcome and its cases.
func (r *Recorder) Property(name string) Result {
	st, msg := r.Result()
	r.mu.Lock()
	cases := r.cases
	r.mu.Unlock()
	return New(name, st, msg, cases)
}
