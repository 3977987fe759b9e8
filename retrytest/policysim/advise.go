package policysim

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// Defaults of [Advise].
const (
	// DefaultHeadroom is the share of Fleet.Capacity an advised policy
	// leaves free at its peak when Search.Peak is 0, so that the advice
	// still holds on other seeds.
	DefaultHeadroom = 0.10
	// DefaultResults is how many policies Advise returns at most when
	// Search.Results is 0.
	DefaultResults = 3
	// GaveUpAsBase, as Search.MaxGaveUp, lets an advised policy give up
	// on as many jobs as the base policy does, and no more. It is a
	// limit only when the base keeps its jobs: a base that abandons most
	// of them lets the advice abandon as many (seed 000's fix gave up on
	// 71% of its jobs after an outage that began with them all). Prefer a
	// share of the jobs, MaxGaveUp(jobs, DefaultMaxGaveUpShare).
	GaveUpAsBase = -1
)

// ErrNoAdvice is the error [Advise] wraps when no policy in its search
// meets the limits.
var ErrNoAdvice = errors.New("no policy meets the limits")

// Dims is a set of the dimensions of a [retrytest.Policy] that [Advise]
// searches.
type Dims uint8

// The dimensions of a policy.
const (
	// DimFirst is First, the ceiling of the first delay.
	DimFirst Dims = 1 << iota
	// DimGrowth is Growth, the factor from one ceiling to the next.
	DimGrowth
	// DimCap is Cap, the largest ceiling.
	DimCap
	// DimJitter is the jitter: Jitter, with JitterFactor, JitterAmount
	// and CapAfterJitter, which an advised jitter clears.
	DimJitter
	// DimAttempts is Attempts, the attempts in all.
	DimAttempts

	// AllDims is every dimension.
	AllDims = DimFirst | DimGrowth | DimCap | DimJitter | DimAttempts
)

var dimNames = [...]string{"First", "Growth", "Cap", "Jitter", "Attempts"}

