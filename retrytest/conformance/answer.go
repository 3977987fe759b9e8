package conformance

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync/atomic"
	"time"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/httpscript"
	"github.com/retrykit/retrykit/recorder"
	"github.com/retrykit/retrykit/retrytest"
)

// errTransient is what the suite's operation returns for a failed attempt
// that should be retried.
var errTransient = errors.New("conformance: transient failure")

// answer is how the suite ends one attempt.
type answer struct {
	status int         // a client's status; 0 for the kinds below
	header http.Header // with Retry-After
	body   string      // the body; "" for the Spec's Bodies
	err    string      // "reset" or "timeout" for a client
	perm   bool        // Spec.PermanentErr (loop) or its status (client)
	hang   bool        // the attempt hangs (trial.hangUntil)
	ok     bool        // success
}

var (
	transient = answer{}
	success   = answer{ok: true}
)

// transientCause is the outcome of the suite's transient failure, as the
// Spec's Rule sees it: a loop's transient error, or a client's (and a
// policy's) transientOutcome.
func (c *config) transientCause() retrytest.Outcome {
	if c.shape == "loop" {
		return retrytest.Outcome{Err: errTransient, Now: fakeclock.Epoch}
	}
	return c.transientOutcome()
}

// causes are the outcomes besides the transient failure that the suite
// ends a first attempt with, as the Spec's Rule sees them: each Retryable
// and Permanent status, the connection errors, the Signals, a timed-out
// attempt, a PermanentErr.
func (c *config) causes() []retrytest.Outcome {
	var out []retrytest.Outcome
	if c.shape != "loop" {
		for _, s := range append(slices.Clone(c.spec.Retryable), c.spec.Permanent...) {
			out = append(out, retrytest.Outcome{Status: s, Header: http.Header{}, Body: c.bodyFor(s), Now: fakeclock.Epoch})
		}
		for _, e := range connErrors {
			out = append(out, retrytest.Outcome{Err: e.err, Now: fakeclock.Epoch})
		}
		for _, v := range c.spec.Signals {
			out = append(out, retrytest.Outcome{Status: v.Status, Header: v.Header.Clone(), Body: v.Body, Now: fakeclock.Epoch})
		}
	}
	if c.spec.AttemptTimeout > 0 {
		out = append(out, retrytest.Outcome{Err: context.DeadlineExceeded, Now: fakeclock.Epoch})
	}
	if c.spec.PermanentErr != nil {
		out = append(out, retrytest.Outcome{Err: c.spec.PermanentErr, Now: fakeclock.Epoch})
	}
	return out
}

// transientStatus is the status a client's transient failure gets: a
// retryable one whose Retry-After the code does not read, if there is one;
// 0 when the Spec names no Retryable status, and the transient failure is
// a connection reset.
func (c *config) transientStatus() int {
	prefer := []int{503, 500, 502, 504, 429}
	for _, s := range prefer {
		if slices.Contains(c.spec.Retryable, s) && (c.spec.Hints == nil || !slices.Contains(c.spec.ra.Statuses, s)) {
			return s
		}
	}
	for _, s := range prefer {
		if slices.Contains(c.spec.Retryable, s) {
			return s
		}
	}
	if len(c.spec.Retryable) > 0 {
		return c.spec.Retryable[0]
	}
	return 0
}

// transientReply is the reply of a client's transient failure: its
// status, or a connection reset when no status is retryable.
func (c *config) transientReply() httpscript.Reply {
	if s := c.transientStatus(); s != 0 {
		r := httpscript.Respond(s)
		if b := c.bodyFor(s); b != "" {
			r = r.Body(b)
		}
		return r
	}
	return httpscript.ConnReset()
}

// bodyOf is the body an answer's response carries: its own, or the one the
// Spec's Bodies give its status.
func (c *config) bodyOf(a answer) string {
	if a.body != "" {
		return a.body
	}
	s := a.status
	switch {
	case a.ok:
		return ""
	case s == 0 && a.err == "":
		s = c.transientStatus()
	}
	if s == 0 {
		return ""
	}
	return c.bodyFor(s)
}

// bodyFor is the body the Spec's Bodies give status s.
func (c *config) bodyFor(s int) string {
	if b, ok := c.spec.Bodies[s]; ok {
		return b
	}
	return c.spec.Bodies[0]
}

// replies turns a script into a Transport's replies: n answers, the last
// one repeating, then a reply that never comes.
func (c *config) replies(script []answer, n int) []httpscript.Reply {
	var out []httpscript.Reply
	for i, a := range script {
		var r httpscript.Reply
		switch {
		case a.ok:
			r = httpscript.Respond(200)
		case a.err == "reset":
			r = httpscript.ConnReset()
		case a.err == "timeout":
			r = httpscript.IOTimeout()
		case a.status != 0:
			r = httpscript.Respond(a.status)
		default:
			r = c.transientReply()
		}
		for k, vs := range a.header {
			for _, v := range vs {
				r = r.Header(k, v)
			}
		}
		if b := c.bodyOf(a); b != "" {
			r = r.Body(b)
		}
		if i == len(script)-1 && n > len(script) {
			r = r.Times(n - i)
		}
		out = append(out, r)
	}
	return append(out, c.transientReply().Latency(100*365*24*time.Hour).Always())
}

// op is the operation a loop retries: it answers each attempt from
// script, and, past the limit, waits until the call ends.
func (tr *trial) op(sw *recorder.Stopwatch, script []answer, base context.Context) func(context.Context) error {
	var n atomic.Int64
	return func(ctx context.Context) error {
		i := int(n.Add(1)) - 1
		sw.Attempt()
		if i >= tr.c.limit() {
			var err error
			select {
			case <-ctx.Done():
				err = ctx.Err()
			case <-base.Done():
				err = base.Err()
			}
			sw.AttemptResult(err)
			return err
		}
		a := script[min(i, len(script)-1)]
		if a.hang {
			if err := tr.hangUntil(ctx); err != nil {
				sw.AttemptResult(err)
				return err
			}
		}
		var err error
		switch {
		case a.ok:
		case a.perm:
			err = tr.c.spec.PermanentErr
		default:
			err = errTransient
		}
		sw.AttemptResult(err)
		return err
	}
}
