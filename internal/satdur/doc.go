// Package satdur adds durations without wrapping: every sum of delays in
// retrykit (an attempt's offset, a total, a wait after the last attempt)
// goes through it, so a huge wait such as retryafter.Forever followed by
// any other leaves the sum at the largest Duration instead of turning it
// negative, and an offset never goes backwards because of an overflow.
package satdur
