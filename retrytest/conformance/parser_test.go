package conformance

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/retrykit/retrykit/retryafter"
)

// raNaiveParser is the Retry-After parser of go-retryablehttp v0.7.8, the
// most common shape in Go: ParseInt times a second (no overflow check, a
// sign accepted), else time.RFC1123 (any zone, one of three date forms),
// a past date giving 0.
func raNaiveParser(v string, now time.Time) (time.Duration, error) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, errors.New("negative")
		}
		return time.Second * time.Duration(n), nil
	}
	// ParseInLocation with UTC, not Parse, keeps the CEST row independent
	// of the machine's time zone.
	t, err := time.ParseInLocation(time.RFC1123, v, time.UTC)
	if err != nil {
		return 0, err
	}
	return max(0, t.Sub(now)), nil
}

// raFloatParser is the shape of openai-go v3.25-v3.52 and anthropic-sdk-go:
// ParseFloat, then max(0, d). NaN and Inf become a zero delay on amd64.
func raFloatParser(v string, now time.Time) (time.Duration, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t, err := time.Parse(time.RFC1123, v)
		if err != nil {
			return 0, err
		}
		return max(0, t.Sub(now)), nil
	}
	return max(0, time.Duration(f*float64(time.Second))), nil
}

// httpTimeParser is a careful parser built on net/http.ParseTime: it
// passes every case but the two that ParseTime reads otherwise.
func httpTimeParser(v string, now time.Time) (time.Duration, error) {
	v = strings.Trim(v, " \t")
	if v != "" && strings.Trim(v, "0123456789") == "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n > int64(retryafter.Forever/time.Second) {
			return retryafter.Forever, nil // digits past what a Duration holds
		}
		return time.Duration(n) * time.Second, nil
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, err
	}
	return max(0, t.Sub(now)), nil
}

// failedIDs are the corpus IDs of the cases of r that failed, in upper
// case as the corpus spells them.
func failedIDs(r *Report) []string {
	var ids []string
	for _, n := range r.Names(Failed) {
		if _, id, ok := strings.Cut(n, "/"); ok {
			ids = append(ids, strings.ToUpper(id))
		}
	}
	slices.Sort(ids)
	return ids
}

// TestParserCatchesRealParsers: the parsers real clients ship fail
// exactly the corpus cases they get wrong; retryafter's own pass.
func TestParserCatchesRealParsers(t *testing.T) {
	for name, parse := range map[string]Parser{"retryafter.Parse": retryafter.Parse, "retryafter.ParseStrict": retryafter.ParseStrict} {
		if r, err := CheckParser(parse); err != nil || !r.Passed() {
			t.Errorf("%s: %v\n%s", name, err, r)
		}
	}
	r, err := CheckParser(raNaiveParser)
	if err != nil {
		t.Fatal(err)
	}
	// go-retryablehttp's parser: wraps MaxInt64 seconds, fails on values
	// past int64, takes signs, whitespace for malformed, reads RFC 1123
	// alone and any zone as GMT.
	want := []string{"RA013", "RA014", "RA015", "RA017", "RA018", "RA019", "RA021", "RA053", "RA054", "RA060", "RA061", "RA062", "RA070", "RA072", "RA077"}
	if got := failedIDs(r); !slices.Equal(got, want) {
		t.Errorf("go-retryablehttp's parser failed %v, want %v\n%s", got, want, r)
	}
	// The float parsers: NaN and Inf give a zero delay, dates other than
	// RFC 1123 are not read.
	r, err = CheckParser(raFloatParser)
	if err != nil {
		t.Fatal(err)
	}
	got := failedIDs(r)
	for _, id := range []string{"RA033", "RA037", "RA038", "RA039", "RA041", "RA053", "RA054"} {
		if !slices.Contains(got, id) {
			t.Errorf("the float parser: %s not among the failed cases %v", id, got)
		}
	}
}

