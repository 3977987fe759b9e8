package retryafter

import (
	"fmt"
	"net/http"
	"slices"
)

// An Option changes how [FromResponse], [ParseField] and [Limits.Apply]
// read a response.
type Option interface {
	apply(*options)
}

type optionFunc func(*options)

func (f optionFunc) apply(o *options) { f(o) }

// defaultStatuses is the status gate unless WithStatuses replaces it.
var defaultStatuses = []int{http.StatusTooManyRequests, http.StatusServiceUnavailable}

type options struct {
	providers  uint // bit p set when Provider p is enabled
	statuses   []int
	anyStatus  bool
	dateHeader bool
	strict     bool
}

func buildOptions(opts []Option) options {
	o := options{statuses: defaultStatuses}
	for _, opt := range opts {
		if opt != nil {
			opt.apply(&o)
		}
	}
	return o
}

func (o *options) has(p Provider) bool { return o.providers&(1<<uint(p)) != 0 }

// gated reports whether a response with this status is read.
func (o *options) gated(status int) bool {
	if o.anyStatus || slices.Contains(o.statuses, status) {
		return true
	}
	return o.has(GitHub) && (status == http.StatusForbidden || status == http.StatusTooManyRequests)
}

// WithProviders opts in to the rate-limit fields of the given providers
// (see [Provider] for what each one reads). Without it only the standard
// and near-standard fields are read. Repeated options add up. It panics on
// an unknown Provider.
func WithProviders(ps ...Provider) Option {
	for _, p := range ps {
		if p <= 0 || int(p) >= len(providerNames) {
			panic(fmt.Sprintf("retryafter: WithProviders: unknown %v", p))
		}
	}
	ps = slices.Clone(ps)
	return optionFunc(func(o *options) {
		for _, p := range ps {
			o.providers |= 1 << uint(p)
		}
	})
}

// WithStatuses replaces the status gate. By default only 429 Too Many
// Requests (RFC 6585 §4) and 503 Service Unavailable (RFC 9110 §15.6.4)
// responses are read for a hint; with this option only responses with one
// of codes are, and others give [ErrNoHint]. (On a 3xx, Retry-After means
// "wait before following the redirect", a different feature.)
// With no codes at all, every status is read. [GitHub] adds 403 and 429 to
// whatever gate is set. It panics on a code outside 100-999.
func WithStatuses(codes ...int) Option {
	for _, c := range codes {
		if c < 100 || c > 999 {
			panic(fmt.Sprintf("retryafter: WithStatuses: status %d outside 100-999", c))
		}
	}
	codes = slices.Clone(codes)
	return optionFunc(func(o *options) {
		o.statuses = codes
		o.anyStatus = len(codes) == 0
	})
}

// WithDateHeader measures absolute hints (HTTP-dates, RFC 3339 instants,
// epoch seconds) against the response's own Date header instead of now,
// which cancels the skew between the server's clock and the client's, as
// the IETF RateLimit draft suggests. A response without a valid Date
// header is measured against now.
func WithDateHeader() Option {
	return optionFunc(func(o *options) { o.dateHeader = true })
}

// WithStrict reads every field by its grammar alone, like [ParseStrict]:
// no decimal seconds in Retry-After, exact case and a matching weekday in
// HTTP-dates, no bare integers in OpenAI's reset fields, upper-case T and Z
// in RFC 3339 instants.
func WithStrict() Option {
	return optionFunc(func(o *options) { o.strict = true })
}
