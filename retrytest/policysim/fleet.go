package policysim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// Defaults and limits of a [Fleet] simulation.
const (
	// DefaultBucket is the bucket width of a Fleet whose Bucket is 0.
	DefaultBucket = time.Minute
	// DefaultMaxAttempts bounds the attempts of one job when
	// Fleet.MaxAttempts is 0.
	DefaultMaxAttempts = 10000
	// MaxBuckets is the most buckets a simulation counts: a request
	// later than that after recovery is an error (use a wider Bucket).
	MaxBuckets = 1 << 20
)

// Fleet describes many jobs retrying through the same outage, each with
// the same pure policy, for [Fleet.Simulate], a discrete-event simulation.
// Per-job correctness does not guarantee fleet behaviour; the simulation
// shows the load a recovering endpoint receives.
//
// The model: the endpoint fails every request in [0, Outage) and recovers
// at Outage. Each job makes its first attempt at a time drawn uniformly
// from [0, Outage) (or at 0 for all jobs, with AllAtOnce); every failed
// attempt asks Decide whether and how long to wait; the first attempt at
// or after recovery succeeds. With Overload, a bucket after recovery that
// receives more than Capacity requests fails them all, as a server falls
// over under a storm, and their jobs retry as their policy says.
//
// The zero value is not usable: Jobs and Decide are required.
type Fleet struct {
	// Name labels the fleet in charts and messages, such as "old" or
	// "fixed".
	Name string
	// Jobs is the number of jobs. It must be > 0.
	Jobs int
	// Outage is how long the endpoint fails every request, from time 0.
	// It must be >= 0.
	Outage time.Duration
	// AllAtOnce makes every job's first attempt at time 0, as when a
	// batch starts together; by default first attempts are spread
	// uniformly over the outage.
	AllAtOnce bool
	// Decide is the jobs' pure retry policy: after the attempt numbered
	// failed fails (0 for the first) with a transient failure (a 503 with
	// no header), whether the job retries and after which delay, drawn
	// from rng alone. A [retrytest.Policy]'s Decide
	// method fits. It must not be nil, and it must give up eventually or
	// succeed: see MaxAttempts.
	Decide retrytest.DecideFunc
	// Seed seeds the random source. The same Fleet always gives the same
	// load: each job draws from its own generator (PCG, seeded from Seed
	// and the job's index), so adding jobs does not change the others.
	Seed uint64
	// Bucket is the width of the buckets the load is counted in; 0 means
	// DefaultBucket (a minute).
	Bucket time.Duration
	// Capacity is how many requests per Bucket the endpoint absorbs. A
	// chart draws it as a line; with Overload the endpoint also fails
	// above it. 0 means no line (and is an error with Overload).
	Capacity int
	// Overload makes the endpoint fail every request of a bucket after
	// recovery that receives more than Capacity requests. Without it,
	// every request after recovery succeeds.
	Overload bool
	// MaxAttempts bounds the attempts of any one job, so that a policy
	// that never gives up is reported instead of running for ever; 0
	// means DefaultMaxAttempts.
	MaxAttempts int
	// Clients splits the jobs evenly over that many clients, job j to
	// client j mod Clients, each with one circuit breaker (Breaker) that
	// sees all its jobs' attempts in time order; 0 means every job runs
	// alone, as without a breaker the jobs do anyway.
	Clients int
	// Breaker is each client's circuit breaker; nil means none. An
	// attempt it refuses sends nothing and fails at once: the job's
	// policy decides on it as on a failed request (a 503), so it uses an
	// attempt. Its probes fail until the endpoint recovers. It needs
	// Clients, and is not simulated with Overload.
	Breaker *retrytest.Breaker
}

// Load is the result of [Fleet.Simulate]: the requests a recovering
// endpoint received per bucket, and what became of the jobs.
type Load struct {
	// Fleet is the simulated fleet, with the defaults filled in.
	Fleet Fleet
	// Buckets holds the requests received in each bucket after recovery:
	// Buckets[k] covers [Outage + k·Bucket, Outage + (k+1)·Bucket). It
	// ends at the last bucket that received any.
	Buckets []int
	// Peak is the largest count in Buckets and PeakBucket the first bucket
	// holding it (0 when there are none).
	Peak, PeakBucket int
	// DrainTime is how long after recovery the last request arrived:
	// after it, no job is waiting to retry. It is 0 when no request
	// arrived after recovery.
	DrainTime time.Duration
	// Recovered counts the jobs whose request succeeded, and GaveUp those
	// whose policy stopped first. They add up to Jobs.
	Recovered, GaveUp int
	// GaveUpInOutage counts the jobs of GaveUp whose policy stopped
	// before the endpoint recovered: their attempts ended before the
	// outage did. The others gave up after recovery, their requests
	// failed by overloaded buckets (only with Overload) or their attempts
	// refused by an open breaker (only with a Breaker).
	GaveUpInOutage int
	// Requests counts every request made, first attempts included, and
	// FailedRequests those that failed: during the outage, or in an
	// overloaded bucket. OutageRequests counts those that reached the
	// endpoint during the outage, all of them failed.
	Requests, FailedRequests, OutageRequests int
	// Refused counts the attempts the clients' breakers refused: no
	// request was sent (only with a Breaker).
	Refused int
	// Overloaded counts the buckets after recovery that received more
	// than Capacity requests and failed them (only with Overload).
	Overloaded int
}

