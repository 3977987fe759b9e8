package paste

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/retrykit/retrykit/retrytest"
)

// jitterConsts names each Jitter as its constant in package retrytest.
var jitterConsts = map[retrytest.Jitter]string{
	retrytest.NoJitter: "NoJitter", retrytest.FullJitter: "FullJitter", retrytest.EqualJitter: "EqualJitter",
	retrytest.FactorJitter: "FactorJitter", retrytest.AddedJitter: "AddedJitter", retrytest.PlusMinusJitter: "PlusMinusJitter",
	retrytest.DownJitter: "DownJitter", retrytest.ScaleJitter: "ScaleJitter", retrytest.StepJitter: "StepJitter",
}

// Literal returns p as a Go composite literal, gofmt-aligned, one field
// a line in the order of the struct's fields, its zero fields left out:
// the policy to paste into a config or a Spec.
func Literal(p retrytest.Policy) string {
	type field struct{ name, value string }
	var fs []field
	add := func(ok bool, name, value string) {
		if ok {
			fs = append(fs, field{name, value})
		}
	}
	add(p.First != 0, "First", goDuration(p.First))
	if len(p.Ceilings) > 0 {
		cs := make([]string, len(p.Ceilings))
		for i, c := range p.Ceilings {
			cs[i] = goDuration(c)
		}
		add(true, "Ceilings", "[]time.Duration{"+strings.Join(cs, ", ")+"}")
	}
	add(p.Growth != 0, "Growth", strconv.FormatFloat(p.Growth, 'g', -1, 64))
	add(p.Cap != 0, "Cap", goDuration(p.Cap))
	add(p.Jitter != retrytest.NoJitter, "Jitter", "retrytest."+jitterConsts[p.Jitter])
	add(p.JitterFactor != 0, "JitterFactor", strconv.FormatFloat(p.JitterFactor, 'g', -1, 64))
	add(p.JitterAmount != 0, "JitterAmount", goDuration(p.JitterAmount))
	add(p.JitterScale != [2]float64{}, "JitterScale", "[2]float64{"+strconv.FormatFloat(p.JitterScale[0], 'g', -1, 64)+", "+strconv.FormatFloat(p.JitterScale[1], 'g', -1, 64)+"}")
	add(p.Floor != 0, "Floor", goDuration(p.Floor))
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
