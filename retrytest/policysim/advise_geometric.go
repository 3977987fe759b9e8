package policysim

import (
	"errors"
	"fmt"
	"math"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// geometric returns the geometric Policy nearest p, the centre of the
// advisor's search: p itself when its ceilings grow by a factor, and for
// a table of ceilings (Policy.Ceilings: River's n⁴ s, azcore's (2^t−1)·d)
// the policy whose first ceiling is the table's first, whose growth takes
// it to the table's last rising ceiling in as many steps (their geometric
// mean ratio), and whose cap is the table's last ceiling (the last repeats)
// or p's cap, the lower; jitter, floor and attempts as p's. A table that
// starts at 0 or falls cannot be fitted: the error says why.
func geometric(p retrytest.Policy) (retrytest.Policy, error) {
	cs := p.Ceilings
	if len(cs) == 0 {
		return p, nil
	}
	if n := p.Attempts - 1; n > 0 && n < len(cs) {
		cs = cs[:n]
	}
	if cs[0] <= 0 {
		return p, errors.New("base Ceilings start at 0s: no geometric policy starts there, so there is none to advise near it; give the advisor a First")
	}
	rise := 0 // the last ceiling above the one before
	for k := 1; k < len(cs); k++ {
		switch {
		case cs[k] < cs[k-1]:
			return p, fmt.Errorf("base Ceilings fall at retry %d (%s after %s): no geometric policy falls, so there is none to advise near it", k+1, schedfmt.Duration(cs[k]), schedfmt.Duration(cs[k-1]))
		case cs[k] > cs[k-1]:
			rise = k
		}
	}
	g := 1.0
	if rise > 0 {
		g = math.Pow(float64(cs[rise])/float64(cs[0]), 1/float64(rise))
		g = math.Round(g*100) / 100 // a factor a person writes
	}
	q := p
	q.Ceilings, q.First, q.Growth = nil, cs[0], g
	q.Cap = cs[len(cs)-1]
	if p.Cap > 0 {
		q.Cap = min(q.Cap, p.Cap)
	}
	if q.Cap == math.MaxInt64 || q.Cap <= 0 {
		q.Cap = 0
	}
	if err := q.Validate(); err != nil {
		return p, fmt.Errorf("the geometric policy nearest the base ceilings (%v) is invalid: %w", q, err)
	}
	return q, nil
}
