package conformance

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// The properties of a pure policy: the suite calls it for every attempt
// and every outcome, with the random source of its choice.

// transientOutcome is a failure the policy must retry.
func (c *config) transientOutcome() retrytest.Outcome {
	if s := c.transientStatus(); s != 0 {
		return retrytest.Outcome{Status: s, Header: http.Header{}, Body: c.bodyFor(s), Now: fakeclock.Epoch}
	}
	return retrytest.Outcome{Err: connReset, Now: fakeclock.Epoch}
}

// decide calls the policy, turning a panic into a failure of t.
func (c *config) decideAt(t tb, failed int, o retrytest.Outcome, src *seqrand.Source) (d retrytest.Decision) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("the policy panicked deciding after attempt %d (%s): %v", failed+1, o, r)
		}
	}()
	return c.decide(failed, o, rand.New(src))
}

// policyDelays are the delays the policy decides after attempts 1, 2, …
// fail transiently, at src, until it gives up or has retried as often as
// the Policy allows (or 64 times without a limit).
func (c *config) policyDelays(t tb, src *seqrand.Source) (ds []time.Duration, stopped int) {
	t.Helper()
	n := c.spec.retries()
	if n < 0 {
		n = 64
	}
	for k := range n {
		d := c.decideAt(t, k, c.transientOutcome(), src)
		if !d.Retry {
			return ds, k + 1
		}
		ds = append(ds, d.Delay)
	}
	return ds, 0
}

// policyWindows needs, at each source, one decision to retry; every
// decided wait must hold to its window.
func policyWindows(t tb, c *config) {
	if c.spec.OwnRandom {
		c.sampleWindows(t)
		return
	}
	for _, s := range sources {
		t.Run(s.name, func(t tb) {
			src := s.src()
			ds, _ := c.policyDelays(t, src)
			if len(ds) == 0 {
				t.Skip(fmt.Sprintf("at the %s source the policy decided no retry, so there is no wait to judge (AttemptCount reports it)", src))
			}
			if err := retrytest.CheckDelaysWithin(retrytest.Waits(ds...), c.windows(len(ds))...); err != nil {
				t.Errorf("%sat the %s source: %v", diagnosisLine(c.diagnose(ds, src)), src, err)
			}
		})
	}
}

// policyJitter needs, at the Min and at the Max source, one decided wait
// below the cap: those must reach the edges of their windows.
func policyJitter(t tb, c *config) {
	for _, s := range edges {
		t.Run(s.name, func(t tb) {
			src := s.src()
			all, _ := c.policyDelays(t, src)
			ds := c.belowCap(all)
			if len(ds) == 0 {
				t.Skip(fmt.Sprintf("at the %s source the policy decided no retry below the cap, so there is no wait to judge (AttemptCount reports a missing retry)", src))
			}
			if wrong := c.edgeMisses(src, ds); wrong != "" {
				t.Errorf("%sat the %s source %s", diagnosisLine(c.diagnose(all, src)), src, strings.ReplaceAll(wrong, "Seams.Rand", "rng"))
			}
		})
	}
}

// policyCap needs the policy's decisions at the Max source to be its own
// (two runs decide alike) and to reach the retry at the cap.
func policyCap(t tb, c *config) {
	if c.spec.OwnRandom {
		c.sampleCap(t)
		return
	}
	k := c.capRetry()
	top := c.topSource(k)
	ds, _ := c.policyDelays(t, top)
	if again, _ := c.policyDelays(t, top); !slices.Equal(ds, again) {
		t.Skip("the policy decided differently twice at the Max source, so it draws from a source of its own and the top of its waits cannot be read (JitterFromSource reports it)")
	}
	want := c.ladderWindow(k).Max
	for i := k - 1; i < len(ds); i++ {
		if ds[i] < want-c.edgeSlack() {
			t.Errorf("at the %s source, retry %d waits %s, want %s: the ceiling is capped below the declared %s cap (a cap in the wrong unit?)",
				top, i+1, schedfmt.Duration(ds[i]), schedfmt.Duration(want), schedfmt.Duration(c.spec.Policy.Cap))
			return
		}
	}
	if len(ds) < k {
		t.Skip(fmt.Sprintf("the policy gave up after %s, before retry %d, where the ceiling reaches the cap (AttemptCount reports it)", schedfmt.Count(len(ds)+1, "attempt"), k))
	}
}

