// Package compat proves, in a module of its own, that retrytest's TestingT
// and fakeclock.FixtureT accept ginkgo.GinkgoT() and *rapid.T, and that the checks and
// matchers work inside a Ginkgo suite and a rapid property. It lives in a
// nested module so that Ginkgo and rapid never become dependencies of
// github.com/retrykit/retrykit. Run it with
//
//	cd retrytest/internal/compat && go test ./...
package compat
