package settle

import (
	"time"

	"github.com/retrykit/retrykit/internal/epoch"
)

// InBubble reports whether the calling goroutine runs inside a
// testing/synctest bubble. It is the one bubble detector of retrykit:
// fakeclock, the recorder, the transport and the bubble package all ask it.
//
// It reads two signals and says yes when either does:
//
//   - the header of the goroutine's own stack, which inside a bubble ends
//     in ", synctest bubble N]:" — exact at the instant it is asked, free of
//     side effects and about a microsecond; but runtime text, which a Go
//     release could reword;
//   - the time: testing/synctest documents that a bubble's clock starts at
//     midnight UTC 2000-01-01 and moves only when every goroutine of the
//     bubble is blocked, so inside one time.Now is in the year 2000 for the
//     first year of fake time, while no machine that runs Go 1.25 or later
//     has a real clock there.
//
// The header is the signal that holds for any test (one that waits out
// more than a year of fake time included); the time is the documented one,
// and keeps a test on its first year of fake time right if the header's
// wording ever changes. The other ways of telling a bubble are worse: a
// recovered panic of synctest.Wait blocks until the bubble is idle and
// panics when two goroutines call it, and "time stands still" needs two
// reads with work between them. (The oracle still uses that last one as
// its backstop: see [Oracle.Settle].)
func InBubble() bool {
	if misjudge.Load() {
		return false
	}
	if headerBubble() != 0 {
		return true
	}
	return IsBubbleTime(time.Now())
}

// IsBubbleTime reports whether t lies in the first year of a synctest
// bubble's clock: from midnight UTC 2000-01-01 (epoch.Time), included, to
// 2001-01-01, excluded. (bubble.CheckTime, which judges a time a policy
// captured, allows ten years either side: a captured time may lie deep in
// a bubble's fake time; a detector must not guess that far.)
func IsBubbleTime(t time.Time) bool {
	return !t.Before(epoch.Time) && t.Before(epoch.Time.AddDate(1, 0, 0))
}

// headerBubble returns the bubble number in the header of the calling
// goroutine's stack, or 0. A test may blind it (see [BlindHeaderBubble]).
func headerBubble() int64 {
	if blindHeader.Load() {
		return 0
	}
	_, bubble := Current()
	return bubble
}