// TestParserPanics: a parser that panics on one value fails that case,
// saying so, and the suite goes on.
func TestParserPanics(t *testing.T) {
	r, err := CheckParser(func(v string, now time.Time) (time.Duration, error) {
		if v == "nan" {
			panic("parse: NaN")
		}
		return retryafter.Parse(v, now)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := failedIDs(r); !slices.Equal(got, []string{"RA037"}) {
		t.Fatalf("failed %v, want [RA037]\n%s", got, r)
	}
	for _, res := range r.Results {
		for _, c := range res.Cases {
			if c.Verdict == Failed && c.Message != `RA037 "nan": got panic: parse: NaN, want an error: ParseFloat and float() are case-insensitive for nan.` {
				t.Errorf("the panicking case's message: %q", c.Message)
			}
		}
	}
}

// TestParserWaivers: a parser built on net/http.ParseTime waives the two
// cases that function reads otherwise, by case or by group, and passes; a
// waiver that excuses nothing is stale; one that names no case fails
// its property.
func TestParserWaivers(t *testing.T) {
	twoDigit := Waive("HTTPDate/ra062", "net/http.ParseTime's two-digit year")
	leap := Waive("HTTPDate/ra077", "net/http.ParseTime rejects second 60")
	if r, err := CheckParser(httpTimeParser, twoDigit, leap); err != nil || !r.Passed() {
		t.Errorf("ParseTime-based, both waived: %v\n%s", err, r)
	}
	r, err := CheckParser(httpTimeParser, twoDigit)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Names(Failed); !slices.Equal(got, []string{"HTTPDate/ra077"}) {
		t.Errorf("ParseTime-based, RA062 waived: failed %v, want [HTTPDate/ra077]", got)
	}
	if got := r.Names(Waived); !slices.Equal(got, []string{"HTTPDate/ra062"}) {
		t.Errorf("ParseTime-based, RA062 waived: waived %v, want [HTTPDate/ra062]", got)
	}
	if r, err := CheckParser(httpTimeParser, Waive("HTTPDate", "dates are parsed elsewhere")); err != nil || !r.Passed() {
		t.Errorf("ParseTime-based, the date group waived: %v\n%s", err, r)
	}
	r, err = CheckParser(retryafter.Parse, Waive("Seconds/ra001", "no reason"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Passed() || !slices.Equal(r.Names(Stale), []string{"Seconds/ra001"}) {
		t.Errorf("a waiver of a case Parse gets right: stale %v, passed %v, want it stale and the suite failed", r.Names(Stale), r.Passed())
	}
	r, err = CheckParser(retryafter.Parse, Waive("Seconds/ra999", "x"))
	if err != nil {
		t.Fatal(err)
	}
	if res := result(t, r, "Seconds"); res.Verdict != Failed || !strings.HasPrefix(res.Message, `Waive("Seconds/ra999"): Seconds has no case "ra999": its cases are ra001, `) {
		t.Errorf("a waiver of no case: %v %q, want the property failed, naming its cases", res.Verdict, res.Message)
	}
}

// TestParserJudgesTheRawValue (issue 32, point 5): a bare parser is judged
// on the delay each value asks for, exactly up to 9,223,372,036s; the
// Bounds group, which tests a clamp, runs only when the parser declares
// one. Before, every value above 5m was judged only as "at least 5m", and
// Bounds clamped whatever the parser gave.
func TestParserJudgesTheRawValue(t *testing.T) {
	// Reads a count above 300 as minutes: passed all 69 cases before.
	minutes := func(v string, now time.Time) (time.Duration, error) {
		d, err := retryafter.Parse(v, now)
		if n, aerr := strconv.Atoi(v); aerr == nil && n > 300 && n < 1000000 {
			d = time.Duration(n) * time.Minute
		}
		return d, err
	}
	r, err := CheckParser(minutes)
	if err != nil {
		t.Fatal(err)
	}
	if got := failedIDs(r); !slices.Equal(got, []string{"RA009", "RA010", "RA145"}) {
		t.Errorf("a parser reading 301-999999 seconds as minutes: failed %v, want [RA009 RA010 RA145] (3600, 86400 and 1337 seconds)\n%s", got, r)
	}
	// Reads "1.5" as 0: Bounds no longer clamps it into a pass, and the
	// Seconds case of the same value fails.
	zero := func(v string, now time.Time) (time.Duration, error) {
		if v == "1.5" {
			return 0, nil
		}
		return retryafter.Parse(v, now)
	}
	r, err = CheckParser(zero)
	if err != nil {
		t.Fatal(err)
	}
	if got := failedIDs(r); !slices.Equal(got, []string{"RA042"}) {
		t.Errorf(`a parser reading "1.5" as 0: failed %v, want [RA042]`, got)
	}
	if res := result(t, r, "Bounds"); res.Verdict != Skipped || !strings.Contains(res.Message, "declare its bounds with Clamps(min, max)") {
		t.Errorf("Bounds without Clamps: %v %q, want skipped, saying how to declare a clamp", res.Verdict, res.Message)
	}
	// A parser that clamps to [0, 5m], as Limits does: wrong on the raw
	// values, right once it declares the clamp, Bounds included.
	clamped := func(v string, now time.Time) (time.Duration, error) {
		d, err := retryafter.Parse(v, now)
		return min(d, 5*time.Minute), err
	}
	r, err = CheckParser(clamped)
	if err != nil {
		t.Fatal(err)
	}
	if got := failedIDs(r); !slices.Contains(got, "RA009") || !slices.Contains(got, "RA011") {
		t.Errorf("a clamping parser, undeclared: failed %v, want RA009 (3600s) and RA011 (9223372036s) among them", got)
	}
	r, err = CheckParser(clamped, Clamps(0, 5*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Passed() || result(t, r, "Bounds").Verdict != Passed {
		t.Errorf("a clamping parser, Clamps(0, 5m) declared: want every group to pass, Bounds included\n%s", r)
	}
	// The clamp declared wider than the parser's: the values between fail.
	r, err = CheckParser(clamped, Clamps(0, time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if got := failedIDs(r); !slices.Contains(got, "RA145") || slices.Contains(got, "RA001") {
		t.Errorf("a 5m clamp declared as 1h: failed %v, want RA145 (1337s) and not RA001 (120s)", got)
	}
}
