// Package stripego runs the built-in retries of
// [github.com/stripe/stripe-go/v82] (v82.5.1) through retrykit's
// conformance suite, against what the client's README and source claim,
// each gap it has pinned by a waiver that cites the line.
//
// # The seam
//
// The backend takes an *http.Client (BackendConfig.HTTPClient), so the
// suite's scripted transport answers its requests; it waits with
// time.Sleep and draws its jitter from the math/rand global, so the suite
// runs it in a testing/synctest bubble (conformance.RunInBubble). The
// adapter is a client over Seams.Transport and one V1Customers.Create per
// call, with the request's context:
//
//	be := stripe.NewBackendsWithConfig(&stripe.BackendConfig{HTTPClient: &http.Client{Transport: s.Transport},
//		URL: stripe.String("https://api.example.com"), LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull}})
//	c, err := stripe.NewClient("sk_test_x", stripe.WithBackends(be)).V1Customers.Create(req.Context(), &stripe.CustomerCreateParams{})
//
// # The bodies Stripe sends
//
// stripe-go decides on the body of an error response: one with an "error"
// object, the shape every error of Stripe's API has, is parsed into a
// *stripe.Error (stripe.go:867-916), whose verdict ends the decision
// (stripe.go:1037-1038); any other body is an error of its own, retried
// at any status. So the Spec's Bodies give every error the body Stripe's
// API sends for its status, its Signals are the responses the README
// and the source say are retried or not, each with its body, and the
// adapter's transport gives a success a customer object.
//
// # What it claims
//
// README.md:249-256: it "retries requests on intermittent failures like on
// a connection error, timeout, or on certain API responses like a status
// 409 Conflict", two retries by default (3 attempts), with idempotency keys
// "always added to requests to make any such subsequent retries safe".
// The source: 0.5s + 0.5s·k² capped at 5s, less up to a quarter of it
// drawn from the math/rand global, then raised to 0.5s
// (stripe.go:1097-1122); 409 and every status from 500 retried, a 429 only
// for a lock timeout (stripe.go:1069-1091, error.go:326-344); no
// Retry-After.
//
// # Gaps
//
// The tests pin them, each a waiver of the one case that fails:
//
//   - with the body Stripe sends, no status but a 429 lock timeout is ever
//     retried: the *stripe.Error decides first (stripe.go:1037-1038), and
//     its canRetry (error.go:326-344) says no to the 409 the README
//     promises, to every 5xx, and to Stripe-Should-Retry: true; the rules
//     for them (stripe.go:1069-1091) are reached only by a status below
//     400;
//   - conversely, a body that is not Stripe's JSON (a proxy's error page)
//     is retried at any status, 400 included (stripe.go:1047-1067);
//   - the wait is time.Sleep (stripe.go:744): a cancel or a deadline does
//     not end it, and the call returns only when it is over.
//
// In the configuration with a per-attempt timeout, the suite's hung
// request ends when its context does, as net/http's Transport ends it.
package stripego
