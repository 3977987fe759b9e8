package grpcconformance

import (
	"context"
	"fmt"
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/grpcscript"
	"github.com/retrykit/retrykit/retrytest/conformance/grpcsuite/internal/guard"
	"github.com/retrykit/retrykit/retrytest/conformance/internal/verdict"
	"github.com/retrykit/retrykit/seqrand"
)

// outcome is one call the suite made, and what the server saw of it.
type outcome struct {
	start time.Time
	err   error
	took  time.Duration
	att   []grpcscript.Attempt // the call's attempts
}

// server starts a scripted server for Method, in the bubble, guarded.
func (c *config) server(t *verdict.Recorder, replies ...grpcscript.Reply) *grpcscript.Server {
	unbind := guard.Bind(t, c.guard)
	defer unbind()
	return grpcscript.NewServer(t, grpcscript.Method(Method, replies...))
}

// client makes a client of srv with the code under test.
func (c *config) client(t *verdict.Recorder, srv *grpcscript.Server, rnd *seqrand.Source) Call {
	if rnd == nil {
		rnd = seqrand.Seeded(1)
	}
	call := c.newCall(Seams{Target: srv.Target(), DialOptions: srv.DialOptions(), Dial: srv.Dial, Rand: rnd})
	if call == nil {
		t.Fatalf("grpcconformance: newCall returned a nil Call, want one that calls %s through the client", Method)
	}
	return call
}

// do makes one call with ctx and reads its attempts off srv.
func do(ctx context.Context, srv *grpcscript.Server, call Call) outcome {
	before := len(srv.Attempts())
	o := outcome{start: time.Now()}
	o.err = call(ctx)
	o.took = time.Since(o.start)
	o.att = srv.Attempts()[before:]
	return o
}

// once makes a server with replies, a client, and one call.
func (c *config) once(t *verdict.Recorder, ctx context.Context, replies ...grpcscript.Reply) outcome {
	srv := c.server(t, replies...)
	return do(ctx, srv, c.client(t, srv, nil))
}

// waits are the waits between the call's attempts.
func (o outcome) waits() []time.Duration {
	var out []time.Duration
	for i := 1; i < len(o.att); i++ {
		out = append(out, o.att[i].At.Sub(o.att[i-1].At))
	}
	return out
}

// code is the call's status code.
func (o outcome) code() codes.Code { return status.Code(o.err) }

// table prints the call: each attempt with its offset, the wait before
// it, what the suite wants of it (want(i) for attempt i, 1-based) and the
// server's answer, then how the call ended; attempt bad is marked with
// reason (0 marks the end).
func (o outcome) table(want func(i int) string, bad int, reason string) string {
	g := schedfmt.Grid{Header: []string{"attempt", "at", "wait", "want", "deadline", "result"}, Indent: "  "}
	for i, a := range o.att {
		wait := ""
		if i > 0 {
			wait = schedfmt.Duration(a.At.Sub(o.att[i-1].At))
		}
		w := ""
		if want != nil {
			w = want(i + 1)
		}
		dl := ""
		if a.Deadline > 0 {
			dl = schedfmt.Duration(a.Deadline)
		}
		g.Rows = append(g.Rows, schedfmt.GridRow{Cells: []string{fmt.Sprint(i + 1), "+" + schedfmt.Duration(a.At.Sub(o.start)), wait, w, dl, a.Result},
			Marked: bad == i+1, Reason: reason})
	}
	ret := "OK"
	if o.err != nil {
		ret = schedfmt.Cell(o.err.Error(), 100)
	}
	g.Rows = append(g.Rows, schedfmt.GridRow{Cells: []string{"end", "+" + schedfmt.Duration(o.took), "", "", "", "returned " + ret}, Marked: bad == 0 && reason != "", Reason: reason})
	return g.String()
}

// windowWant is the want column of a ladder: "in [lo, hi]".
func windowWant(p retrytest.Policy) func(i int) string {
	return func(i int) string {
		if i == 1 {
			return "at once"
		}
		w := p.Window(i - 1)
		return "in " + schedfmt.Window(w.Min, w.Max)
	}
}

// in reports whether d is in w (a Policy's windows are widened by its
// Tolerance already).
func in(d time.Duration, w retrytest.Window) bool { return d >= w.Min && d <= w.Max }

// errCell is how a call ended, for a message.
func errCell(err error) string {
	if err == nil {
		return "success"
	}
	return fmt.Sprintf("code %v (%s)", status.Code(err), schedfmt.Cell(err.Error(), 80))
}

// codeList names codes for a message.
func codeList(cs []codes.Code) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return strings.Join(out, ", ")
}
