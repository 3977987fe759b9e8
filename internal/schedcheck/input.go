package schedcheck

import "fmt"

// InputError reports an expectation a check cannot work with: a window
// that holds no delay, a negative count. Front ends prefix it with the
// name of the function; Error is a lower-case phrase without a prefix.
type InputError struct {
	Detail string
}

// Error returns Detail.
func (e *InputError) Error() string { return e.Detail }

func badArgument(format string, args ...any) error {
	return &InputError{Detail: fmt.Sprintf(format, args...)}
}
