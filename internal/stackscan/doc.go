// Package stackscan parses the goroutine dump written by [runtime.Stack] and
// sorts each goroutine's state into the classes that fakeclock's settle
// oracle needs: busy, idle on in-process synchronization, or waiting to read
// from a file descriptor.
//
// The dump format is not an API of the runtime. The parser follows the
// format of Go 1.21 and later ("created by f in goroutine N"), strips the
// suffixes the runtime adds inside synctest bubbles ("(durable)",
// ", synctest bubble N"), and treats any state it does not know as busy.
package stackscan