// String names the dimensions as the fields of retrytest.Policy, joined
// by "+": "First+Growth", or "none".
func (d Dims) String() string {
	var names []string
	for i, name := range dimNames {
		if d&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	if rest := d &^ AllDims; rest != 0 {
		names = append(names, fmt.Sprintf("Dims(%#x)", uint8(rest)))
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "+")
}

// Len returns how many dimensions d holds.
func (d Dims) Len() int {
	n := 0
	for ; d != 0; d &= d - 1 {
		n++
	}
	return n
}

// Search says where [Advise] looks and what it accepts. The zero value
// searches every dimension for policies that keep 10% of the capacity
// free and give up on no job.
type Search struct {
	// Keep holds the dimensions an advised policy must keep as the base
	// policy has them; the others are searched.
	Keep Dims
	// Peak is the most requests an advised policy may send in any bucket
	// after recovery, at most Fleet.Capacity; 0 means Capacity less
	// DefaultHeadroom, rounded down (540 of 600).
	Peak int
	// MaxGaveUp is the most jobs an advised policy may give up on: 0
	// means none; GaveUpAsBase means as many as the base policy.
	MaxGaveUp int
	// Results is how many policies to return at most; 0 means
	// DefaultResults.
	Results int
}

// Advice is what [Advise] found: the base policy's load, the limits it
// held the search to, and the advised policies, best first.
type Advice struct {
	// Base is the base policy and its load.
	Base Advised
	// Nearest is the geometric policy the search is around: the base
	// itself, or for a base whose ceilings come from a table the nearest
	// policy of First, Growth and Cap (see Advise).
	Nearest retrytest.Policy
	// Peak and MaxGaveUp are the limits of the search, with the defaults
	// and GaveUpAsBase resolved.
	Peak, MaxGaveUp int
	// Policies are the advised policies, best first. When the base policy
	// meets the limits it is the only one, with nothing Changed.
	Policies []Advised
	// Simulations counts the fleet simulations the search ran; each
	// weighs one policy with every attempt count at once.
	Simulations int
}

// Advised is a policy that [Advise] found, with its load.
type Advised struct {
	// Policy is the advised policy: the base policy with the Changed
	// dimensions set otherwise.
	Policy retrytest.Policy
	// Changed holds the dimensions in which Policy differs from the base.
	Changed Dims
	// Load is the fleet's load under Policy, from Fleet.Simulate.
	Load *Load
}

// Advise searches the policies around base for the nearest ones under
// which fleet f's endpoint recovers without a storm: the peak at most
// s.Peak (by default 90% of f.Capacity, so that the advice holds on other
// seeds) and at most s.MaxGaveUp jobs given up. It returns the best few,
// ranked by how little they change base: fewest dimensions changed, then
// the shortest drain (to the bucket), then the lowest peak, then the
// fewest jobs given up. A policy that is worse than another on all four
// counts is left out. If base itself meets the limits, it is the only
// advice: no change needed.
//
// The search is a grid around base, dimension by dimension, except those
// in s.Keep: First at ¼, ½, 2, 3, 4, 6 and 12 times base's; Growth 1.5, 2,
// 2.5, 3 and 4; Cap at ¼, ½, 2, 3, 4 and 6 times base's (or ½, 1 and 2
// times the outage when base has none); full or equal jitter (never
// none: the jobs of a real outage are less spread than the model's); and
// every attempt count from 1 to twice base's (at least 20). It tries the
// policies that change one dimension, then two, and so on, and stops
// after the number of changes that gives enough advice. One simulation
// weighs a policy with every attempt count at once: a job needs the same
// attempts whatever the limit, and gives up if it needs more. Without
// Overload, the Load is the same as Fleet.Simulate's; with it, a policy
// whose peak stays under the capacity never overloads a bucket, so the
// same search holds. Every advised policy is simulated again with
// Fleet.Simulate, whose Load it carries.
//
// A base whose ceilings come from a table (Policy.Ceilings) is simulated
// as it is, and the search is around the geometric policy nearest it
// (Advice.Nearest): First its first ceiling, Growth the mean ratio of its
// rising ceilings, Cap its last; a table that starts at 0 or falls has no
// such policy, and Advise says so.
//
// f is the fleet to advise for; its Decide is ignored (the candidates
// decide) and its Capacity is required. base must be valid, with First >
// 0 (or Ceilings) and Attempts > 0. Advise returns an error for bad input, and an error
// wrapping [ErrNoAdvice], naming the nearest miss, when no policy in the
// search meets the limits. It is deterministic.
func Advise(f Fleet, base retrytest.Policy, s Search) (*Advice, error) {
	a, err := newAdvisor(f, base, s)
	if err != nil {
		return nil, fmt.Errorf("policysim: Advise: %w", err)
	}
	advice, err := a.run()
	if err != nil {
		return nil, fmt.Errorf("policysim: Advise: %w", err)
	}
	return advice, nil
}

// advisor is one run of Advise.
type advisor struct {
	f        Fleet // normalized
	base     retrytest.Policy
	centre   retrytest.Policy // the geometric policy the search is around
	keep     Dims
	peak     int
	maxGave  int
	results  int
	amax     int // the most attempts weighed
	baseLoad *Load
	jobs     *jobStarts
	sims     int
	miss     *candidate // the nearest miss so far
}

func newAdvisor(f Fleet, base retrytest.Policy, s Search) (*advisor, error) {
	if err := base.Validate(); err != nil {
		return nil, fmt.Errorf("base: %w", err)
	}
	centre, err := geometric(base)
	if err != nil {
		return nil, err
	}
	switch {
	case centre.First <= 0:
		return nil, fmt.Errorf("base First = %s, want a delay > 0s to scale", schedfmt.Duration(base.First))
	case base.Attempts <= 0:
		return nil, errors.New("base Attempts = 0 (no limit), want the attempts the loop makes, to weigh the jobs that give up")
	}
	f.Decide = base.Decide
	if err := f.normalize(); err != nil {
		return nil, err
	}
	switch {
	case f.Capacity == 0:
		return nil, errors.New("Fleet.Capacity = 0, want the requests per bucket the endpoint absorbs")
	case s.Keep&^AllDims != 0:
		return nil, fmt.Errorf("Search.Keep = %v, want a set of the Dim constants", s.Keep)
	case s.Peak < 0 || s.Peak > f.Capacity:
		return nil, fmt.Errorf("Search.Peak = %d, want 1 to Fleet.Capacity %d (0 means %d, %.0f%% headroom)",
			s.Peak, f.Capacity, defaultPeak(f.Capacity), 100*DefaultHeadroom)
	case s.MaxGaveUp < GaveUpAsBase:
		return nil, fmt.Errorf("Search.MaxGaveUp = %d, want 0 or more jobs, or GaveUpAsBase", s.MaxGaveUp)
	case s.Results < 0:
		return nil, fmt.Errorf("Search.Results = %d, want 1 or more (0 means %d)", s.Results, DefaultResults)
	case base.Attempts > f.MaxAttempts:
		return nil, fmt.Errorf("base Attempts = %d, over Fleet.MaxAttempts %d", base.Attempts, f.MaxAttempts)
	}
	a := &advisor{f: f, base: base, centre: centre, keep: s.Keep, peak: s.Peak, maxGave: s.MaxGaveUp, results: s.Results}
	if a.peak == 0 {
		a.peak = max(1, defaultPeak(f.Capacity))
	}
	if a.results == 0 {
		a.results = DefaultResults
	}
	a.amax = min(max(2*base.Attempts, 20), f.MaxAttempts)
	if s.Keep&DimAttempts != 0 {
		a.amax = base.Attempts
	}
	return a, nil
}

func defaultPeak(capacity int) int {
	return int(math.Floor(float64(capacity) * (1 - DefaultHeadroom)))
}

func (a *advisor) run() (*Advice, error) {
	var err error
	f := a.f
	f.Decide = a.base.Decide
	if a.baseLoad, err = f.Simulate(); err != nil {
		return nil, fmt.Errorf("base: %w", err)
	}
	a.sims++
	if a.maxGave == GaveUpAsBase {
		a.maxGave = a.baseLoad.GaveUp
	}
	advice := &Advice{Base: Advised{Policy: a.base, Load: a.baseLoad}, Nearest: a.centre, Peak: a.peak, MaxGaveUp: a.maxGave}
	if a.passes(a.baseLoad) {
		advice.Policies = []Advised{advice.Base}
		advice.Simulations = a.sims
		return advice, nil
	}
	a.jobs = newJobStarts(a.f)
	var found []candidate // the candidates no other one beats, ranked
	for level, shapes := range a.levels() {
		cands := a.weighAll(shapes)
		found = a.front(append(found, cands...))
		// No later level changes fewer than level+1 dimensions.
		if final := countWhile(found, func(c candidate) bool { return c.changed.Len() <= level }); final >= a.results {
			break
		}
	}
	advice.Simulations = a.sims
	if len(found) == 0 {
		return nil, a.noAdvice()
	}
	for _, c := range found[:min(len(found), a.results)] {
		f.Decide = c.policy.Decide
		f.Name = "advised"
		if n := len(advice.Policies); n > 0 {
			f.Name = fmt.Sprintf("advised %d", n+1)
		}
		l, err := f.Simulate()
		if err != nil {
			return nil, err
		}
		advice.Simulations++
		if !a.passes(l) || l.Peak != c.peak || l.GaveUp != c.gaveUp {
			return nil, fmt.Errorf("internal error: %v weighed peak %d, %d gave up, but simulates to peak %d, %d gave up",
				c.policy, c.peak, c.gaveUp, l.Peak, l.GaveUp)
		}
		advice.Policies = append(advice.Policies, Advised{Policy: c.policy, Changed: c.changed, Load: l})
	}
	return advice, nil
}

func (a *advisor) passes(l *Load) bool { return l.Peak <= a.peak && l.GaveUp <= a.maxGave }

func (a *advisor) noAdvice() error {
	where := "around the base policy"
	if a.keep != 0 {
		where += ", keeping " + a.keep.String()
	}
	nearest := ""
	if m := a.miss; m != nil {
		nearest = fmt.Sprintf("; the nearest, %v: peak %d, %d gave up", m.policy, m.peak, m.gaveUp)
	}
	return fmt.Errorf("%w: of the policies %s (%d simulations), none sends at most %d requests per %s and gives up on at most %d jobs%s",
		ErrNoAdvice, where, a.sims, a.peak, schedfmt.Duration(a.f.Bucket), a.maxGave, nearest)
}

// String describes the advice: the base policy's figures and the limits
// on one line, then one line per advised policy, best first, with the
// dimensions it changes.
//
//	base 5s doubling, full jitter under a 1h cap, 13 attempts (12 retries): peak 710, 2022 gave up; want a peak of at most 540, at most 2022 given up
//	1. First+Growth: 15s x4, full jitter under a 1h cap, 13 attempts (12 retries): peak 525, drained after 58m55s, 1 gave up
func (a *Advice) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "base %v: peak %d, %d gave up; want a peak of at most %d, at most %d given up\n",
		a.Base.Policy, a.Base.Load.Peak, a.Base.Load.GaveUp, a.Peak, a.MaxGaveUp)
	for i, p := range a.Policies {
		if p.Changed == 0 {
			b.WriteString("no change needed\n")
			continue
		}
		fmt.Fprintf(&b, "%d. %v: %v: peak %d, drained after %s, %d gave up\n", i+1, p.Changed, p.Policy,
			p.Load.Peak, schedfmt.Duration(p.Load.DrainTime.Round(time.Second)), p.Load.GaveUp)
	}
	return b.String()
}

