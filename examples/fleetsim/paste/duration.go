package paste

import (
	"strconv"
	"time"
)

// goDuration writes d as a Go expression in its largest whole unit:
// "time.Hour", "15 * time.Second", "90 * time.Minute".
func goDuration(d time.Duration) string {
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}, {time.Microsecond, "Microsecond"}} {
		if d%u.d == 0 {
			if d == u.d {
				return "time." + u.name
			}
			return strconv.FormatInt(int64(d/u.d), 10) + " * time." + u.name
		}
	}
	return strconv.FormatInt(int64(d), 10)
}
