package compat_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"
	"pgregory.net/rapid"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/retrytest"
)

var (
	_ retrytest.TestingT = ginkgo.FullGinkgoTInterface(nil)
	_ fakeclock.FixtureT = ginkgo.FullGinkgoTInterface(nil)
	_ retrytest.TestingT = (*rapid.T)(nil)
	_ fakeclock.FixtureT = (*rapid.T)(nil)
)

// fullJitter is a policy under test: full jitter under a ceiling that
// doubles from base and is capped before the jitter.
func fullJitter(base, maxDelay time.Duration, attempts int, rng *rand.Rand) []time.Duration {
	var ds []time.Duration
	for i := range attempts - 1 {
		ceiling := min(maxDelay, base<<i)
		ds = append(ds, time.Duration(rng.Int64N(int64(ceiling)+1)))
	}
	return ds
}

// TestRapidProperty runs a check with *rapid.T as its TestingT.
func TestRapidProperty(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Uint64().Draw(rt, "seed")
		attempts := rapid.IntRange(1, 13).Draw(rt, "attempts")
		got := fullJitter(5*time.Second, time.Hour, attempts, rand.New(rand.NewPCG(seed, 0)))
		policy := retrytest.Policy{First: 5 * time.Second, Growth: 2, Cap: time.Hour, Jitter: retrytest.FullJitter, Attempts: attempts}
		if !retrytest.AssertDelaysWithin(rt, retrytest.Waits(got...), policy.Windows()...) {
			rt.FailNow()
		}
		retrytest.AssertAttempts(rt, retrytest.Waits(got...), attempts)
	})
}

// TestGinkgoSuite runs the checks and matchers inside a Ginkgo spec.
func TestGinkgoSuite(t *testing.T) {
	gomega.RegisterFailHandler(ginkgo.Fail)
	ginkgo.RunSpecs(t, "compat")
}

var _ = ginkgo.Describe("retrytest under Ginkgo", func() {
	ladder := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second}

	ginkgo.It("accepts GinkgoT() as a TestingT", func() {
		if !retrytest.AssertCappedAt(ginkgo.GinkgoT(), retrytest.Waits(ladder...), 8*time.Second) {
			ginkgo.GinkgoT().FailNow()
		}
		gomega.Expect(retrytest.AssertAttempts(ginkgo.GinkgoT(), retrytest.Waits(ladder...), 7)).To(gomega.BeTrue())
	})

	ginkgo.It("matches with the Gomega matchers", func() {
		gomega.Expect(ladder).To(matchers.HaveDelaysWithin(retrytest.Policy{First: 500 * time.Millisecond, Growth: 2, Cap: 8 * time.Second, Attempts: 7}.Windows()...))
		gomega.Expect(ladder).To(matchers.BeCappedAt(8 * time.Second))
		gomega.Expect(ladder).NotTo(matchers.HaveAttempts(6))
	})
})
