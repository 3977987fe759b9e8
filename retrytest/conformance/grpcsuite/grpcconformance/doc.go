// Package grpcconformance checks a retrying gRPC client against the whole
// retry contract of gRPC in one call, as package conformance checks an
// HTTP client: declare what the client claims in a [Spec], adapt it to
// the suite's [Seams] in a few lines, and every property runs as a
// subtest, its cases as subtests of that one, each failure printed with
// the attempts the scripted server saw.
//
//	grpcconformance.TestClient(t, spec, func(s grpcconformance.Seams) grpcconformance.Call {
//		cc, _ := s.Dial(grpc.WithDefaultServiceConfig(serviceConfig))
//		c := testgrpc.NewTestServiceClient(cc)
//		return func(ctx context.Context) error { _, err := c.EmptyCall(ctx, &testgrpc.Empty{}); return err }
//	})
//
// The client is grpc-go's retryPolicy, an interceptor (go-grpc-middleware's
// retry), or the team's own; it calls [Method] on a grpcscript server in
// memory. Every call runs in a testing/synctest bubble, since grpc-go and
// the interceptors call package time themselves: a minute of backoff
// takes no real time, and deadlines are exact.
//
// # Pass, skip, waived
//
// The model is package conformance's, and so is the [conformance.Report]
// the entries return: a property passes only when it saw what it judges,
// and the client met it; it is skipped, saying why, when the Spec
// declares nothing to judge (no pushback, no throttle); [Waive] accepts a
// known gap of a property or of one case ("NonRetryableCodes/canceled"),
// and a waiver whose gap has closed is stale and fails the suite.
// [CheckClient] returns the Report without reporting through t.
//
// # The properties, and their cases
//
//	FirstAttemptImmediate  an attempt, at once
//	WaitsInWindows         min max (or sample, OwnRandom): each wait in Policy.Window
//	AttemptCount           a call failing every attempt: exactly Policy.Attempts
//	RetryableCodes         a case per Retryable code: retried after the backoff
//	NonRetryableCodes      a case per NonRetryable code: returned at once
//	PushbackWaited         longer zero above-cap: the pushback waited exactly
//	PushbackResetsBackoff  the wait after a pushback's retry is the first wait
//	PushbackInvalid        negative malformed: stops retrying, or the backoff, as declared
//	RetryThrottling        stops recovers: attempts per call as the token bucket allows
//	AttemptTimeout         a hung attempt: cut at AttemptTimeout, retried after the backoff
//	RetryMetadata          AttemptKey: absent, then 1, 2 on the retries
//	DeadlineSpansAttempts  each attempt carries what is left of the call's deadline
//	DeadlineCutsWait       a deadline in the first wait: the call ends then
//	CancelDuringWait       a cancel in the first wait: the call ends then
//	NoLeaks                succeeded given-up canceled: no goroutine left
//
// A case's name is part of the API. The properties that mean what the
// HTTP suite's do keep their names (AttemptCount, DeadlineCutsWait,
// CancelDuringWait, AttemptTimeout, NoLeaks); those that differ for gRPC
// have their own: codes for statuses, a pushback for a Retry-After.
//
// # What the Spec states, and what the suite takes from it
//
// A pushback, the trailer grpc-retry-pushback-ms, is whole milliseconds:
// a valid one is waited exactly, without cap or jitter, and restarts the
// backoff; a negative or malformed one stops the retries (gRFC A6), or,
// declared so, is ignored. The throttle is gRFC A6's token bucket, kept as
// grpc-go keeps it: one per ClientConn, so RetryThrottling makes all its
// calls on one client, and every other property makes a client per call.
// AttemptsCap is grpc-go's cap on maxAttempts (5 unless
// grpc.WithMaxCallAttempts raises it). A Spec that contradicts itself is
// an error naming the field and what was expected.
//
// The suite fails attempts with the first Retryable code, or Unavailable.
// A client must close nothing the suite gave it: it closes the
// connections of Seams.Dial after each call; one dialed otherwise must be
// closed by the adapter, or NoLeaks fails.
package grpcconformance
