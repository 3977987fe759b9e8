package ginkgo_test

import (
	"context"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/retrykit/retrykit/examples/ginkgo"
	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/matchers"
	"github.com/retrykit/retrykit/recorder"
)

func TestGinkgo(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "retrykit in Ginkgo")
}

var _ = Describe("Fetch", func() {
	var (
		clk    *fakeclock.Clock
		tr     *httpscript.Transport
		ctx    context.Context
		cancel context.CancelFunc
	)
	BeforeEach(func() {
		clk = fakeclock.New(GinkgoT())
		tr = httpscript.NewTransport(GinkgoT(), httpscript.Respond(503).Times(2), httpscript.Respond(200)).WithClock(clk)
		ctx, cancel = context.WithCancel(context.Background())
		DeferCleanup(func() {
			cancel()
			clk.VerifyIdle() // nothing left waiting on the clock
		})
	})

	It("retries a 503 after 500ms, then 1s", MustPassRepeatedly(20), func() {
		call := recorder.Start(clk, func() error { return ginkgo.Fetch(ctx, tr.Client(), clk, "https://api.example.com/items") })
		clk.Step(499 * time.Millisecond)
		Expect(tr).To(matchers.HaveAttempts(1), "nothing at 499ms")
		clk.Step(time.Millisecond)
		Expect(tr).To(matchers.HaveAttempts(2), "the retry at exactly 500ms")
		clk.Step(time.Second)
		Expect(tr).To(matchers.HaveAttemptsAt(0, 500*time.Millisecond, 1500*time.Millisecond))
		Expect(call.Returned()).To(BeTrue())
		Expect(call.Err()).NotTo(HaveOccurred())
	})

	It("stops waiting when its context is canceled", MustPassRepeatedly(20), func() {
		call := recorder.Start(clk, func() error { return ginkgo.Fetch(ctx, tr.Client(), clk, "https://api.example.com/items") })
		clk.Step(250 * time.Millisecond)
		cancel()
		clk.Step(0)
		Expect(call.Returned()).To(BeTrue())
		Expect(call.Err()).To(MatchError(context.Canceled))
		Expect(tr).To(matchers.HaveAttempts(1))
	})
})