// policySpread needs seeded decisions at the cap; they must spread over
// the capped retry's window.
func policySpread(t tb, c *config) {
	// As for a loop, the decisions at the cap and after it, seeded, until
	// there are ten times as many as a loop gives (decisions are cheap).
	k, last := c.capRetry(), c.spec.retries()
	if last < 0 {
		last = k + 3
	}
	var samples []capWait
	for seed := uint64(0); seed < spreadRuns*10 && len(samples) < spreadRuns*10; seed++ {
		for j := k; j <= last; j++ {
			if d := c.decideAt(t, j-1, c.transientOutcome(), seqrand.Seeded(seed+1)); d.Retry {
				samples = append(samples, capWait{j, d.Delay})
			}
		}
	}
	spreadCheck(t, c, samples)
}

// policyAttempts needs an attempt limit: the policy must retry after
// every attempt but the last, and stop after the last.
func policyAttempts(t tb, c *config) {
	n := c.spec.retries()
	for k := range n {
		if d := c.decideAt(t, k, c.transientOutcome(), seqrand.Max()); !d.Retry {
			t.Errorf("the policy gives up after attempt %d (%s), want a retry: %s allow %s",
				k+1, d, schedfmt.Count(n+1, "attempt"), schedfmt.Count(n, "retry"))
			return
		}
	}
	if d := c.decideAt(t, n, c.transientOutcome(), seqrand.Max()); d.Retry {
		t.Errorf("the policy retries after attempt %d, the last of %d: it makes more attempts than declared (attempts counted as retries?)", n+1, n+1)
	}
}

// policyPermanent needs a Permanent status or a PermanentErr: each is a
// case, and the policy must stop on it.
func policyPermanent(t tb, c *config) {
	type kase struct {
		name string
		o    retrytest.Outcome
	}
	var cases []kase
	for _, s := range c.spec.Permanent {
		cases = append(cases, kase{strconv.Itoa(s), retrytest.Outcome{Status: s, Header: http.Header{}, Body: c.bodyFor(s), Now: fakeclock.Epoch}})
	}
	if c.spec.PermanentErr != nil {
		cases = append(cases, kase{"error", retrytest.Outcome{Err: c.spec.PermanentErr, Now: fakeclock.Epoch}})
	}
	for _, k := range cases {
		t.Run(k.name, func(t tb) {
			if d := c.decideAt(t, 0, k.o, seqrand.Max()); d.Retry {
				t.Errorf("%s: the policy retries after %s (%s), want to stop: it is permanent", k.o, schedfmt.Duration(d.Delay), d)
			}
		})
	}
}

// policyRetryable has a case per Retryable status: the policy must retry
// it after the wait the rule wants (by default the backoff's).
func policyRetryable(t tb, c *config) {
	b := c.firstWait(t)
	for _, s := range c.spec.Retryable {
		t.Run(strconv.Itoa(s), func(t tb) {
			o := retrytest.Outcome{Status: s, Header: http.Header{}, Body: c.bodyFor(s), Now: fakeclock.Epoch}
			c.policyFirstRetry(t, o, c.want(t, 1, o, 0, false), "it is a Retryable status", b)
		})
	}
}

// policyFirstRetry asks the policy after a first attempt that ended with
// o, and holds its decision to w.
func (c *config) policyFirstRetry(t tb, o retrytest.Outcome, w Want, why string, b base) {
	t.Helper()
	d := c.decideAt(t, 0, o, seqrand.Max())
	what := o.String()
	if o.Body != "" {
		what += fmt.Sprintf(" with body %q", schedfmt.Cut(o.Body, 60))
	}
	if w.Final && d.Retry {
		t.Errorf("%s: the policy retries after %s (%s), want to stop: %s%s", what, schedfmt.Duration(d.Delay), d, why, c.byRule())
		return
	}
	if !w.Final && !d.Retry {
		t.Errorf("%s: the policy stops (%s), want a retry", what, d)
		return
	}
	if bad := c.judge(seenOfDecision(d), question{want: w, why: why}, b); bad != "" {
		t.Errorf("%s: the policy %s", what, bad)
		return
	}
	if bad := c.fillsWindow(w, d.Delay, func() (time.Duration, bool) {
		d := c.decideAt(t, 0, o, seqrand.Max())
		return d.Delay, d.Retry
	}); bad != "" {
		t.Errorf("%s: the policy %s", what, bad)
	}
}

