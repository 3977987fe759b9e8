package matchers

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// HaveNoPendingTimers succeeds if nothing is pending on actual: no timer,
// ticker, sleep or context deadline. Actual is a *fakeclock.Clock, or any
// value whose Pending method takes nothing and returns a slice of waiters
// that have a String method; the failure message lists each waiter on its
// own line, so a fake clock's message names where each timer was armed.
//
//	Expect(clock).To(HaveNoPendingTimers())
//	Eventually(clock).Should(HaveNoPendingTimers())
func HaveNoPendingTimers() types.GomegaMatcher {
	return &noPendingTimersMatcher{}
}

type noPendingTimersMatcher struct {
	kind    string   // the actual's type, for the message
	pending []string // what was pending when Match ran
}

var stringerType = reflect.TypeFor[fmt.Stringer]()

func (m *noPendingTimersMatcher) Match(actual any) (ok bool, err error) {
	m.kind, m.pending = fmt.Sprintf("%T", actual), nil
	v := reflect.ValueOf(actual)
	var pending reflect.Value
	if v.IsValid() {
		pending = v.MethodByName("Pending")
	}
	if !pending.IsValid() || !returnsWaiters(pending.Type()) {
		return false, fmt.Errorf("HaveNoPendingTimers matcher expects a *fakeclock.Clock or a value whose Pending() returns waiters with a String method.  Got:\n%s", format.Object(actual, 1))
	}
	if v.Kind() == reflect.Pointer && v.IsNil() {
		return false, fmt.Errorf("HaveNoPendingTimers matcher expects a clock that is not nil.  Got:\n%s", format.Object(actual, 1))
	}
	defer func() {
		if r := recover(); r != nil {
			ok, err = false, fmt.Errorf("HaveNoPendingTimers matcher: %s.Pending panicked: %v", m.kind, r)
		}
	}()
	list := pending.Call(nil)[0]
	for i := range list.Len() {
		w := list.Index(i)
		if !w.Type().Implements(stringerType) {
			p := reflect.New(w.Type())
			p.Elem().Set(w)
			w = p
		}
		m.pending = append(m.pending, w.Interface().(fmt.Stringer).String())
	}
	return len(m.pending) == 0, nil
}

// returnsWaiters reports whether a Pending method has the contract's shape:
// no arguments, one slice of Stringers (by value or by pointer).
func returnsWaiters(t reflect.Type) bool {
	if t.NumIn() != 0 || t.NumOut() != 1 || t.Out(0).Kind() != reflect.Slice {
		return false
	}
	e := t.Out(0).Elem()
	return e.Implements(stringerType) || reflect.PointerTo(e).Implements(stringerType)
}

func (m *noPendingTimersMatcher) FailureMessage(any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Expected\n%s%s with %s pending:\n", format.Indent, m.kind, schedfmt.Count(len(m.pending), "waiter"))
	for _, p := range m.pending {
		b.WriteString(format.Indent + "  " + p + "\n")
	}
	b.WriteString("to have no pending timers")
	return b.String()
}

func (m *noPendingTimersMatcher) NegatedFailureMessage(any) string {
	return fmt.Sprintf("Expected\n%s%s with nothing pending\nnot to have no pending timers", format.Indent, m.kind)
}
