package conformance

import (
	"context"
	"net/http"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/seqrand"
)

// Seams are what the suite hands the code under test, for each call it
// makes: the clock every wait must use, and the random source every jitter
// must draw from. The adapter a user writes passes them to the code's own
// constructor.
type Seams struct {
	// Clock is the clock every wait must use: a fake clock, or, when the
	// suite runs the code in a testing/synctest bubble (RunInBubble), the
	// bubble's time, which the time package also reads there.
	Clock clockwork.Clock
	// Sleep waits d on Clock, or until ctx ends and returns ctx's error,
	// for code whose seam is a sleep function (clockctx.Sleep).
	Sleep func(ctx context.Context, d time.Duration) error
	// Rand is the random source every draw must come from. It serves
	// each random API retry code takes: rand.New(s.Rand) for
	// math/rand/v2, mathrand.New(s.Rand) for math/rand, and the method
	// value s.Rand.Float64 for a func() float64.
	Rand *seqrand.Source
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