// Simulate runs the simulation and returns the load. It is deterministic:
// the same Fleet gives the same Load.
//
// Without Overload, each job is simulated on its own from first attempt to
// success, so memory does not grow with Jobs, only with the number of
// buckets; a million jobs of a dozen attempts take well under a second.
// With Overload the jobs interact, and the jobs waiting to retry after
// recovery are held in memory (about 32 bytes each); with Clients, one
// client's jobs are, while it runs (about 40 bytes each).
//
// It returns an error for a fleet it cannot simulate (no Decide, Jobs <=
// 0, a negative Outage, Bucket, Capacity or MaxAttempts, Overload without
// Capacity, more Clients than jobs, a Breaker without Clients, with
// Overload or invalid) and for a policy that misbehaves: a negative delay, more than
// MaxAttempts attempts, or a request later than [MaxBuckets] buckets
// after recovery.
func (f Fleet) Simulate() (*Load, error) {
	if err := f.normalize(); err != nil {
		return nil, err
	}
	s := &fleetSim{f: f, load: &Load{Fleet: f}}
	s.rng = rand.New(&s.pcg)
	if f.Clients > 0 {
		if err := s.clients(); err != nil {
			return nil, err
		}
		return s.finish(), nil
	}
	for j := range f.Jobs {
		if err := s.job(j); err != nil {
			return nil, err
		}
	}
	if f.Overload {
		if err := s.overload(); err != nil {
			return nil, err
		}
	}
	return s.finish(), nil
}

func (f *Fleet) normalize() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("policysim: Fleet.Simulate: "+format, args...)
	}
	switch {
	case f.Decide == nil:
		return bad("nil Decide")
	case f.Jobs <= 0:
		return bad("Jobs = %d, want > 0", f.Jobs)
	case f.Jobs > math.MaxInt32:
		return bad("Jobs = %d, want at most %d", f.Jobs, math.MaxInt32)
	case f.Outage < 0:
		return bad("Outage = %s, want >= 0s", schedfmt.Duration(f.Outage))
	case f.Bucket < 0:
		return bad("Bucket = %s, want > 0s (0 means %s)", schedfmt.Duration(f.Bucket), schedfmt.Duration(DefaultBucket))
	case f.Capacity < 0:
		return bad("Capacity = %d, want >= 0", f.Capacity)
	case f.Overload && f.Capacity == 0:
		return bad("Overload with Capacity = 0, want the requests per bucket the endpoint absorbs")
	case f.MaxAttempts < 0 || f.MaxAttempts > math.MaxInt32:
		return bad("MaxAttempts = %d, want 1 to %d (0 means %d)", f.MaxAttempts, math.MaxInt32, DefaultMaxAttempts)
	case f.Clients < 0 || f.Clients > f.Jobs:
		return bad("Clients = %d, want 1 to Jobs (%d), or 0 for none", f.Clients, f.Jobs)
	case f.Breaker != nil && f.Clients == 0:
		return bad("a Breaker with Clients = 0, want how many clients the jobs are split over, each with its breaker")
	case f.Breaker != nil && f.Overload:
		return bad("a Breaker with Overload: an overloaded endpoint is not simulated with breakers")
	}
	if f.Breaker != nil {
		if err := f.Breaker.Validate(); err != nil {
			return bad("%v", err)
		}
	}
	if f.Bucket == 0 {
		f.Bucket = DefaultBucket
	}
	if f.MaxAttempts == 0 {
		f.MaxAttempts = DefaultMaxAttempts
	}
	return nil
}

// fleetSim is one run of a simulation. One generator serves every job:
// its state is reseeded for each job and, with Overload, saved with the
// job while it waits.
type fleetSim struct {
	f      Fleet
	pcg    rand.PCG
	rng    *rand.Rand
	load   *Load
	counts []int
	last   time.Duration // the latest request after recovery, if seen
	seen   bool          // whether any request arrived after recovery
	queue  [][]fleetWaiter
}

// fleetWaiter is a job waiting for its next attempt after recovery.
type fleetWaiter struct {
	at   time.Duration
	pcg  rand.PCG
	job  int32
	made int32 // attempts made so far
}

