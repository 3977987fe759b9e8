// Package paste writes the policy fleetsim advises as Go code to paste:
// a retrytest.Policy literal (Literal) for code tested against one, and
// for the job frameworks of its presets the framework's own hook in plain
// Go — River's ClientRetryPolicy (River) and asynq's RetryDelayFunc
// (Asynq) — with the jitter from math/rand/v2's global source and the
// framework's retry count, so the pasted code needs neither retrykit nor
// a seam. Each line of a delay is one field of the Policy, in the order
// Policy.Decide applies them: the ceiling First·Growth^(n+FirstExponent)
// under Cap, the jitter, the cap after the jitter, the Floor.
//
// The nested module examples/jobs compiles a copy of each framework's
// paste and runs it through conformance.TestPolicy against the policy it
// was written from, so a paste that drifts from its Policy fails there.
package paste
