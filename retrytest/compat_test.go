package retrytest_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/onsi/gomega/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/retrytest"
)

// The promises of the TestingT and FixtureT doc comments, compiled. Ginkgo
// and rapid are proved in the nested module retrytest/internal/compat, so
// they never become dependencies of this module.
var (
	_ retrytest.TestingT = (*testing.T)(nil)
	_ retrytest.TestingT = (*testing.B)(nil)
	_ retrytest.TestingT = (*testing.F)(nil)
	_ retrytest.TestingT = (*assert.CollectT)(nil)

	_ fakeclock.FixtureT = (*testing.T)(nil)
	_ fakeclock.FixtureT = (*testing.B)(nil)
	_ fakeclock.FixtureT = (*testing.F)(nil)

	// A TestingT can be handed on to testify and a FixtureT to gomega.NewWithT.
	_ assert.TestingT      = retrytest.TestingT(nil)
	_ require.TestingT     = retrytest.TestingT(nil)
	_ types.GomegaTestingT = fakeclock.FixtureT(nil)
	_ retrytest.TestingT   = testing.TB(nil)
	_ fakeclock.FixtureT   = testing.TB(nil)
)

// TestAssertInsideEventuallyWithT shows a check working with testify's
// CollectT: the first tick sees 2 attempts and fails, the second sees 3 and
// passes. The bubble makes the ticker instant.
func TestAssertInsideEventuallyWithT(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		attempts, ticks := 1, 0
		ok := assert.EventuallyWithT(t, func(c *assert.CollectT) {
			attempts++
			ticks++
			retrytest.AssertAttempts(c, make(attemptsOnly, attempts), 3)
		}, time.Minute, time.Second)
		if !ok || ticks != 2 {
			t.Errorf("EventuallyWithT(AssertAttempts(n, 3)) = %v after %d ticks, want true after 2", ok, ticks)
		}
	})
}
