package paste

import (
	"errors"
	"fmt"
	"go/format"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
)

// River writes p as River's ClientRetryPolicy, AdvisedRetryPolicy,
// gofmt-formatted; an error for a policy it cannot write.
func River(p retrytest.Policy) (string, error) {
	body, err := delayCode(p)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(comment("AdvisedRetryPolicy is fleetsim's advice for River: " + p.String() + ". Set it in the client's Config with the attempts:"))
	fmt.Fprintf(&b, `//
//	&river.Config{RetryPolicy: &AdvisedRetryPolicy{}, MaxAttempts: %d, ...}
//
// Imports: math, math/rand/v2, time,
// github.com/riverqueue/river/rivershared/baseservice and
// github.com/riverqueue/river/rivertype.
type AdvisedRetryPolicy struct {
	// BaseService gives the policy River's clock: the client sets it, and
	// a test's river.Config.Test.Time stub with it.
	baseservice.BaseService
}

// NextRetry returns when the job runs again.
func (p *AdvisedRetryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	now := time.Now().UTC()
	if p.Time != nil {
		now = p.Time.Now().UTC()
	}
	// n is the errors the job had before this one, 0 for the first retry.
	n := len(job.Errors)
%s	return now.Add(d)
}
`, p.Attempts, body)
	return formatted(b.String())
}

// Asynq writes p as asynq's RetryDelayFunc, AdvisedRetryDelay,
// gofmt-formatted; an error for a policy it cannot write.
func Asynq(p retrytest.Policy) (string, error) {
	body, err := delayCode(p)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(comment("AdvisedRetryDelay is fleetsim's advice for asynq: " + p.String() + ". Set it in the server's Config, and give every task the retries:"))
	fmt.Fprintf(&b, `//
//	asynq.Config{RetryDelayFunc: AdvisedRetryDelay, ...}
//	asynq.NewTask(typename, payload, asynq.MaxRetry(%d))
//
// Imports: math, math/rand/v2, time and github.com/hibiken/asynq.
func AdvisedRetryDelay(n int, _ error, _ *asynq.Task) time.Duration {
	// n is the task's retries so far, 0 for the first retry.
%s	return d
}
`, p.Attempts-1, body)
	return formatted(b.String())
}

// ErrPaste is the error River and Asynq wrap for a policy they cannot
// write.
var ErrPaste = errors.New("paste: no paste")

// comment wraps text as a doc comment of lines at most 76 columns.
func comment(text string) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
			b.WriteString("//")
			n = 2
		case n+1+utf8.RuneCountInString(w) > 76:
			b.WriteString("\n//")
			n = 2
		}
		b.WriteString(" " + w)
		n += 1 + utf8.RuneCountInString(w)
	}
	b.WriteString("\n")
	return b.String()
}

// formatted is src through gofmt: an error if it is not Go.
func formatted(src string) (string, error) {
	out, err := format.Source([]byte(src))
	if err != nil {
		return "", fmt.Errorf("paste: the code written is not Go (%w):\n%s", err, src)
	}
	return string(out), nil
}