// connReset and ioTimeout are the network errors a policy sees as the
// transport reports them.
var (
	connReset = &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	ioTimeout = &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
)

// policyConnErrors has a case per network error, reset and timeout: the
// policy must retry it after the wait the rule wants, or stop where the
// rule says the code does not retry it.
func policyConnErrors(t tb, c *config) {
	b := c.firstWait(t)
	for _, e := range connErrors {
		t.Run(e.name, func(t tb) {
			o := retrytest.Outcome{Err: e.err, Now: fakeclock.Epoch}
			c.policyFirstRetry(t, o, c.want(t, 1, o, 0, false), "the Rule says the code does not retry it", b)
		})
	}
}

// connErrors are the network errors the suite fails attempts with: its
// cases of ConnectionErrors.
var connErrors = []struct {
	name, script, text string
	err                error
}{
	{"reset", "reset", "a connection reset", connReset},
	{"timeout", "timeout", "an I/O timeout", ioTimeout},
}

func policyHint(prop string) func(t tb, c *config) {
	return func(t tb, c *config) {
		b := c.firstWait(t)
		c.eachHint(t, prop, func(t tb, h hintCase) {
			a := c.hintAnswer(h)
			o := retrytest.Outcome{Status: a.status, Header: a.header, Body: c.bodyOf(a), Now: fakeclock.Epoch}
			d := c.decideAt(t, 0, o, seqrand.Max())
			q := c.hintQuestion(t, h, 0)
			if why := c.judge(seenOfDecision(d), q, b); why != "" {
				t.Errorf("%s Retry-After (%q) on %s: the policy %s", h.what, h.value, schedfmt.Status(h.status), why)
				return
			}
			if q.alt == nil {
				if why := c.fillsWindow(q.want, d.Delay, func() (time.Duration, bool) {
					d := c.decideAt(t, 0, o, seqrand.Max())
					return d.Delay, d.Retry
				}); why != "" {
					t.Errorf("%s Retry-After (%q) on %s: the policy %s", h.what, h.value, schedfmt.Status(h.status), why)
				}
			}
		})
	}
}

// notInPolicy skips a property a pure policy cannot show.
func notInPolicy(why string) func(*config) string {
	return func(*config) string { return "a pure policy " + why }
}

var errNilDecide = errors.New("conformance: decide is nil; pass the policy as a retrytest.DecideFunc, func(failed int, o retrytest.Outcome, rng *rand.Rand) retrytest.Decision")

// errNilAdapter is the error for a nil constructor of the code under test.
var errNilAdapter = errors.New("conformance: the constructor is nil; pass a func(conformance.Seams) that builds the code under test over the suite's seams")

// policySignals has a case per Spec.Signals entry: the policy must retry
// it after the wait the rule wants, or stop, as the entry says.
func policySignals(t tb, c *config) {
	b := c.firstWait(t)
	for _, v := range c.spec.Signals {
		t.Run(v.Name, func(t tb) {
			o := retrytest.Outcome{Status: v.Status, Header: v.Header.Clone(), Body: v.Body, Now: fakeclock.Epoch}
			c.policyFirstRetry(t, o, c.signalWant(t, v), "the body says the failure is final", b)
			if v.StatusDecides {
				return
			}
			control := retrytest.Outcome{Status: v.Status, Header: http.Header{}, Body: c.bodyFor(v.Status), Now: fakeclock.Epoch}
			c.controlDiffers(t, v, c.decideAt(t, 0, o, seqrand.Max()).Retry, c.decideAt(t, 0, control, seqrand.Max()).Retry, "")
		})
	}
}
