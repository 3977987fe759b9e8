package delivery

import (
	"math/rand/v2"
	"time"

	"github.com/retrykit/retrykit/examples/webhook"
)

// Backoff draws the seed's delay before the retry that follows n earlier
// failures (0 for the first retry): uniformly from
// [0, min(webhook.Cap, webhook.Base·2^n)], both ends included — the
// ceiling capped first, then full jitter under it, 5s doubling to an hour.
// It draws from rng, or from math/rand/v2's runtime-seeded source when
// rng is nil. Unlike webhook.Decide it never gives up: the frameworks
// count the attempts themselves.
func Backoff(n int, rng *rand.Rand) time.Duration {
	c := webhook.Base
	for range n {
		if c >= webhook.Cap {
			break
		}
		c *= 2
	}
	c = min(c, webhook.Cap)
	if rng == nil {
		return time.Duration(rand.Int64N(int64(c) + 1))
	}
	return time.Duration(rng.Int64N(int64(c) + 1))
}
