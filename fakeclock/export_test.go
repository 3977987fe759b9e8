package fakeclock

// SetTrace makes the clock's settle oracle report its decisions to f.
func SetTrace(c *Clock, f func(format string, args ...any)) { c.settle.oracle.Trace = f }