// candidate is a policy the search weighed, and how it fared.
type candidate struct {
	policy  retrytest.Policy
	changed Dims
	peak    int
	gaveUp  int
	drain   time.Duration
	order   int // the order of the search, the last tie-breaker
}

// rank orders candidates best first.
func (a *advisor) rank(x, y candidate) int {
	b := a.f.Bucket
	return cmp.Or(
		cmp.Compare(x.changed.Len(), y.changed.Len()),
		cmp.Compare(x.drain/b, y.drain/b),
		cmp.Compare(x.peak, y.peak),
		cmp.Compare(x.gaveUp, y.gaveUp),
		cmp.Compare(x.order, y.order),
	)
}

// beats reports whether x is at least as good as y on every count of
// the ranking, and better on one.
func (x candidate) beats(y candidate) bool {
	nx, ny := x.changed.Len(), y.changed.Len()
	return nx <= ny && x.drain <= y.drain && x.peak <= y.peak && x.gaveUp <= y.gaveUp &&
		(nx < ny || x.drain < y.drain || x.peak < y.peak || x.gaveUp < y.gaveUp)
}

func countWhile(cs []candidate, ok func(candidate) bool) int {
	n := 0
	for n < len(cs) && ok(cs[n]) {
		n++
	}
	return n
}
