package conformance

import (
	"context"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/seqrand"
)

// Seams are what the suite hands the code under test, for each call it
// makes: the clock every wait must use, and the random source every jitter
// must draw from. The adapter a user writes passes them to the code's own
// constructor.
type Seams struct {
	// Clock is a fake clock, or nil when the suite runs the code in a
	// testing/synctest bubble (InBubble), where the code uses the time
	// package.
	Clock clockwork.Clock
	// Sleep waits d on Clock, or until ctx ends and returns ctx's error,
	// for code whose seam is a sleep function (clockctx.Sleep).
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand draws from Source through math/rand/v2. Source itself serves
	// math/rand (mathrand.New(Source)) and func() float64
	// (Source.Float64).
	Rand   *rand.Rand
	Source *seqrand.Source
	// Transport is the scripted transport a client sends through
	// (TestClient only; nil otherwise).
	Transport http.RoundTripper
}

// Loop is retry code around an operation, wired to the suite's seams: it
// calls op until op succeeds, the code gives up, or ctx ends, and returns
// what the code returns.
type Loop func(ctx context.Context, op func(ctx context.Context) error) error

// Do sends a request through a retrying HTTP client wired to the suite's
// seams (its transport over Seams.Transport): the method value Do of an
// *http.Client fits.
type Do func(req *http.Request) (*http.Response, error)

// Decide is a pure retry policy: after the attempt numbered failed (0 for
// the first call) ends with o, it decides whether to retry and how long to
// wait, drawing from rng alone.
type Decide func(failed int, o Outcome, rng *rand.Rand) retrytest.Decision