// delayCode is the body that sets d, the delay before retry n+1 of p, one
// tab in.
func delayCode(p retrytest.Policy) (string, error) {
	if err := p.Validate(); err != nil {
		return "", fmt.Errorf("%w for an invalid policy: %w", ErrPaste, err)
	}
	if len(p.Ceilings) > 0 {
		return "", fmt.Errorf("%w for a table of ceilings (%v): the advice is a policy of First, Growth and Cap", ErrPaste, p)
	}
	if p.First <= 0 || p.Attempts < 2 {
		return "", fmt.Errorf("%w for %v: want First > 0s and 2 attempts or more", ErrPaste, p)
	}
	g := p.Growth
	if g == 0 {
		g = 2
	}
	var b strings.Builder
	// line writes one statement with the comment that says what it
	// does on the line above it.
	line := func(why, code string) { fmt.Fprintf(&b, "\t// %s\n\t%s\n", why, code) }
	exp := "float64(n)"
	if p.FirstExponent != 0 {
		exp = "float64(n + " + strconv.Itoa(p.FirstExponent) + ")"
	}
	ceiling := "float64(" + goDuration(p.First) + ") * math.Pow(" + strconv.FormatFloat(g, 'g', -1, 64) + ", " + exp + ")"
	capped := p.Cap > 0 && !p.CapAfterJitter // the cap on the ceiling
	form := schedfmt.Duration(p.First)
	if g != 1 {
		form += "·" + strconv.FormatFloat(g, 'g', -1, 64) + "^n"
		if p.FirstExponent != 0 {
			form += "^(n+" + strconv.Itoa(p.FirstExponent) + ")"
			form = strings.Replace(form, "^n^", "^", 1)
		}
	}
	switch {
	case g == 1 && capped && p.Cap < p.First:
		line("The ceiling: the "+schedfmt.Duration(p.Cap)+" cap.", "c := "+goDuration(p.Cap))
	case g == 1:
		line("The ceiling: "+form+".", "c := "+goDuration(p.First))
	case capped:
		// The ceiling is worked in floating point and converted only
		// under the cap: a float past MaxInt64 converts as the platform
		// likes.
		fmt.Fprintf(&b, "\t// The ceiling: %s, at most the %s cap.\n", form, schedfmt.Duration(p.Cap))
		fmt.Fprintf(&b, "\tc := %s\n", goDuration(p.Cap))
		fmt.Fprintf(&b, "\tf := %s\n", ceiling)
		b.WriteString("\tif f < float64(c) {\n\t\tc = time.Duration(f)\n\t}\n")
	default:
		// No cap on the ceiling: the last one must fit in a Duration.
		last := float64(p.First) * math.Pow(g, float64(p.Attempts-2+p.FirstExponent))
		if last >= math.MaxInt64/2 {
			return "", fmt.Errorf("%w for %v: its ceiling before the last retry is past the longest time.Duration, want a Cap on the ceiling", ErrPaste, p)
		}
		line("The ceiling: "+form+".", "f := "+ceiling+"\n\tc := time.Duration(f)")
	}
	switch p.Jitter {
	case retrytest.NoJitter:
		line("No jitter.", "d := c")
	case retrytest.FullJitter:
		if p.OpenTop {
			line("Full jitter: [0, c).", "d := rand.N(c)")
		} else {
			line("Full jitter: [0, c].", "d := rand.N(c + 1)")
		}
	case retrytest.EqualJitter:
		if p.OpenTop {
			line("Equal jitter: [c/2, c).", "d := c/2 + rand.N(c-c/2)")
		} else {
			line("Equal jitter: [c/2, c].", "d := c/2 + rand.N(c-c/2+1)")
		}
	case retrytest.FactorJitter:
		f := strconv.FormatFloat(p.JitterFactor, 'g', -1, 64)
		if p.OpenTop {
			// rand.Float64 < 1, but the product rounds onto the top
			// (River's 1.1s at its first retry): the code cannot keep
			// the top out.
			return "", fmt.Errorf("%w for %v: a factor jitter with its top left out, which a draw rounded onto the top would break; write it closed", ErrPaste, p)
		}
		line("Jitter ±"+strconv.FormatFloat(100*p.JitterFactor, 'g', -1, 64)+"%: [c·(1-"+f+"), c·(1+"+f+")].", "d := time.Duration(float64(c) * (1 + "+f+"*(2*rand.Float64()-1)))")
	case retrytest.StepJitter:
		if p.OpenTop {
			return "", fmt.Errorf("%w for %v: a step jitter with its top left out", ErrPaste, p)
		}
		line("Jitter up to "+schedfmt.Duration(p.JitterAmount)+" a retry: [c, c+(n+1)·"+schedfmt.Duration(p.JitterAmount)+"].", "d := c + rand.N(time.Duration(n+1)*"+goDuration(p.JitterAmount)+"+1)")
	default:
		return "", fmt.Errorf("%w for %v: its jitter, %s, has no paste yet", ErrPaste, p, p.Jitter)
	}
	if p.CapAfterJitter && p.Cap > 0 {
		line("The "+schedfmt.Duration(p.Cap)+" cap, after the jitter.", "d = min(d, "+goDuration(p.Cap)+")")
	}
	if p.Floor > 0 {
		line("The "+schedfmt.Duration(p.Floor)+" floor.", "d = max(d, "+goDuration(p.Floor)+")")
	}
	return b.String(), nil
}