// job runs job j through the outage: every attempt before recovery fails.
// The first attempt after recovery succeeds, or, with Overload, waits in
// the queue.
func (s *fleetSim) job(j int) error {
	t := s.start(j)
	made := 0
	for t < s.f.Outage {
		made++
		s.load.Requests++
		s.load.FailedRequests++
		s.load.OutageRequests++
		next, retry, err := s.decide(j, made, t)
		if err != nil || !retry {
			return err
		}
		t = next
	}
	if s.f.Overload {
		return s.enqueue(fleetWaiter{at: t, pcg: s.pcg, job: int32(j), made: int32(made)})
	}
	if err := s.arrive(j, t); err != nil {
		return err
	}
	s.load.Recovered++
	return nil
}

// start seeds the generator for job j and returns the time of its first
// attempt.
func (s *fleetSim) start(j int) time.Duration {
	s.pcg.Seed(s.f.Seed, fleetMix(uint64(j)))
	if !s.f.AllAtOnce && s.f.Outage > 0 {
		return time.Duration(s.rng.Int64N(int64(s.f.Outage)))
	}
	return 0
}

// decide asks the policy about job j's attempt number made, which failed
// at t, and returns when the next attempt happens.
func (s *fleetSim) decide(j, made int, t time.Duration) (next time.Duration, retry bool, err error) {
	d := s.f.Decide(made-1, transient(t), s.rng)
	switch {
	case !d.Retry:
		s.load.GaveUp++
		if t < s.f.Outage {
			s.load.GaveUpInOutage++
		}
		return 0, false, nil
	case d.Delay < 0:
		return 0, false, fmt.Errorf("policysim: Fleet.Simulate: job %d: Decide(%d) returned the negative delay %s", j, made-1, schedfmt.Duration(d.Delay))
	case made >= s.f.MaxAttempts:
		return 0, false, fmt.Errorf("policysim: Fleet.Simulate: job %d still retrying after %d attempts (at %s): the policy must give up eventually, or raise Fleet.MaxAttempts", j, made, schedfmt.Duration(t))
	case d.Delay > math.MaxInt64-t:
		return 0, false, s.tooLate(j, math.MaxInt64)
	}
	return t + d.Delay, true, nil
}

func (s *fleetSim) bucket(j int, t time.Duration) (int, error) {
	k := (t - s.f.Outage) / s.f.Bucket
	if k >= MaxBuckets {
		return 0, s.tooLate(j, t)
	}
	return int(k), nil
}

func (s *fleetSim) tooLate(j int, t time.Duration) error {
	return fmt.Errorf("policysim: Fleet.Simulate: job %d: a request at %s after recovery is beyond %d buckets of %s; use a wider Bucket",
		j, schedfmt.Duration(t-s.f.Outage), MaxBuckets, schedfmt.Duration(s.f.Bucket))
}

// arrive counts a request that reaches the endpoint at t >= Outage.
func (s *fleetSim) arrive(j int, t time.Duration) error {
	k, err := s.bucket(j, t)
	if err != nil {
		return err
	}
	if n := len(s.counts); k >= n {
		s.counts = slices.Grow(s.counts, k+1-n)[:k+1]
		clear(s.counts[n:])
	}
	s.counts[k]++
	s.load.Requests++
	if !s.seen || t > s.last {
		s.last, s.seen = t, true
	}
	return nil
}

func (s *fleetSim) enqueue(w fleetWaiter) error {
	k, err := s.bucket(int(w.job), w.at)
	if err != nil {
		return err
	}
	if n := len(s.queue); k >= n {
		s.queue = slices.Grow(s.queue, k+1-n)[:k+1]
		clear(s.queue[n:])
	}
	s.queue[k] = append(s.queue[k], w)
	return nil
}

// overload serves the queue bucket by bucket. A bucket that receives
// more than Capacity requests fails them all; their retries land in later
// buckets, or in the same one, which is already failing.
func (s *fleetSim) overload() error {
	for k := 0; k < len(s.queue); k++ {
		over := len(s.queue[k]) > s.f.Capacity
		if over {
			s.load.Overloaded++
		}
		for i := 0; i < len(s.queue[k]); i++ {
			w := s.queue[k][i]
			if err := s.arrive(int(w.job), w.at); err != nil {
				return err
			}
			if !over {
				s.load.Recovered++
				continue
			}
			s.load.FailedRequests++
			s.pcg = w.pcg
			made := int(w.made) + 1
			next, retry, err := s.decide(int(w.job), made, w.at)
			if err != nil {
				return err
			}
			if retry {
				err = s.enqueue(fleetWaiter{at: next, pcg: s.pcg, job: w.job, made: int32(made)})
				if err != nil {
					return err
				}
			}
		}
		s.queue[k] = nil
	}
	return nil
}

func (s *fleetSim) finish() *Load {
	l := s.load
	l.Buckets = s.counts
	for k, n := range l.Buckets {
		if n > l.Peak {
			l.Peak, l.PeakBucket = n, k
		}
	}
	if s.seen {
		l.DrainTime = s.last - s.f.Outage
	}
	return l
}

// fleetMix is SplitMix64's finalizer: it turns job indexes into unrelated
// stream seeds.
func fleetMix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
