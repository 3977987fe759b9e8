package retrytest

// TestingT is the part of [testing.TB] that the Assert functions and the
// Transport use: they report with Errorf and never stop the test; FailNow
// is there for the caller who wants to, and for testify's require, which
// takes the same interface. *testing.T, *testing.B, *testing.F, ginkgo.GinkgoT(),
// *rapid.T and testify's *assert.CollectT satisfy it, so the checks work
// in plain tests, Ginkgo specs, rapid properties and inside testify's
// EventuallyWithT. (testing.TB itself cannot be implemented outside package
// testing, which would shut those out.)
//
// Helpers call Helper first, so a failure is reported at the caller's line.
type TestingT interface {
	Helper()
	Errorf(format string, args ...any)
	FailNow()
}
