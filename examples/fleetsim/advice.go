package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/retrykit/retrykit/internal/schedfmt"
	"github.com/retrykit/retrykit/retrytest"
	"github.com/retrykit/retrykit/retrytest/policysim"
)

// dimFlags names each dimension the advisor searches by the flag that
// sets it on the fixed policy, as -keep takes them.
var dimFlags = []struct {
	name string
	dim  policysim.Dims
}{
	{"base", policysim.DimFirst},
	{"factor", policysim.DimGrowth},
	{"cap", policysim.DimCap},
	{"jitter", policysim.DimJitter},
	{"attempts", policysim.DimAttempts},
}

// keepFlag is -keep: the dimensions the advisor leaves as the fixed
// policy has them, by flag name, comma-separated.
type keepFlag struct{ dims policysim.Dims }

func (k *keepFlag) String() string {
	var names []string
	for _, d := range dimFlags {
		if k != nil && k.dims&d.dim != 0 {
			names = append(names, d.name)
		}
	}
	return strings.Join(names, ",")
}

func (k *keepFlag) Set(s string) error {
	k.dims = 0
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		i := 0
		for i < len(dimFlags) && dimFlags[i].name != name {
			i++
		}
		switch {
		case name == "":
		case i == len(dimFlags):
			return fmt.Errorf("%q is not a dimension, want some of base, factor, cap, jitter, attempts", name)
		default:
			k.dims |= dimFlags[i].dim
		}
	}
	return nil
}

// gaveUpFlag is -max-gave-up: the most jobs a policy may give up on and
// pass, the verdict's limit and the advisor's: a share of the jobs, "1%"
// (the default), or a number of jobs.
type gaveUpFlag struct {
	jobs    int
	percent float64
	isShare bool
}

// defaultGaveUp is -max-gave-up's default, policysim.DefaultMaxGaveUpShare.
var defaultGaveUp = gaveUpFlag{percent: 100 * policysim.DefaultMaxGaveUpShare, isShare: true}

func (g *gaveUpFlag) String() string {
	switch {
	case g == nil:
		return defaultGaveUp.String()
	case g.isShare:
		return strconv.FormatFloat(g.percent, 'g', -1, 64) + "%"
	}
	return strconv.Itoa(g.jobs)
}

func (g *gaveUpFlag) Set(s string) error {
	*g = gaveUpFlag{}
	if s == "base" {
		return fmt.Errorf("%q is no longer a limit (fixed itself may give up on most of its jobs), want a number of jobs >= 0 or a share such as 1%%", s)
	}
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || !(f >= 0 && f <= 100) {
			return fmt.Errorf("%q, want a share from 0%% to 100%%", s)
		}
		g.percent, g.isShare = f, true
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("%q, want a number of jobs >= 0 or a share such as 1%%", s)
	}
	g.jobs = n
	return nil
}

// limit returns the most of jobs that may give up.
func (g gaveUpFlag) limit(jobs int) int {
	if g.isShare {
		return policysim.MaxGaveUp(jobs, g.percent/100)
	}
	return g.jobs
}

// allowed says the limit as the verdict does: "the 110 allowed (1%)",
// "the 12 allowed".
func (g gaveUpFlag) allowed(jobs int) string {
	s := "the " + strconv.Itoa(g.limit(jobs)) + " allowed"
	if g.isShare {
		s += " (" + g.String() + ")"
	}
	return s
}

// describe says the limit in words for a fleet of jobs: "110 jobs (1%)",
// "12 jobs".
func (g gaveUpFlag) describe(jobs int) string {
	s := schedfmt.Count(g.limit(jobs), "job")
	if g.isShare {
		s += " (" + g.String() + ")"
	}
	return s
}

// flagsOf returns the fleetsim flags that set the dimensions d of p on
// the fixed policy: "-base 15s -factor 4".
func flagsOf(p retrytest.Policy, d policysim.Dims) string {
	var out []string
	for _, f := range dimFlags {
		if d&f.dim == 0 {
			continue
		}
		var v string
		switch f.dim {
		case policysim.DimFirst:
			v = schedfmt.Duration(p.First)
		case policysim.DimGrowth:
			v = strconv.FormatFloat(p.Growth, 'g', -1, 64)
		case policysim.DimCap:
			v = schedfmt.Duration(p.Cap)
		case policysim.DimJitter:
			v = jitterFlag(p)
		case policysim.DimAttempts:
			v = strconv.Itoa(p.Attempts)
		}
		out = append(out, "-"+f.name+" "+v)
	}
	return strings.Join(out, " ")
}

// jitterFlag returns the -jitter value of p's jitter.
func jitterFlag(p retrytest.Policy) string {
	switch p.Jitter {
	case retrytest.NoJitter:
		return jitterNone
	case retrytest.FullJitter:
		return jitterFull
	case retrytest.EqualJitter:
		return jitterEqual
	case retrytest.AddedJitter:
		return jitterAdded
	}
	return p.Jitter.String()
}

var jitterConsts = map[retrytest.Jitter]string{
	retrytest.NoJitter: "NoJitter", retrytest.FullJitter: "FullJitter", retrytest.EqualJitter: "EqualJitter",
	retrytest.FactorJitter: "FactorJitter", retrytest.AddedJitter: "AddedJitter", retrytest.PlusMinusJitter: "PlusMinusJitter",
}

// goLiteral returns p as a Go composite literal, gofmt-aligned, one field
// a line, its zero fields left out: the policy to paste into a config.
func goLiteral(p retrytest.Policy) string {
	type field struct{ name, value string }
	var fs []field
	add := func(ok bool, name, value string) {
		if ok {
			fs = append(fs, field{name, value})
		}
	}
	add(p.First != 0, "First", goDuration(p.First))
	add(p.Growth != 0, "Growth", strconv.FormatFloat(p.Growth, 'g', -1, 64))
	add(p.Cap != 0, "Cap", goDuration(p.Cap))
	add(p.Jitter != retrytest.NoJitter, "Jitter", "retrytest."+jitterConsts[p.Jitter])
	add(p.JitterFactor != 0, "JitterFactor", strconv.FormatFloat(p.JitterFactor, 'g', -1, 64))
	add(p.JitterAmount != 0, "JitterAmount", goDuration(p.JitterAmount))
	add(p.CapAfterJitter, "CapAfterJitter", "true")
	add(p.FirstExponent != 0, "FirstExponent", strconv.Itoa(p.FirstExponent))
	add(p.OpenTop, "OpenTop", "true")
	add(p.Attempts != 0, "Attempts", strconv.Itoa(p.Attempts))
	add(p.Tolerance != 0, "Tolerance", goDuration(p.Tolerance))
	width := 0
	for _, f := range fs {
		width = max(width, len(f.name))
	}
	var b strings.Builder
	b.WriteString("retrytest.Policy{\n")
	for _, f := range fs {
		fmt.Fprintf(&b, "\t%-*s %s,\n", width+1, f.name+":", f.value)
	}
	b.WriteString("}\n")
	return b.String()
}

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
