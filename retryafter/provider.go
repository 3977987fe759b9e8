package retryafter

import "strconv"

// Provider names a service whose own rate-limit fields [FromResponse] and
// [ParseField] read only when the caller opts in with [WithProviders]. The
// same field name means different things at different services
// (X-RateLimit-Reset is epoch seconds at GitHub, seconds-until at others,
// epoch milliseconds at yet others), so nothing is guessed.
type Provider int

// The providers whose reset fields this package knows.
const (
	// OpenAI reads X-Ratelimit-Reset-Requests and X-Ratelimit-Reset-Tokens,
	// Go duration strings such as "6m0s", for each bucket whose
	// X-Ratelimit-Remaining-Requests or X-Ratelimit-Remaining-Tokens is 0.
	// In lenient mode a bare integer is read as seconds, as Azure OpenAI
	// was seen sending.
	OpenAI Provider = iota + 1
	// Anthropic reads Anthropic-Ratelimit-{Requests,Tokens,Input-Tokens,
	// Output-Tokens}-Reset, RFC 3339 instants, for each limit whose
	// matching -Remaining field is 0.
	Anthropic
	// GitHub reads X-Ratelimit-Reset, integer epoch seconds, when
	// X-Ratelimit-Remaining is 0; adds 403 to the status gate; and, when a
	// 403 or 429 carries no hint at all, waits the one minute GitHub
	// documents for secondary rate limits. A 403 can also be a permission
	// error, which only the body tells apart: check it before asking for
	// a delay.
	GitHub
	// X (formerly Twitter) reads X-Rate-Limit-Reset, integer epoch
	// seconds, when X-Rate-Limit-Remaining is 0.
	X
	// Discord reads X-Ratelimit-Reset-After (decimal seconds) or else
	// X-Ratelimit-Reset (decimal epoch seconds) when X-Ratelimit-Remaining
	// is 0.
	Discord
)

var providerNames = [...]string{
	OpenAI:    "OpenAI",
	Anthropic: "Anthropic",
	GitHub:    "GitHub",
	X:         "X",
	Discord:   "Discord",
}

// String returns the provider's name, for example "GitHub".
func (p Provider) String() string {
	if p > 0 && int(p) < len(providerNames) {
		return providerNames[p]
	}
	return "Provider(" + itoa(int(p)) + ")"
}

func itoa(i int) string { return strconv.Itoa(i) }
