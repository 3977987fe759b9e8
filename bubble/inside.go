package bubble

import "github.com/retrykit/retrykit/internal/goheader"

// Inside reports whether the calling goroutine runs inside a
// testing/synctest bubble, where the time package is fake.
func Inside() bool { return goheader.InBubble() }
