package grpcscript

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"

	"github.com/retrykit/retrykit/internal/schedfmt"
)

// Script is the replies of one method, in order: what [Method] makes and
// [NewServer] serves.
type Script struct {
	method  string
	replies []Reply
}

// Method returns the script of the method named by its full name,
// "/package.Service/Method" (as grpc.Method and interceptors name it):
// the replies in order, each served once unless [Reply.Times] or
// [Reply.Always] says otherwise. A method with no replies must not be
// called: every attempt at it is unexpected.
//
// The name is checked by NewServer against the services of the protobuf
// registry, where the package generated for a service registers it: a
// script for a method the registry does not know is an error.
func Method(fullName string, replies ...Reply) Script {
	return Script{method: fullName, replies: replies}
}

// lookupMethod finds the method named fullName in the global registry of
// protobuf files, or says why it cannot.
func lookupMethod(fullName string) (protoreflect.MethodDescriptor, error) {
	rest, ok := strings.CutPrefix(fullName, "/")
	svc, name, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || svc == "" || name == "" || strings.Contains(name, "/") {
		return nil, errors.New(`want a full method name, "/package.Service/Method"`)
	}
	d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(svc))
	if err != nil {
		return nil, fmt.Errorf("no service %s in the protobuf registry: link the package generated for it into the test (import it)", svc)
	}
	sd, ok := d.(protoreflect.ServiceDescriptor)
	if !ok {
		return nil, fmt.Errorf("%s is not a service", svc)
	}
	md := sd.Methods().ByName(protoreflect.Name(name))
	if md == nil {
		var names []string
		for i := range sd.Methods().Len() {
			names = append(names, string(sd.Methods().Get(i).Name()))
		}
		return nil, fmt.Errorf("service %s has no method %s; it has %s", svc, name, strings.Join(names, ", "))
	}
	return md, nil
}

// script is a method's script as the server plays it. It is guarded by
// the server's mutex.
type script struct {
	method string
	steps  []scriptStep
}

// scriptStep is a reply with how often it has been served.
type scriptStep struct {
	reply  Reply
	served int
}

func newScript(method string, replies []Reply) *script {
	s := &script{method: method}
	for _, r := range replies {
		s.steps = append(s.steps, scriptStep{reply: r})
	}
	return s
}

// next returns the reply for the next attempt and its 1-based step, or
// false when every step has been served its count.
func (s *script) next() (Reply, int, bool) {
	for i := range s.steps {
		st := &s.steps[i]
		if n := st.reply.limit(); n == 0 || st.served < n {
			st.served++
			return st.reply, i + 1, true
		}
	}
	return Reply{}, 0, false
}

// table renders the script: one row per step with its count and how often
// it was served; with markUnused, steps not served their full count are
// marked.
func (s *script) table(indent string, markUnused bool) string {
	if len(s.steps) == 0 {
		return indent + "  (no replies: the method must not be called)\n"
	}
	tab := schedfmt.Grid{Header: []string{"step", "reply", "times", "served"}, Indent: indent}
	for i, st := range s.steps {
		left := stepUnused(st)
		reason := ""
		if left > 0 {
			reason = fmt.Sprintf("%d unused", left)
		} else if left < 0 {
			reason = "never served"
		}
		tab.Rows = append(tab.Rows, schedfmt.GridRow{
			Cells:  []string{strconv.Itoa(i + 1), st.reply.String(), st.reply.count(), strconv.Itoa(st.served)},
			Marked: markUnused && left != 0,
			Reason: reason,
		})
	}
	return tab.String()
}

// stepUnused is how many times a step can still be served: its count minus
// the times served, or -1 for an Always step never served, 0 for one
// served at least once.
func stepUnused(st scriptStep) int {
	n := st.reply.limit()
	if n == 0 {
		if st.served == 0 {
			return -1
		}
		return 0
	}
	return n - st.served
}
