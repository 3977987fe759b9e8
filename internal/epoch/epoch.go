// Package epoch holds the one instant every fake time in retrykit starts
// at: 2000-01-01T00:00:00Z, where the clock of a testing/synctest bubble
// starts. fakeclock exports it as fakeclock.Epoch; the recorder's virtual
// time and retrytest's check of bubble time count from it too.
package epoch

import "time"

// Time is 2000-01-01T00:00:00Z.
var Time = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
