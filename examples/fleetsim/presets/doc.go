// Package presets models the default retry policies of two Go job
// frameworks as pure policies, so that fleetsim (-preset) can run a fleet
// of their jobs through seed 000's outage:
//
//   - River (github.com/riverqueue/river v0.51.2), DefaultClientRetryPolicy:
//     n⁴ seconds ±10% after a job's n-th error, 25 attempts;
//   - asynq (github.com/hibiken/asynq v0.26.0), DefaultRetryDelayFunc:
//     n⁴ + 15 + U{0…29}·(n+1) seconds for a task retried n times so far
//     (Sidekiq's formula), 26 attempts.
//
// The main module cannot import the frameworks, so the models are
// written from their source, cited on each; the nested module
// examples/jobs tests that each model's window for every retry is the
// framework's own (TestRiverPresetMatchesRiversDefault,
// TestAsynqPresetMatchesAsynqsDefault), so a model cannot drift from the
// framework it names.
//
// Neither is a retrytest.Policy (a geometric ladder, First·Growth^k): a
// Preset carries its windows and its Decide itself.
package presets
