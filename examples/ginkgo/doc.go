// Package ginkgo shows retrykit in the two test frameworks teams use most
// beside package testing: a Ginkgo v2 suite and a testify suite, each
// testing the small retrying client of this package.
//
// The fixtures are made where the framework makes fixtures — the fake clock
// and the scripted transport in a Ginkgo BeforeEach or a testify
// SetupTest, given GinkgoT() or the suite's T() — and the call under test
// is started on a goroutine of its own (go, or recorder.Start), never on
// the spec's goroutine, which steps the clock. Each spec ends as a test of
// a retry should: it cancels the call's context, then checks that nothing
// is left pending on the clock (Clock.VerifyIdle, in a DeferCleanup or
// TearDownTest, before the clock's own cleanup closes it). Ginkgo refuses
// go test -count above 1: a spec that must not flake says
// MustPassRepeatedly instead.
//
// The module is nested so that retrykit's own module does not depend on
// Ginkgo.
package ginkgo
