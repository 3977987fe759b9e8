package conformance

import "github.com/retrykit/retrykit/retrytest/conformance/internal/verdict"

// Verdict is how a property, or one case of it, ended: Passed, Failed,
// Skipped, Waived or Stale. Its String is "pass", "FAIL", "skip",
// "waived" or "STALE". The gRPC entry (grpcsuite/grpcconformance) reports
// with the same types.
type Verdict = verdict.Verdict

// The verdicts of a property or a case. Only Failed and Stale fail the
// suite.
const (
	Passed  = verdict.Passed  // it saw what it needs to judge, and the code meets it
	Failed  = verdict.Failed  // the code breaks it; Result.Message says how
	Skipped = verdict.Skipped // there was nothing to judge; Message says what was missing
	Waived  = verdict.Waived  // it fails, and the user waived it (Waive); Message is their reason
	Stale   = verdict.Stale   // it was waived, but it holds: the waiver can go
)

// Result is how one property ended, with its cases: its Property (the
// subtest's name), its Verdict (Failed or Stale when any case is, or when
// it failed outside its cases; else Waived when any case is; else Passed
// when any case passed, or, without cases, it did; else Skipped), its
// Message (a failure outside the cases, why the whole property was
// skipped, or the reason it was waived) and its Cases in the order they
// ran.
type Result = verdict.Result

// Case is how one case of a property ended: its Name, lowercase
// ("rfc850"), its Verdict, and its Message (the failure's text with the
// schedule's table, or why it was skipped, waived, or its waiver is
// stale; "" for a pass).
type Case = verdict.Case

// Report is what a run of the suite found: its Shape ("policy", "loop",
// "client", "parser"; "breaker" or "breaker client"), one Result per
// property that ran, in order, and the Warnings the Spec drew. Its
// methods: Passed (nothing failed, no waiver stale), Failed (the
// properties that failed), Names (every case, or property without cases,
// that ended with a Verdict, as "Property/case") and String (a table of
// the properties, then the text of each failure under its property and
// case).
type Report = verdict.Report
